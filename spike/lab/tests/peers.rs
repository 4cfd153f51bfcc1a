//! The peers (`barrier_harness::peer`: pyiceberg and the `deltalake` Python package, each a
//! Python process; Iceberg Java, each a JVM process) in the suite's bodies, on the same tables
//! and catalogs as the Rust arms; and the retries-0 comparison of pyiceberg with iceberg-rust.
//! Every trial prints SKIPPED with the reason where the venv (`scripts/interop-venv`), the JVM
//! peers' build (`scripts/java-peer`) or the catalog server is missing.
//!
//! The scenarios a peer cannot run are not trials here: its registry entry names them and says
//! why (`catalog_unavailable`, `aborted_commit_loses_nothing`, `lost_response`, and
//! `held_at_swap` for `deltalake-python`).

mod common;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use barrier_harness::batch::batch;
use barrier_harness::{Arm, CatalogKind, Fixture, IcebergArm, Scenario, Target};
use barrier_sink::{AppId, CommitOutcome, Epoch, HeldWindow, Hooks, SinkError};
use iceberg::transaction::{ApplyTransactionAction, Transaction};
use libtest_mimic::Trial;

fn main() -> ExitCode {
    let mut trials = vec![];
    for arm in Arm::all() {
        let Some(peer) = arm.peer() else { continue };
        let targets = match arm {
            Arm::Delta(_) => Target::on(arm, &[]),
            Arm::Iceberg(_) => Target::on(arm, peer.catalogs),
        };
        for target in targets {
            for &scenario in Scenario::ALL.iter().filter(|s| peer.not_applicable(**s).is_none()) {
                trials.push(common::trial(target, scenario, || ()));
            }
        }
    }
    trials.extend(retries_zero::trials());
    libtest_mimic::run(&common::arguments(), trials).exit_code()
}

/// One writer commits epoch 1 on a table it loaded when the epoch was free, after another
/// writer committed epoch 1 (the stale writer is held in the window after its check, as in
/// `held_window`), on a SQLite table whose `commit.retry.num-retries` is set as each test says.
/// pyiceberg's first attempt asserts `main` at the base its caller loaded, so with no retry the
/// stale append fails; iceberg-rust 0.10.1 rebases its first attempt onto the refreshed table,
/// so the same setting does not stop it (`claims::num_retries_zero_does_not_stop_the_rebase`,
/// on `memory`; here on `sqlite`, through the same window).
mod retries_zero {
    use super::*;

    const NUM_RETRIES: &str = "commit.retry.num-retries";

    /// What the stale writer was told, the epochs the table holds for the app, and whether the
    /// table's last snapshot is parented on the winner's. `None` when the target cannot run here.
    async fn stale_append(
        arm: IcebergArm,
        num_retries: Option<&str>,
    ) -> Option<(Result<CommitOutcome, SinkError>, Vec<Epoch>, bool)> {
        let target = Target::Iceberg(arm, CatalogKind::Sqlite);
        if let Some(why) = target.unavailable() {
            println!("SKIPPED {target}: {why}");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let fixture = Fixture::create(target, dir.path()).await.unwrap();
        // The property as the test wants it, set through the stock build before any writer.
        let Some(barrier_iceberg::Table::Stock(table)) = fixture.iceberg().await.unwrap() else {
            panic!("{target} is a stock-build table");
        };
        let base = table.load().await.unwrap();
        let tx = Transaction::new(&base);
        let update = tx.update_table_properties();
        let update = match num_retries {
            Some(n) => update.set(NUM_RETRIES.into(), n.into()),
            None => update.remove(NUM_RETRIES.into()),
        };
        update.apply(tx).unwrap().commit(table.catalog.as_ref()).await.unwrap();

        let app = AppId::new("claims").unwrap();
        let one = Epoch::new(1).unwrap();
        let window = HeldWindow::new();
        let stale = fixture.writer(Hooks::default().with_window(Arc::clone(&window))).await.unwrap();
        let other = fixture.writer(Hooks::default()).await.unwrap();
        let held_app = app.clone();
        let held = tokio::spawn(async move { stale.commit(&held_app, one, batch(0, 8, "stale")).await });
        // A safety net against a hang, not an ordering device: the window orders the writers.
        tokio::time::timeout(Duration::from_secs(120), window.reached())
            .await
            .expect("the stale writer reaches its window");
        assert_eq!(other.commit(&app, one, batch(100, 8, "winner")).await.unwrap(), CommitOutcome::Committed);
        let winner = table.load().await.unwrap().metadata().current_snapshot_id();
        window.release();
        let told = held.await.unwrap();
        let now = table.load().await.unwrap();
        let parent = now.metadata().current_snapshot().and_then(|s| s.parent_snapshot_id());
        let history = table.epoch_history(&app).await.unwrap();
        println!("{target}, {NUM_RETRIES} {num_retries:?}: stale writer told {told:?}; epochs {history:?}");
        Some((told, history, parent == winner))
    }

    /// The trial `retries_zero::<name>`: `check` is given what the stale writer of `arm` was
    /// told, the table's epochs, and whether the last snapshot is parented on the winner's.
    fn trial(
        name: &str,
        arm: IcebergArm,
        num_retries: Option<&'static str>,
        check: fn(Result<CommitOutcome, SinkError>, Vec<Epoch>, bool),
    ) -> Trial {
        Trial::test(format!("retries_zero::{name}"), move || {
            if let Some((told, history, on_winner)) = common::runtime().block_on(stale_append(arm, num_retries)) {
                check(told, history, on_winner);
            }
            Ok(())
        })
    }

    pub fn trials() -> Vec<Trial> {
        vec![
            trial("pyiceberg_raises_on_the_stale_base", IcebergArm::PyicebergNaive, Some("0"), |told, history, _| {
                assert!(
                    matches!(told, Err(SinkError::Conflict { .. })),
                    "CommitFailedException expected, told {told:?}"
                );
                assert_eq!(history, vec![Epoch::new(1).unwrap()], "the table holds epoch 1 once");
            }),
            trial(
                "pyiceberg_default_retries_rebase_onto_the_winner",
                IcebergArm::PyicebergNaive,
                None,
                |told, history, on_winner| {
                    assert_eq!(told.unwrap(), CommitOutcome::Committed, "the retry commits");
                    assert_eq!(history, vec![Epoch::new(1).unwrap(); 2], "epoch 1 committed twice");
                    assert!(on_winner, "the retry rebased the append onto the winner's snapshot");
                },
            ),
            trial("iceberg_rust_rebases_anyway", IcebergArm::NaiveStock, Some("0"), |told, history, on_winner| {
                assert_eq!(told.unwrap(), CommitOutcome::Committed, "the first and only attempt commits");
                assert_eq!(history, vec![Epoch::new(1).unwrap(); 2], "epoch 1 committed twice");
                assert!(on_winner, "rebased onto the winner's snapshot on the first attempt");
            }),
        ]
    }
}

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
use barrier_harness::{CatalogKind, Fixture, IcebergArm, Peer, Scenario, Target};
use barrier_sink::{AppId, CommitOutcome, Epoch, HeldWindow, Hooks, SinkError};
use iceberg::transaction::{ApplyTransactionAction, Transaction};
use libtest_mimic::Trial;

fn main() -> ExitCode {
    let cells = Peer::ALL.iter().map(|peer| peer.spec()).flat_map(|peer| {
        Target::peer_on(peer, CatalogKind::ALL).into_iter().flat_map(move |target| {
            Scenario::ALL.iter().filter(move |s| peer.not_applicable(**s).is_none()).map(move |s| (target, *s))
        })
    });
    let mut trials: Vec<Trial> =
        common::tiered(cells).map(|(target, scenario)| common::trial(target, scenario, || ())).collect();
    trials.extend(retries_zero::trials());
    trials.extend(user_peer::trials());
    let conclusion = libtest_mimic::run(&common::arguments(), trials);
    common::runtime().block_on(async { barrier_harness::peer::stop_idle() });
    conclusion.exit_code()
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
        target: Target,
        num_retries: Option<&str>,
    ) -> Option<(Result<CommitOutcome, SinkError>, Vec<Epoch>, bool)> {
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

    /// The trial `retries_zero::<name>`: `check` is given what the stale writer of `target` was
    /// told, the table's epochs, and whether the last snapshot is parented on the winner's.
    fn trial(
        name: &str,
        target: Target,
        num_retries: Option<&'static str>,
        check: fn(Result<CommitOutcome, SinkError>, Vec<Epoch>, bool),
    ) -> Trial {
        Trial::test(format!("retries_zero::{name}"), move || {
            if let Some((told, history, on_winner)) = common::runtime().block_on(stale_append(target, num_retries)) {
                check(told, history, on_winner);
            }
            Ok(())
        })
    }

    pub fn trials() -> Vec<Trial> {
        let pyiceberg = Target::peer(Peer::PyicebergNaive.spec(), Some(CatalogKind::Sqlite)).expect("on sqlite");
        let iceberg_rust = Target::Iceberg(IcebergArm::NaiveStock, CatalogKind::Sqlite);
        vec![
            trial("pyiceberg_raises_on_the_stale_base", pyiceberg, Some("0"), |told, history, _| {
                assert!(
                    matches!(told, Err(SinkError::Conflict { .. })),
                    "CommitFailedException expected, told {told:?}"
                );
                assert_eq!(history, vec![Epoch::new(1).unwrap()], "the table holds epoch 1 once");
            }),
            trial("pyiceberg_default_retries_rebase_onto_the_winner", pyiceberg, None, |told, history, on_winner| {
                assert_eq!(told.unwrap(), CommitOutcome::Committed, "the retry commits");
                assert_eq!(history, vec![Epoch::new(1).unwrap(); 2], "epoch 1 committed twice");
                assert!(on_winner, "the retry rebased the append onto the winner's snapshot");
            }),
            trial("iceberg_rust_rebases_anyway", iceberg_rust, Some("0"), |told, history, on_winner| {
                assert_eq!(told.unwrap(), CommitOutcome::Committed, "the first and only attempt commits");
                assert_eq!(history, vec![Epoch::new(1).unwrap(); 2], "epoch 1 committed twice");
                assert!(on_winner, "rebased onto the winner's snapshot on the first attempt");
            }),
        ]
    }
}

/// `verdict --peer NAME=COMMAND`: a user's sink, judged by the command a user runs. The user's
/// program here is a shell script that serves one of this project's peers under the user's name
/// (as a user's own program would serve its sink), so that one script is honest about what it
/// wraps: a guarded one must pass every scenario a peer can run, and a naive one, claiming
/// exactly-once as every user's peer does, must make `verdict` fail.
mod user_peer {
    use std::process::Command;

    use super::*;

    /// `verdict --only-peers --peer mine=SCRIPT --json` where SCRIPT serves `wrapped`: its exit
    /// status and cells. `None` (SKIPPED printed) where what runs `wrapped` is missing.
    fn verdict(wrapped: Peer) -> Option<(bool, Vec<serde_json::Value>)> {
        let dir = tempfile::tempdir().unwrap();
        let (program, args) = match wrapped.spec().runtime.command(dir.path()) {
            Ok(command) => command,
            Err(why) => {
                println!("SKIPPED user peer wrapping {wrapped}: {why}");
                return None;
            }
        };
        let script = dir.path().join("my-sink");
        let quoted: Vec<String> = std::iter::once(program.display().to_string())
            .chain(args)
            .map(|arg| format!("'{}'", arg.replace('\'', "'\\''")))
            .collect();
        // The protocol gives `MODE NAME ...`; the wrapped program is told its own name.
        let body = format!("#!/bin/sh\nmode=$1\nshift 2\nexec {} \"$mode\" {wrapped} \"$@\"\n", quoted.join(" "));
        std::fs::write(&script, body).unwrap();
        let chmod = Command::new("chmod").arg("+x").arg(&script).status().unwrap();
        assert!(chmod.success());
        let output = Command::new(env!("CARGO_BIN_EXE_verdict"))
            .args(["--only-peers", "--rounds", "4", "--json", "--peer"])
            .arg(format!("mine={}", script.display()))
            .output()
            .expect("verdict runs");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
        let cells = report["cells"].as_array().expect("cells").clone();
        for cell in &cells {
            println!("mine ({wrapped}) {}: {} {}", cell["scenario"], cell["passed"], cell["observed"]);
        }
        Some((output.status.success(), cells))
    }

    fn ran(cells: &[serde_json::Value]) -> Vec<&serde_json::Value> {
        cells.iter().filter(|c| c.get("not_applicable").is_none()).collect()
    }

    pub fn trials() -> Vec<Trial> {
        vec![
            Trial::test("user_peer::verdict_passes_a_guarded_command", || {
                let Some((success, cells)) = verdict(Peer::GoIcebergAssertRef) else { return Ok(()) };
                assert!(cells.iter().all(|c| c["arm"] == "mine" && c["build"] == "user's command"));
                assert_eq!(cells.len(), Scenario::ALL.len(), "every scenario, on sqlite alone");
                assert_eq!(ran(&cells).len(), Scenario::ALL.len() - 3, "all but the Rust writer's faults");
                assert!(cells.iter().all(|c| c["passed"] == true), "every cell as claimed");
                assert!(success, "verdict exits 0");
                Ok(())
            }),
            Trial::test("user_peer::verdict_fails_a_command_that_duplicates", || {
                let Some((success, cells)) = verdict(Peer::PyicebergNaive) else { return Ok(()) };
                let held = cells.iter().find(|c| c["scenario"] == "held_window").expect("held_window");
                assert_eq!(held["passed"], false, "held to exactly-once, the naive sink fails the held window");
                assert_eq!(held["committed"].as_array().map(Vec::len), Some(2), "epoch 1 committed twice");
                assert!(!success, "verdict exits non-zero");
                Ok(())
            }),
        ]
    }
}

//! `iceberg-snapshot-id` (patch 5) beyond the suite, on every catalog: one trial per catalog and
//! property, `<catalog>::<property>`.
//!
//! - A duplicate id offered past every requirement: a commit that adds `main`'s current snapshot
//!   again, with `main` asserted where it is. The library refuses it itself, on every catalog,
//!   before anything is sent: `Transaction::commit` applies each action's updates to its copy of
//!   the metadata, whose `add_snapshot` refuses an id it has (memory and SQL apply the same updates
//!   with the same code again inside `update_table`; the REST servers' own refusal, which no
//!   iceberg-rust writer reaches, is the contract's `duplicate_snapshot_id`, `tests/contract/http.rs`). What it answers
//!   is printed, with whether the arm reads it as "already committed"; the epoch is then replayed:
//!   `AlreadyCommitted`, and the table holds it once.
//! - A writer that keys its epochs another way (this project's naive sink: the summary and the
//!   watermark only, as the peers do). Sequentially, after it commits an epoch, the arm's writer
//!   answers that epoch `AlreadyCommitted`: its look runs on a fresh load (it held the table its
//!   last commit returned before 2026-12-07, and committed the epoch again). Between the arm's
//!   check and its swap, it is fenced by nothing (the id is all the swap checks): epoch 1 twice,
//!   asserted, the scope of the claim.
//! - Snapshot expiry, held: a writer held after its check of epoch 1 while another writer commits
//!   epochs 1, 2 (and 3) and every snapshot but the current one expires. Epoch 1's snapshot is
//!   gone; while the current snapshot names it as its parent, patch 5 still refuses its id (reusing
//!   it made `main`'s ancestry a cycle, which every walk of the table then looped on, before the
//!   patch refused it): `AlreadyCommitted`. Once no snapshot names it, the id is free and the
//!   held writer's append is accepted: epoch 1 twice, asserted (the suite's
//!   `epochs_survive_expiry` replays without a hold, and the watermark answers it; nothing at the
//!   swap remembers an id expired two generations back).

#[path = "common/cli.rs"]
mod cli;
#[path = "common/property.rs"]
mod property;

use std::process::ExitCode;
use std::sync::Arc;

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Fixture, IcebergArm};
use barrier_iceberg::Strategy;
use barrier_iceberg::patched::{self, DuplicateIdAnswer};
use barrier_sink::{CommitOutcome, CommitSink, HeldWindow, Hooks};
use property::{Property, app, epoch};

fn main() -> ExitCode {
    let properties: [(&str, Property); 6] = [
        ("a_long_app_id_commits_once", |fx| {
            Box::pin(async move { property::app_id_commits_once(fx, &"a".repeat(5_000)).await })
        }),
        ("a_summary_keyed_writer_s_epoch_is_answered_already_committed", |fx| {
            Box::pin(property::foreign_commit_before(fx, Strategy::Patched(&patched::Naive)))
        }),
        ("a_summary_keyed_writer_in_the_window_is_not_fenced", |fx| {
            Box::pin(property::foreign_commit_in_window(fx, Strategy::Patched(&patched::Naive)))
        }),
        ("a_duplicate_id_is_refused_before_it_is_sent", |fx| Box::pin(duplicate_id(fx))),
        ("a_writer_held_past_expiry_is_refused_while_a_child_names_the_id", |fx| Box::pin(held_past_expiry(fx, 2))),
        ("a_writer_held_past_expiry_commits_again_once_no_snapshot_names_the_id", |fx| {
            Box::pin(held_past_expiry(fx, 3))
        }),
    ];
    let trials = CatalogKind::ALL
        .iter()
        .copied()
        .flat_map(|kind| {
            properties.map(|(name, property)| property::trial(IcebergArm::SnapshotId, kind, name, property))
        })
        .collect();
    libtest_mimic::run(&cli::arguments(), trials).exit_code()
}

fn report(e: barrier_sink::SinkError) -> String {
    e.report().to_string()
}

async fn writer(fx: &Fixture, hooks: Hooks) -> Result<Box<dyn CommitSink>, String> {
    fx.writer(hooks).await.map_err(report)
}

async fn duplicate_id(fx: &Fixture) -> Result<String, String> {
    let a = app();
    let rows = |n: u64| batch(n as i64 * 100, BATCH_ROWS, &format!("epoch-{n}"));
    let sink = writer(fx, Hooks::default()).await?;
    let first = sink.commit(&a, epoch(1), rows(1)).await.map_err(report)?;
    let table = fx.iceberg().await.map_err(report)?.ok_or("an Iceberg fixture")?;
    let answer = table.offer_current_snapshot_again().await.map_err(report)?;
    let replay = sink.commit(&a, epoch(1), rows(1)).await.map_err(report)?;
    let history = fx.epoch_history(&a).await.map_err(report)?;
    let observed = format!("first {first:?}; the offer was {answer:?}; replay {replay:?}; epochs {history:?}");
    let refused = matches!(answer, DuplicateIdAnswer::Refused { taken: true, .. });
    if first == CommitOutcome::Committed
        && refused
        && replay == (CommitOutcome::AlreadyCommitted { committed: epoch(1) })
        && history == [epoch(1)]
    {
        Ok(observed)
    } else {
        Err(format!("expected the duplicate id refused and epoch 1 once: {observed}"))
    }
}

/// Holds a writer of epoch 1 while another commits epochs 1 to `last` and every snapshot but the
/// current one expires; then releases it.
async fn held_past_expiry(fx: &Fixture, last: u64) -> Result<String, String> {
    let a = app();
    let rows = |n: u64| batch(n as i64 * 100, BATCH_ROWS, &format!("epoch-{n}"));
    let window = HeldWindow::new();
    let held = writer(fx, Hooks::default().with_window(Arc::clone(&window))).await?;
    let other = writer(fx, Hooks::default()).await?;
    let held_app = a.clone();
    let task = tokio::spawn(async move { held.commit(&held_app, epoch(1), rows(1)).await });
    window.reached().await;
    for n in 1..=last {
        other.commit(&a, epoch(n), rows(n)).await.map_err(report)?;
    }
    let expired = fx.expire_history().await.map_err(report)?;
    window.release();
    let told = task.await.map_err(|e| e.to_string())?.map_err(report)?;
    let history = fx.epoch_history(&a).await.map_err(report)?;
    let observed = format!("{expired} snapshots expired; held writer {told:?}; epochs on main {history:?}");
    let (expected_told, expected_history, what) = match last {
        2 => (CommitOutcome::AlreadyCommitted { committed: epoch(2) }, vec![epoch(2)], "refused"),
        _ => (CommitOutcome::Committed, vec![epoch(1), epoch(last)], "committed again: epoch 1 twice"),
    };
    if expired > 0 && told == expected_told && history == expected_history {
        Ok(format!("{observed}: {what}"))
    } else {
        Err(format!("expected epoch 1 {what}: {observed}"))
    }
}

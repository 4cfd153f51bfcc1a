//! The hazards of `iceberg-file-key` beyond the suite, each forced with a held window, on the
//! local file system (`sqlite`) and on S3 (`rest`, SeaweedFS; `rustberg` on the same S3): one
//! trial per catalog and hazard, `<catalog>::<hazard>`.
//!
//! (a) A stale writer of a committed epoch writes its data file at the committed file's path
//! before the duplicate-file check refuses its commit. With a plain write (`create_only: false`)
//! it replaces the committed rows: asserted. With the arm's create-only write the committed rows
//! stay: asserted, on both stores (S3 only if the store honours `If-None-Match: *`, which
//! SeaweedFS 4.48 does: a store that ignored it would fail this trial).
//! (b) Snapshot expiry: the epoch's files stay live in `main` (appends carry their manifests
//! forward), so a stale replay of the same batch after expiry is still refused by the check.
//! (c), a rewrite of the table's data, is the suite's `epochs_survive_rewrite`; (d), the cost,
//! is `benches` (`instructions` at 1 to 10 000 snapshots).
//! (e) A writer that records the epoch in the summary alone (this project's naive sink, as the
//! peers do) and commits while the arm's writer is held after its check is fenced by nothing:
//! the duplicate-file check reads file names, and the foreign writer's have others. Epoch 1
//! twice, asserted: the claim holds among writers that name their files the same way.
//! (f) An app id of any length commits: past a file name's limit its key is a digest.

#[path = "common/cli.rs"]
mod cli;
#[path = "common/property.rs"]
mod property;

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::sync::Arc;

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Fixture, IcebergArm};
use barrier_iceberg::{Strategy, stock};
use barrier_sink::{CommitOutcome, CommitSink, HeldWindow, Hooks};
use property::{Property, app, epoch};

static PLAIN: stock::FileKey = stock::FileKey { create_only: false };
static CREATE_ONLY: stock::FileKey = stock::FileKey { create_only: true };

fn main() -> ExitCode {
    let hazards: [(&str, Property); 7] = [
        ("a_plain_write_replaces_the_committed_rows", |fx| Box::pin(stale_write(fx, &PLAIN))),
        ("create_only_keeps_the_committed_rows", |fx| Box::pin(stale_write(fx, &CREATE_ONLY))),
        ("expiry_keeps_the_epoch_s_files_live", |fx| Box::pin(stale_replay_after_expiry(fx))),
        ("a_summary_keyed_writer_s_epoch_is_answered_already_committed", |fx| {
            Box::pin(property::foreign_commit_before(fx, Strategy::Stock(&stock::Naive)))
        }),
        ("a_summary_keyed_writer_in_the_window_is_not_fenced", |fx| {
            Box::pin(property::foreign_commit_in_window(fx, Strategy::Stock(&stock::Naive)))
        }),
        // A 5 000-byte id, and one whose escaping triples it past a file name's 255 bytes.
        ("a_long_app_id_commits_once", |fx| {
            Box::pin(async move { property::app_id_commits_once(fx, &"a".repeat(5_000)).await })
        }),
        ("an_escaped_app_id_past_a_file_name_s_limit_commits_once", |fx| {
            Box::pin(async move { property::app_id_commits_once(fx, &"/".repeat(90)).await })
        }),
    ];
    let trials = [CatalogKind::Sqlite, CatalogKind::Rest, CatalogKind::Rustberg]
        .into_iter()
        .flat_map(|kind| hazards.map(|(name, hazard)| property::trial(IcebergArm::FileKey, kind, name, hazard)))
        .collect();
    libtest_mimic::run(&cli::arguments(), trials).exit_code()
}

async fn writer(fx: &Fixture, strategy: &'static stock::FileKey, hooks: Hooks) -> Result<Box<dyn CommitSink>, String> {
    let table = fx.iceberg().await.map_err(|e| e.report().to_string())?.ok_or("an Iceberg fixture")?;
    table.writer(Strategy::Stock(strategy), hooks, None).map_err(|e| e.report().to_string())
}

/// Writer A is held after its check of epoch 1 (before it writes a file); B commits epoch 1 with
/// its batch; A resumes with another batch. A is told `AlreadyCommitted{1}` either way; what
/// differs is whose rows epoch 1 holds afterwards.
async fn stale_write(fx: &Fixture, strategy: &'static stock::FileKey) -> Result<String, String> {
    let a = app();
    let window = HeldWindow::new();
    let stale = writer(fx, strategy, Hooks::default().with_window(Arc::clone(&window))).await?;
    let other = writer(fx, strategy, Hooks::default()).await?;
    let held_app = a.clone();
    let task = tokio::spawn(async move { stale.commit(&held_app, epoch(1), batch(0, BATCH_ROWS, "stale")).await });
    window.reached().await;
    let first =
        other.commit(&a, epoch(1), batch(0, BATCH_ROWS, "committed")).await.map_err(|e| e.report().to_string())?;
    window.release();
    let told = task.await.map_err(|e| e.to_string())?.map_err(|e| e.report().to_string())?;
    let rows = fx.epoch_batches(&a).await.map_err(|e| e.report().to_string())?;
    let holds: Vec<&BTreeSet<String>> = rows.iter().map(|(_, r)| r).collect();
    let observed = format!("committed {first:?}, stale writer {told:?}; epoch 1 holds {holds:?}");
    let expected = if strategy.create_only { "committed" } else { "stale" };
    let already = CommitOutcome::AlreadyCommitted { committed: epoch(1) };
    if first == CommitOutcome::Committed && told == already && holds == [&BTreeSet::from([expected.to_string()])] {
        Ok(observed)
    } else {
        Err(format!("expected epoch 1 to hold the {expected} rows: {observed}"))
    }
}

/// Writer A is held after its check of epoch 1; B commits epochs 1 and 2 with the same batches;
/// every snapshot but the current one expires; A resumes with B's batch for epoch 1. A plain
/// write (the same bytes again), so that only the duplicate-file check can refuse it.
async fn stale_replay_after_expiry(fx: &Fixture) -> Result<String, String> {
    let a = app();
    let rows = |n: u64| batch(n as i64 * 100, BATCH_ROWS, &format!("epoch-{n}"));
    let window = HeldWindow::new();
    let stale = writer(fx, &PLAIN, Hooks::default().with_window(Arc::clone(&window))).await?;
    let other = writer(fx, &PLAIN, Hooks::default()).await?;
    let held_app = a.clone();
    let task = tokio::spawn(async move { stale.commit(&held_app, epoch(1), rows(1)).await });
    window.reached().await;
    for n in [1, 2] {
        other.commit(&a, epoch(n), rows(n)).await.map_err(|e| e.report().to_string())?;
    }
    let expired = fx.expire_history().await.map_err(|e| e.report().to_string())?;
    let walk = fx.iceberg().await.map_err(|e| e.report().to_string())?.ok_or("Iceberg")?;
    let walk = walk.epoch_from_walk_alone(&a).await.map_err(|e| e.report().to_string())?;
    window.release();
    let told = task.await.map_err(|e| e.to_string())?.map_err(|e| e.report().to_string())?;
    let history = fx.epoch_history(&a).await.map_err(|e| e.report().to_string())?;
    let observed = format!("{expired} snapshots expired; stale writer {told:?}; epochs in the table {history:?}");
    if expired > 0 && told == (CommitOutcome::AlreadyCommitted { committed: epoch(2) }) && history == [epoch(2)] {
        Ok(format!("{observed}; the walk alone after expiry finds {walk:?}"))
    } else {
        Err(format!("expected the stale replay refused: {observed}"))
    }
}

//! One trial per catalog and property of an arm's table, `<catalog>::<property>`, for the test
//! binaries that measure one arm beyond the suite (`file_key.rs`, `snapshot_id.rs`): a fresh
//! fixture per trial, the property's observation printed, `SKIPPED` with the reason where the
//! catalog's server is unavailable.

use std::sync::Arc;

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Fixture, IcebergArm, Target};
use barrier_iceberg::Strategy;
use barrier_sink::{AppId, CommitOutcome, CommitSink, Epoch, HeldWindow, Hooks, SinkError};
use libtest_mimic::{Failed, Trial};

use crate::cli;

/// What a trial checks on a fresh table: `Ok` with what it observed, `Err` with why it failed.
pub type Property = for<'a> fn(&'a Fixture) -> futures::future::BoxFuture<'a, Result<String, String>>;

pub fn trial(arm: IcebergArm, kind: CatalogKind, name: &'static str, property: Property) -> Trial {
    Trial::test(format!("{kind}::{name}"), move || {
        let target = Target::Iceberg(arm, kind);
        if let Some(why) = target.unavailable() {
            println!("SKIPPED {kind}::{name}: {why}");
            return Ok(());
        }
        cli::runtime().block_on(async {
            let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
            let fixture = Fixture::create(target, dir.path()).await.map_err(|e| format!("fixture: {}", e.report()))?;
            let observed = property(&fixture).await.map_err(|e| Failed::from(format!("{kind}::{name}: {e}")))?;
            println!("{kind}::{name}: {observed}");
            Ok(())
        })
    })
}

pub fn app() -> AppId {
    AppId::new("app-a").expect("not empty")
}

pub fn epoch(n: u64) -> Epoch {
    Epoch::new(n).expect("in range")
}

fn report(e: SinkError) -> String {
    e.report().to_string()
}

/// A writer of the fixture's table through `strategy`, another kind of writer than the arm's.
async fn foreign_writer(fx: &Fixture, strategy: Strategy) -> Result<Box<dyn CommitSink>, String> {
    let table = fx.iceberg().await.map_err(report)?.ok_or("an Iceberg fixture")?;
    table.writer(strategy, Hooks::default(), None).map_err(report)
}

/// The arm's writer commits epoch 1 (a writer that holds its table keeps the table that commit
/// returned); a writer that keys its epochs another way (`foreign`: the snapshot summary and the
/// watermark only, as this project's naive sink and the peers do) commits epoch 2; the arm's
/// writer, asked, finds epoch 2, and offered epoch 2 must answer `AlreadyCommitted{2}`, adding
/// nothing: a sink whose own reader says the epoch is in the table must not commit it again.
pub async fn foreign_commit_before(fx: &Fixture, foreign: Strategy) -> Result<String, String> {
    let a = app();
    let own = fx.writer(Hooks::default()).await.map_err(report)?;
    let other = foreign_writer(fx, foreign).await?;
    own.commit(&a, epoch(1), batch(100, BATCH_ROWS, "own-1")).await.map_err(report)?;
    other.commit(&a, epoch(2), batch(200, BATCH_ROWS, "foreign-2")).await.map_err(report)?;
    let found = own.committed_epoch(&a).await.map_err(report)?;
    let told = own.commit(&a, epoch(2), batch(300, BATCH_ROWS, "own-2")).await.map_err(report)?;
    let history = fx.epoch_history(&a).await.map_err(report)?;
    let observed = format!("the arm's writer finds {found:?}, offered epoch 2 is told {told:?}; epochs {history:?}");
    let already = CommitOutcome::AlreadyCommitted { committed: epoch(2) };
    if found == Some(epoch(2)) && told == already && history == [epoch(2), epoch(1)] {
        Ok(observed)
    } else {
        Err(format!("expected AlreadyCommitted{{2}} and epoch 2 once: {observed}"))
    }
}

/// The arm's writer is held after its check of epoch 1 passed; a writer that keys its epochs
/// another way (`foreign`, as [`foreign_commit_before`]) commits epoch 1; the held writer is
/// released. An arm whose check at the swap reads only its own key (a file name, a snapshot id)
/// commits the epoch again: the scope of its claim, asserted. Returns what the held writer was
/// told, for the caller to hold it to.
pub async fn foreign_commit_in_window(fx: &Fixture, foreign: Strategy) -> Result<String, String> {
    let a = app();
    let window = HeldWindow::new();
    let held = fx.writer(Hooks::default().with_window(Arc::clone(&window))).await.map_err(report)?;
    let other = foreign_writer(fx, foreign).await?;
    let held_app = a.clone();
    let task = tokio::spawn(async move { held.commit(&held_app, epoch(1), batch(0, BATCH_ROWS, "held")).await });
    window.reached().await;
    let first = other.commit(&a, epoch(1), batch(100, BATCH_ROWS, "foreign")).await.map_err(report)?;
    window.release();
    let told = task.await.map_err(|e| e.to_string())?.map_err(report)?;
    let history = fx.epoch_history(&a).await.map_err(report)?;
    let observed = format!("foreign writer {first:?}, held writer {told:?}; epochs {history:?}");
    if first == CommitOutcome::Committed && told == CommitOutcome::Committed && history == [epoch(1), epoch(1)] {
        Ok(format!("{observed}: not fenced, epoch 1 twice (the claim's scope: writers keyed the same way)"))
    } else {
        Err(format!(
            "expected the held writer to commit epoch 1 again (its check at the swap reads only its own key): {observed}"
        ))
    }
}

/// The arm commits epoch 1 of an app whose id is `id`, then replays it: `Committed`, then
/// `AlreadyCommitted{1}`, the epoch once.
pub async fn app_id_commits_once(fx: &Fixture, id: &str) -> Result<String, String> {
    let a = AppId::new(id).map_err(report)?;
    let sink = fx.writer(Hooks::default()).await.map_err(report)?;
    let first = sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "first")).await.map_err(report)?;
    let replay = sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "first")).await.map_err(report)?;
    let history = fx.epoch_history(&a).await.map_err(report)?;
    let observed = format!("an app id of {} bytes: {first:?}, replay {replay:?}, epochs {history:?}", id.len());
    if first == CommitOutcome::Committed
        && replay == (CommitOutcome::AlreadyCommitted { committed: epoch(1) })
        && history == [epoch(1)]
    {
        Ok(observed)
    } else {
        Err(format!("expected epoch 1 committed once: {observed}"))
    }
}

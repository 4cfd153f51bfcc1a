//! The bodies where a writer held since its check resumes after the table moved on without it:
//! another writer rewrote the table's data, or committed this epoch and the next (a zombie).

use std::collections::BTreeSet;
use std::sync::Arc;

use barrier_sink::{CommitOutcome, CommitSink, Epoch, HeldWindow, Hooks};

use super::Finding;
use super::ledger::{Ledger, app, brief, epoch};
use super::races::until_held;
use crate::batch::{BATCH_ROWS, batch};
use crate::error::Error;
use crate::fixture::Fixture;
use crate::scenario::Scenario;

/// Writer A is held after its check of epoch 1; writer B commits epoch 1 with the same batch (a
/// source that replays deterministically); a third writer rewrites the table's data (every live
/// file replaced by one holding the same rows: a compaction, an overwrite with the same rows);
/// A is released, then B replays epoch 1. Neither must commit again (an arm that claims nothing
/// must: the stale writer's commit, asserted): an epoch's record must
/// survive its files being rewritten. A check that looks only at the files live in `main`
/// (`iceberg-file-key`) does not see it; that arm's failure is asserted, not hidden
/// (`Hazards::fails_in`).
pub(super) async fn epochs_survive_rewrite(fx: &Fixture) -> Result<Finding, Error> {
    let scenario = Scenario::EpochsSurviveRewrite;
    let a = app("app-a");
    let rows = || batch(0, BATCH_ROWS, "epoch-1");
    let window = HeldWindow::new();
    let held = fx.writer(Hooks::default().with_window(Arc::clone(&window))).await?;
    let other = fx.writer(Hooks::default()).await?;
    let held_app = a.clone();
    let task = tokio::spawn(async move { held.commit(&held_app, epoch(1), rows()).await });
    let task = until_held(&window, task).await?;
    let mut ledger = Ledger::default();
    let first = ledger.record(&a, epoch(1), other.commit(&a, epoch(1), rows()).await?);
    let rewritten = fx.rewrite_data().await?;
    window.release();
    let stale = ledger.record(&a, epoch(1), task.await.expect("held writer panicked")?);
    let replay = ledger.record(&a, epoch(1), other.commit(&a, epoch(1), rows()).await?);
    let commits = ledger.commits();
    let taken = CommitOutcome::AlreadyCommitted { committed: epoch(1) };
    let observed = format!(
        "{commits} commit(s): first {first:?}, rewritten: {rewritten}, stale writer {stale:?}, replay {replay:?}"
    );
    let claims = fx.target.claims_exactly_once();
    let (expected, passed) = if claims {
        (
            "1 commit; the stale writer and the replay AlreadyCommitted{1}",
            rewritten && commits == 1 && first == CommitOutcome::Committed && stale == taken && replay == taken,
        )
    } else {
        (
            "2 commits: the stale writer commits the epoch again (what a check on a stale base lets through)",
            rewritten && commits == 2 && stale == CommitOutcome::Committed,
        )
    };
    ledger.finding(scenario, other.as_ref(), expected, observed, passed).await
}

/// A zombie: writer Z is held after its check of epoch 1; writer W of the same app commits epochs
/// 1 and 2; Z resumes and offers its own, different batches for 1 and 2 (both AlreadyCommitted{2}
/// for an arm that claims exactly-once, and the table keeps W's rows; an arm that claims nothing
/// must commit them again, asserted), then a new epoch 3. Whether
/// Z's epoch 3 lands is reported, not required: fencing a zombie's new epochs is a property some
/// systems promise (Materialize's sink version, Kafka Connect's #18038), not this question's.
pub(super) async fn zombie_other_batch(fx: &Fixture) -> Result<Finding, Error> {
    let scenario = Scenario::ZombieOtherBatch;
    let a = app("app-a");
    let window = HeldWindow::new();
    let zombie: Arc<dyn CommitSink> = fx.writer(Hooks::default().with_window(Arc::clone(&window))).await?.into();
    let live = fx.writer(Hooks::default()).await?;
    let (held, zombie_app) = (Arc::clone(&zombie), a.clone());
    let task = tokio::spawn(async move { held.commit(&zombie_app, epoch(1), batch(0, BATCH_ROWS, "zombie-1")).await });
    let task = until_held(&window, task).await?;
    let mut ledger = Ledger::default();
    let mut live_told = vec![];
    for n in [1, 2] {
        let rows = batch(n as i64 * 100, BATCH_ROWS, &format!("live-{n}"));
        live_told.push(ledger.record(&a, epoch(n), live.commit(&a, epoch(n), rows).await?));
    }
    window.release();
    let z1 = ledger.record(&a, epoch(1), task.await.expect("zombie panicked")?);
    let z2 = ledger.record(&a, epoch(2), zombie.commit(&a, epoch(2), batch(200, BATCH_ROWS, "zombie-2")).await?);
    let z3 = zombie.commit(&a, epoch(3), batch(300, BATCH_ROWS, "zombie-3")).await;
    let fenced = !matches!(z3, Ok(CommitOutcome::Committed));
    if let Ok(outcome) = &z3 {
        ledger.record(&a, epoch(3), *outcome);
    }
    let rows = fx.epoch_batches(&a).await?;
    let live_rows = rows_are_the_live_writers(&rows);
    let taken = CommitOutcome::AlreadyCommitted { committed: epoch(2) };
    let observed = format!(
        "live {live_told:?}; zombie 1: {z1:?}, 2: {z2:?}, new epoch 3: {} ({}); epochs 1 and 2 hold {}",
        brief(&z3),
        if fenced { "fenced" } else { "not fenced" },
        if live_rows { "the live writer's rows" } else { "other rows" },
    );
    let claims = fx.target.claims_exactly_once();
    let live_committed = live_told.iter().all(|o| *o == CommitOutcome::Committed);
    let (expected, passed) = if claims {
        (
            "the live writer's epochs 1 and 2 commit; the zombie's 1 and 2 AlreadyCommitted{2}, the table keeps the \
             live writer's rows; the zombie's new epoch 3 reported (fenced or not)",
            live_committed && z1 == taken && z2 == taken && live_rows,
        )
    } else {
        (
            "the live writer's epochs 1 and 2 commit, and the zombie's 1 and 2 commit again (what a check on a stale \
             base lets through); its new epoch 3 reported",
            live_committed && z1 == CommitOutcome::Committed && z2 == CommitOutcome::Committed,
        )
    };
    ledger.finding(scenario, live.as_ref(), expected, observed, passed).await
}

/// Whether the commits of epochs 1 and 2 are the live writer's, once each.
fn rows_are_the_live_writers(rows: &[(Epoch, BTreeSet<String>)]) -> bool {
    let of =
        |n: u64| -> Vec<&BTreeSet<String>> { rows.iter().filter(|(e, _)| *e == epoch(n)).map(|(_, r)| r).collect() };
    [1, 2].into_iter().all(|n| of(n) == [&BTreeSet::from([format!("live-{n}")])])
}

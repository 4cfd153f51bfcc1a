//! The bodies that offer a sequence of commits, one at a time: replays, gaps, a writer behind,
//! a missing table, a wrong schema, expired history.

use std::sync::Arc;

use arrow_array::{RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use barrier_sink::{CommitOutcome, Epoch, Hooks, SinkError};

use super::Finding;
use super::ledger::{Ledger, app, epoch, said};
use crate::batch::{BATCH_ROWS, batch};
use crate::error::Error;
use crate::fixture::Fixture;
use crate::scenario::Scenario;

/// Replaying a committed epoch, or offering a lower one, writes nothing.
pub(super) async fn replay_writes_nothing(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let first = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "first")).await?);
    let replay = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(100, BATCH_ROWS, "replay")).await?);
    let lower = ledger.record(&a, epoch(0), sink.commit(&a, epoch(0), batch(200, BATCH_ROWS, "lower")).await?);
    let committed = sink.committed_epoch(&a).await?;
    let already = CommitOutcome::AlreadyCommitted { committed: epoch(1) };
    let passed =
        first == CommitOutcome::Committed && replay == already && lower == already && committed == Some(epoch(1));
    ledger
        .finding(
            Scenario::ReplayWritesNothing,
            sink.as_ref(),
            "epoch 1 committed once; replay of 1 and offer of 0 AlreadyCommitted{1}",
            format!("{first:?}, {replay:?}, {lower:?}; committed_epoch {committed:?}"),
            passed,
        )
        .await
}

/// Increasing epochs commit, gaps included; apps are independent; a late lower epoch is a replay.
pub(super) async fn distinct_epochs_accumulate(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    let mut outcomes = vec![];
    // 3 -> 5 is a gap; app-b's epoch 1 does not collide with app-a's.
    for (who, n) in [(&a, 1), (&a, 2), (&a, 3), (&a, 5), (&b, 1), (&a, 4)] {
        let rows = batch(n as i64 * 100, BATCH_ROWS, who.as_str());
        outcomes.push(ledger.record(who, epoch(n), sink.commit(who, epoch(n), rows).await?));
    }
    let (ca, cb) = (sink.committed_epoch(&a).await?, sink.committed_epoch(&b).await?);
    let passed = outcomes[..5].iter().all(|o| *o == CommitOutcome::Committed)
        && outcomes[5] == CommitOutcome::AlreadyCommitted { committed: epoch(5) }
        && ca == Some(epoch(5))
        && cb == Some(epoch(1));
    ledger
        .finding(
            Scenario::DistinctEpochsAccumulate,
            sink.as_ref(),
            "a:1,2,3,5 and b:1 commit; a:4 AlreadyCommitted{5}",
            format!("{outcomes:?}; committed a={ca:?} b={cb:?}"),
            passed,
        )
        .await
}

/// A long-lived writer whose table has moved on since its last commit (another writer committed
/// in between), with no race: an arm that starts a commit from the table its last commit returned
/// must neither lose the other writer's commits nor commit an epoch the other writer committed.
/// Writer A commits a:1; B commits b:1; A commits a:2 (on top of b:1); B commits a:3; A offers
/// a:3, then a:4.
pub(super) async fn writer_behind_commits_once(fx: &Fixture) -> Result<Finding, Error> {
    let (first, second) = (fx.writer(Hooks::default()).await?, fx.writer(Hooks::default()).await?);
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    let mut outcomes = vec![];
    // The last offer replays a:2 from the second writer, whose last commit (a:3) is behind the
    // table (a:4): its answer must name 4, not the 3 a held copy of the table says.
    let offers = [
        (&first, &a, 1),
        (&second, &b, 1),
        (&first, &a, 2),
        (&second, &a, 3),
        (&first, &a, 3),
        (&first, &a, 4),
        (&second, &a, 2),
    ];
    for (sink, who, n) in offers {
        let rows = batch(n as i64 * 100, BATCH_ROWS, who.as_str());
        outcomes.push(ledger.record(who, epoch(n), sink.commit(who, epoch(n), rows).await?));
    }
    let (history_a, history_b) = (fx.epoch_history(&a).await?, fx.epoch_history(&b).await?);
    let once = |history: &[Epoch], n: u64| history.iter().filter(|e| **e == epoch(n)).count() == 1;
    let passed = outcomes.iter().enumerate().all(|(i, o)| {
        *o == match i {
            4 => CommitOutcome::AlreadyCommitted { committed: epoch(3) },
            6 => CommitOutcome::AlreadyCommitted { committed: epoch(4) },
            _ => CommitOutcome::Committed,
        }
    }) && history_a.len() == 4
        && (1..=4).all(|n| once(&history_a, n))
        && history_b == [epoch(1)];
    ledger
        .finding(
            Scenario::WriterBehindCommitsOnce,
            first.as_ref(),
            "a:1, b:1, a:2, a:3 (the other writer's), a:4 commit; a:3 from the writer behind AlreadyCommitted{3}; a:2 from the other writer, behind since a:4, AlreadyCommitted{4}; each epoch once",
            format!("{outcomes:?}; epochs of app-a {history_a:?}, of app-b {history_b:?}"),
            passed,
        )
        .await
}

/// A table that does not exist is a typed error, and nothing is created in its place.
pub(super) async fn missing_table(fx: &Fixture) -> Result<Finding, Error> {
    let missing = fx.writer_on_missing_table().await?;
    let a = app("app-a");
    let commit = missing.commit(&a, epoch(1), batch(0, BATCH_ROWS, "lost")).await;
    let check = missing.committed_epoch(&a).await;
    let still_missing = missing.row_count().await;
    let typed = |r: Option<&SinkError>| matches!(r, Some(SinkError::TableNotFound(_)));
    let sink = fx.writer(Hooks::default()).await?;
    Ledger::default()
        .finding(
            Scenario::MissingTable,
            sink.as_ref(),
            "TableNotFound from commit, committed_epoch and row_count",
            format!("commit {}; committed_epoch {}; row_count {}", said(&commit), said(&check), said(&still_missing)),
            typed(commit.as_ref().err()) && typed(check.as_ref().err()) && typed(still_missing.as_ref().err()),
        )
        .await
}

/// A batch whose schema does not match is a typed error that commits nothing and does not burn
/// the epoch: the right batch then commits at the same epoch.
pub(super) async fn schema_mismatch(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let wrong_schema = Arc::new(Schema::new(vec![Field::new("id", DataType::Utf8, false)]));
    let wrong = RecordBatch::try_new(wrong_schema, vec![Arc::new(StringArray::from(vec!["x"; BATCH_ROWS]))])
        .expect("valid batch");
    let rejected = sink.commit(&a, epoch(1), wrong).await;
    let after = sink.committed_epoch(&a).await?;
    let mut ledger = Ledger::default();
    let retried = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "right")).await?);
    ledger
        .finding(
            Scenario::SchemaMismatch,
            sink.as_ref(),
            "SchemaMismatch, epoch still free, then the right batch commits at epoch 1",
            format!("{}; committed_epoch after {after:?}; retry {retried:?}", said(&rejected)),
            matches!(rejected, Err(SinkError::SchemaMismatch(_)))
                && after.is_none()
                && retried == CommitOutcome::Committed,
        )
        .await
}

/// Retention removes the history that carries the epochs (Iceberg: snapshot expiry; Delta: a
/// checkpoint and log cleanup). An app whose commits are all gone must still be recognised:
/// replaying its last epoch writes nothing, and the next one commits.
pub(super) async fn epochs_survive_expiry(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    for (who, n) in [(&a, 1), (&a, 2), (&a, 3), (&b, 1)] {
        ledger.record(
            who,
            epoch(n),
            sink.commit(who, epoch(n), batch(n as i64 * 100, BATCH_ROWS, who.as_str())).await?,
        );
    }
    let removed = fx.expire_history().await?;
    // For Iceberg, the proof that expiry really cut app-a's snapshots: the walk alone finds nothing.
    let walk_alone = match fx.iceberg().await? {
        Some(table) => table.epoch_from_walk_alone(&a).await?,
        None => None,
    };
    let after = sink.committed_epoch(&a).await?;
    let replay = ledger.record(&a, epoch(3), sink.commit(&a, epoch(3), batch(900, BATCH_ROWS, "replay")).await?);
    let next = ledger.record(&a, epoch(4), sink.commit(&a, epoch(4), batch(400, BATCH_ROWS, "next")).await?);
    ledger
        .finding(
            Scenario::EpochsSurviveExpiry,
            sink.as_ref(),
            "history removed; app-a still at 3; replay of 3 AlreadyCommitted{3}; 4 commits",
            format!(
                "{removed} snapshots/log files removed; ancestry walk alone {walk_alone:?}; committed_epoch {after:?}; replay {replay:?}; next {next:?}"
            ),
            removed > 0
                && walk_alone.is_none()
                && after == Some(epoch(3))
                && replay == CommitOutcome::AlreadyCommitted { committed: epoch(3) }
                && next == CommitOutcome::Committed,
        )
        .await
}

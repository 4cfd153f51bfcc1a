//! `iceberg-requirement`: check a loaded base and assert `main` where it found it
//! (`Transaction::assert_ref_snapshot_id`, patch 2); the sink owns the loop.

use std::borrow::Cow;

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::common::{CommitCatalog, CommitStrategy, IcebergTable, iceberg_error, stage_append};
use super::ice::spec::MAIN_BRANCH;
use super::ice::table::Table;
use super::ice::transaction::Transaction;
use super::ice::ErrorKind;
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::retry::{MAX_ATTEMPTS, backoff};
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Loads, checks, and commits with `main` asserted at the snapshot it checked. A failed
/// assertion means another writer moved `main` in between: reload and check again. The data
/// files are written once and re-offered on each attempt.
///
/// Does not hold its table between commits. It would stay safe (the assertion pins whatever base
/// it checked), but its check runs on that base, not on the library's refresh: a held base that
/// another writer has moved on is never rebased, it fails the assertion and costs a whole
/// attempt (the refresh, the backoff, a reload, a second refresh), where the arms that check
/// inside the commit rebase for free.
pub struct Requirement;

#[async_trait]
impl CommitStrategy for Requirement {
    fn arm(&self) -> &'static str {
        "iceberg-requirement"
    }

    async fn commit(
        &self,
        table: &IcebergTable,
        first: &Table,
        hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<(CommitOutcome, Option<Table>), SinkError> {
        let catalog = CommitCatalog::new(table.catalog.clone());
        let mut files = None;
        // `main` as the last attempt asserted it, and that attempt's precondition failure.
        let mut failed: Option<(Option<i64>, _)> = None;
        for attempt in 0..MAX_ATTEMPTS {
            let base = match attempt {
                0 => Cow::Borrowed(first),
                _ => Cow::Owned(table.load().await?),
            };
            let head = base.metadata().current_snapshot_id();
            if let Some((asserted, err)) = failed.take()
                && asserted == head
            {
                // `main` did not move: the failed precondition was not this sink's assertion.
                return Err(iceberg_error(err));
            }
            if let Some(replay) = IcebergTable::replay(&base, app, epoch)? {
                return Ok((replay, None));
            }
            hooks.epoch_check_passed().await;
            let data_files = match &files {
                Some(written) => Vec::clone(written),
                None => files.insert(IcebergTable::write(&base, &batch).await?).clone(),
            };
            let tx = Transaction::new(&base).assert_ref_snapshot_id(MAIN_BRANCH);
            let tx = stage_append(tx, data_files, app, epoch).map_err(iceberg_error)?;
            match tx.commit(&catalog).await {
                Ok(after) => return Ok((CommitOutcome::Committed, Some(after))),
                Err(err) if err.kind() == ErrorKind::PreconditionFailed => {
                    failed = Some((head, err));
                    tokio::time::sleep(backoff(attempt)).await;
                }
                Err(err) => return Err(iceberg_error(err)),
            }
        }
        Err(SinkError::Conflict {
            attempts: MAX_ATTEMPTS,
        })
    }
}

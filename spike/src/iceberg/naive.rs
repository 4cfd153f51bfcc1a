//! `iceberg-naive`, the original experiment's sink, and `iceberg-unguarded`, the benchmarks'
//! floor: both commit a stock fast append; only the first checks the epoch first.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::commit_catalog::CommitCatalog;
use super::epoch::stage_append;
use super::ice::table::Table;
use super::ice::transaction::Transaction;
use super::sink::CommitStrategy;
use super::errors::iceberg_error;
use super::table::IcebergTable;
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Checks the epoch on the table it loaded, then commits a transaction built on that table.
///
/// Not a guarantee: `Transaction::commit` reloads the table and rebases the append onto whatever
/// it finds, so the check constrains nothing. A writer that checks while the epoch is free and
/// then loses the race commits a duplicate. Kept as the control that shows the gap. It loads the
/// table for every commit: its check is the only one, and on a held table it would duplicate
/// without any race (another writer's commit since its last one goes unseen).
pub struct Naive;

/// No check at all: the cost floor the guarded arms are measured against. Not an arm of the
/// suite; it claims nothing. It holds its table, as the arms whose check runs inside the commit
/// do, so that the floor is iceberg-rust's own minimum for an append: the library's refresh and
/// one swap.
pub struct Unguarded;

/// Writes `batch` and commits it on `base` as a stock fast append carrying the epoch.
async fn append(
    table: &IcebergTable,
    base: &Table,
    app: &AppId,
    epoch: Epoch,
    batch: &RecordBatch,
) -> Result<(CommitOutcome, Option<Table>), SinkError> {
    let files = IcebergTable::write(base, batch).await?;
    let tx = stage_append(Transaction::new(base), files, app, epoch).map_err(iceberg_error)?;
    let after = tx
        .commit(&CommitCatalog::new(table.catalog.clone()))
        .await
        .map_err(iceberg_error)?;
    Ok((CommitOutcome::Committed, Some(after)))
}

#[async_trait]
impl CommitStrategy for Naive {
    fn arm(&self) -> &'static str {
        "iceberg-naive"
    }

    async fn commit(
        &self,
        table: &IcebergTable,
        base: &Table,
        hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<(CommitOutcome, Option<Table>), SinkError> {
        if let Some(replay) = IcebergTable::replay(base, app, epoch)? {
            return Ok((replay, None));
        }
        hooks.epoch_check_passed().await;
        append(table, base, app, epoch, &batch).await
    }
}

#[async_trait]
impl CommitStrategy for Unguarded {
    fn arm(&self) -> &'static str {
        "iceberg-unguarded"
    }

    fn holds_table(&self) -> bool {
        true
    }

    async fn commit(
        &self,
        table: &IcebergTable,
        base: &Table,
        _hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<(CommitOutcome, Option<Table>), SinkError> {
        append(table, base, app, epoch, &batch).await
    }
}

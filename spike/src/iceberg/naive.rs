//! `iceberg-naive`: the original experiment's sink. Load, check, then a stock fast append.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::catalog::CommitCatalog;
use super::epoch::epoch_summary;
use super::ice::transaction::{ApplyTransactionAction, Transaction};
use super::sink::CommitStrategy;
use super::table::{IcebergTable, iceberg_error};
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Checks the epoch on the table it loaded, then commits a transaction built on that table.
///
/// Not a guarantee: `Transaction::commit` reloads the table and rebases the append onto whatever
/// it finds, so the check constrains nothing. A writer that checks while the epoch is free and
/// then loses the race commits a duplicate. Kept as the control that shows the gap.
pub struct Naive;

#[async_trait]
impl CommitStrategy for Naive {
    fn arm(&self) -> &'static str {
        "iceberg-naive"
    }

    async fn commit(
        &self,
        table: &IcebergTable,
        hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<CommitOutcome, SinkError> {
        let base = table.load().await?;
        if let Some(replay) = IcebergTable::replay(&base, app, epoch)? {
            return Ok(replay);
        }
        hooks.epoch_check_passed().await;
        let files = IcebergTable::write(&base, &batch).await?;
        let tx = Transaction::new(&base);
        let append = tx
            .fast_append()
            .add_data_files(files)
            .set_snapshot_properties(epoch_summary(app, epoch));
        let tx = append.apply(tx).map_err(iceberg_error)?;
        tx.commit(&CommitCatalog::new(table.catalog.clone()))
            .await
            .map_err(iceberg_error)?;
        Ok(CommitOutcome::Committed)
    }
}

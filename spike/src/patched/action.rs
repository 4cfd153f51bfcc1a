//! `iceberg-action`: the epoch check as a `TransactionAction` (patch 1), inside the library's
//! own commit loop.

use std::sync::Arc;

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::common::{
    CommitCatalog, CommitStrategy, IcebergTable, check_free, epoch_summary, iceberg_error,
    record_watermark,
};
use super::ice::table::Table;
use super::ice::transaction::{ActionCommit, ApplyTransactionAction, Transaction, TransactionAction};
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Checks that the table the transaction refreshed does not record the epoch, then delegates to
/// the wrapped action (the fast append). Runs on every attempt, against the refreshed base, so a
/// writer that loses a race re-checks before it retries and stops with a non-retryable error.
pub struct EpochAction<A> {
    app: AppId,
    epoch: Epoch,
    hooks: Hooks,
    inner: Arc<A>,
}

impl<A> EpochAction<A> {
    pub fn new(app: AppId, epoch: Epoch, hooks: Hooks, inner: A) -> Self {
        Self {
            app,
            epoch,
            hooks,
            inner: Arc::new(inner),
        }
    }
}

#[async_trait]
impl<A: TransactionAction + 'static> TransactionAction for EpochAction<A> {
    async fn commit(self: Arc<Self>, table: &Table) -> super::ice::Result<ActionCommit> {
        check_free(table.metadata(), &self.app, self.epoch)?;
        self.hooks.epoch_check_passed().await;
        Arc::clone(&self.inner).commit(table).await
    }
}

pub struct Action;

#[async_trait]
impl CommitStrategy for Action {
    fn arm(&self) -> &'static str {
        "iceberg-action"
    }

    // The check runs on the library's refresh inside the commit, whatever base it started from.
    fn holds_table(&self) -> bool {
        true
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
        // Saves writing files for a replay; the action below is what makes it safe, on a held base too.
        if let Some(replay) = IcebergTable::replay(base, app, epoch)? {
            return Ok((replay, None));
        }
        let files = IcebergTable::write(base, &batch).await?;
        let tx = Transaction::new(base);
        let append = tx
            .fast_append()
            .add_data_files(files)
            .set_snapshot_properties(epoch_summary(app, epoch));
        let action = EpochAction::new(app.clone(), epoch, hooks.clone(), append);
        let tx = action
            .apply(tx)
            .and_then(|tx| record_watermark(tx, app, epoch))
            .map_err(iceberg_error)?;
        let committed = tx.commit(&CommitCatalog::new(table.catalog.clone())).await;
        table.resolve(committed, app, epoch).await
    }
}

//! `iceberg-validator`: the epoch check as a transaction validator (patch 3), called by the
//! library's own commit loop on every refreshed base while `TransactionAction` stays private.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::common::{CommitCatalog, CommitStrategy, IcebergTable, check_free, iceberg_error, stage_append};
use super::ice::table::Table;
use super::ice::transaction::{Transaction, TransactionValidator};
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Rejects a refreshed table that already records the epoch, with `PreconditionFailed`.
/// `do_commit` calls it on every attempt before the append writes its manifest, so a writer
/// that loses a race re-checks before it retries, and its rejection ends the commit.
pub struct EpochValidator {
    app: AppId,
    epoch: Epoch,
    hooks: Hooks,
}

#[async_trait]
impl TransactionValidator for EpochValidator {
    async fn validate(&self, table: &Table) -> super::ice::Result<()> {
        check_free(table.metadata(), &self.app, self.epoch)?;
        self.hooks.epoch_check_passed().await;
        Ok(())
    }
}

pub struct Validator;

#[async_trait]
impl CommitStrategy for Validator {
    fn arm(&self) -> &'static str {
        "iceberg-validator"
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
        // Saves writing files for a replay; the validator below is what makes it safe, on a held base too.
        if let Some(replay) = IcebergTable::replay(base, app, epoch)? {
            return Ok((replay, None));
        }
        let files = IcebergTable::write(base, &batch).await?;
        let validator = EpochValidator {
            app: app.clone(),
            epoch,
            hooks: hooks.clone(),
        };
        let tx = Transaction::new(base).validate_with(validator);
        let tx = stage_append(tx, files, app, epoch).map_err(iceberg_error)?;
        let committed = tx.commit(&CommitCatalog::new(table.catalog.clone())).await;
        table.resolve(committed, app, epoch).await
    }
}

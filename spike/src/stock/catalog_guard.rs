//! `iceberg-catalog-guard`: the epoch check moved into the catalog the transaction commits
//! through, on the stock build.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::common::{CommitCatalog, CommitStrategy, EpochGuard, IcebergTable, iceberg_error, stage_append};
use super::ice::table::Table;
use super::ice::transaction::Transaction;
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, Epoch};

/// Commits through a [`CommitCatalog`] whose `load_table` rejects a table that already records the
/// epoch. `Transaction::do_commit` calls that load on every attempt and pins the append to the
/// table it returns, so the check and the compare-and-swap see the same base.
///
/// It relies on how 0.10.1's `do_commit` works, not on anything its API promises: one
/// `load_table` per attempt, through the catalog passed to `commit`, before any action runs; the
/// append's `RefSnapshotIdMatch` derived from that load; an `Err` from the load ending the commit
/// unless retryable. FINDINGS.md says what changes would break it.
pub struct CatalogGuard;

#[async_trait]
impl CommitStrategy for CatalogGuard {
    fn arm(&self) -> &'static str {
        "iceberg-catalog-guard"
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
        // Saves writing files for a replay; the guard below is what makes it safe, on a held base too.
        if let Some(replay) = IcebergTable::replay(base, app, epoch)? {
            return Ok((replay, None));
        }
        let files = IcebergTable::write(base, &batch).await?;
        let tx = stage_append(Transaction::new(base), files, app, epoch).map_err(iceberg_error)?;
        let guard = EpochGuard {
            app: app.clone(),
            epoch,
            hooks: hooks.clone(),
        };
        let committed = tx.commit(&CommitCatalog::guarded(table.catalog.clone(), guard)).await;
        table.resolve(committed, app, epoch).await
    }
}

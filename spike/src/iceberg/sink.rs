//! The one `CommitSink` implementation every Iceberg arm shares; arms differ only in the
//! [`CommitStrategy`] that turns a batch into a commit.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::table::IcebergTable;
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};

/// Where an arm checks the epoch and how it commits: the only thing Iceberg arms do differently.
#[async_trait]
pub trait CommitStrategy: Send + Sync {
    /// The arm's name, as tests, `verdict` and the benchmarks spell it.
    fn arm(&self) -> &'static str;

    async fn commit(
        &self,
        table: &IcebergTable,
        hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<CommitOutcome, SinkError>;
}

pub struct IcebergSink<S> {
    table: IcebergTable,
    hooks: Hooks,
    strategy: S,
}

impl<S: CommitStrategy> IcebergSink<S> {
    pub fn new(table: IcebergTable, hooks: Hooks, strategy: S) -> Self {
        Self { table, hooks, strategy }
    }
}

#[async_trait]
impl<S: CommitStrategy> CommitSink for IcebergSink<S> {
    async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        self.table.committed_epoch(app).await
    }

    async fn commit(
        &self,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<CommitOutcome, SinkError> {
        let outcome = self
            .strategy
            .commit(&self.table, &self.hooks, app, epoch, batch)
            .await?;
        if outcome == CommitOutcome::Committed {
            self.hooks.committed();
        }
        Ok(outcome)
    }

    async fn row_count(&self) -> Result<u64, SinkError> {
        self.table.row_count().await
    }
}

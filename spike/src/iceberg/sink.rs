//! The one `CommitSink` implementation every Iceberg arm shares; arms differ only in the
//! [`CommitStrategy`] that turns a batch into a commit.

use std::sync::Mutex;

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::ice::table::Table;
use super::table::IcebergTable;
use crate::error::SinkError;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};

/// Where an arm checks the epoch and how it commits: the only thing Iceberg arms do differently.
#[async_trait]
pub trait CommitStrategy: Send + Sync {
    /// The arm's name, as tests, `verdict` and the benchmarks spell it.
    fn arm(&self) -> &'static str;

    /// Whether a commit may start from the table the writer's last commit returned instead of a
    /// fresh load. Only for strategies whose guarantee does not rest on the base they start
    /// from: the check runs again on the table the library refreshes inside the commit (or there
    /// is no check at all), so a stale start can make the sink's own pre-check say "free" wrongly
    /// and waste the files it writes, but never let a duplicate through.
    fn holds_table(&self) -> bool {
        false
    }

    /// Commits `batch` as `epoch` of `app`, starting from `base`: a fresh load, or the held
    /// table. Returns the outcome and, when it has one, the table the commit left behind
    /// (what `Transaction::commit` returned), for the sink to hold.
    async fn commit(
        &self,
        table: &IcebergTable,
        base: &Table,
        hooks: &Hooks,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<(CommitOutcome, Option<Table>), SinkError>;
}

/// A writer of one table through one strategy.
///
/// A writer whose strategy [holds its table](CommitStrategy::holds_table) keeps the table its
/// last commit returned and starts the next commit from it: one catalog load fewer per commit
/// (the library's refresh inside the commit is then the only one), which is iceberg-rust's own
/// minimum for an append. Any error drops the held table, so the commit after a failure, an
/// abort or an unknown outcome starts from a fresh load, and a replay answered from the held
/// table is answered again from a fresh load, so that `AlreadyCommitted { committed }` never
/// names an epoch older than one the table held when the call began. `committed_epoch` and
/// `row_count` always load.
pub struct IcebergSink<S> {
    table: IcebergTable,
    hooks: Hooks,
    strategy: S,
    held: Mutex<Option<Table>>,
}

impl<S: CommitStrategy> IcebergSink<S> {
    pub fn new(table: IcebergTable, hooks: Hooks, strategy: S) -> Self {
        Self { table, hooks, strategy, held: Mutex::new(None) }
    }

    /// The held table if there is one (only a strategy that holds its table ever has one), else
    /// a fresh load; and whether it was held. Taken, not copied: a commit that fails leaves
    /// nothing held.
    async fn base(&self) -> Result<(Table, bool), SinkError> {
        let held = self.held.lock().expect("held table lock").take();
        match held {
            Some(table) => Ok((table, true)),
            None => Ok((self.table.load().await?, false)),
        }
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
        let (mut base, held) = self.base().await?;
        let replay = held.then(|| batch.clone());
        let (mut outcome, mut after) = self
            .strategy
            .commit(&self.table, &base, &self.hooks, app, epoch, batch)
            .await?;
        // A replay answered from the held table names the epoch that copy held, which another
        // writer may have passed since: decided again on a fresh load, `committed` is the
        // table's. Only replays pay this load; a commit's own check runs on the library's refresh.
        if let (Some(batch), CommitOutcome::AlreadyCommitted { .. }) = (replay, outcome) {
            base = self.table.load().await?;
            (outcome, after) = self.strategy.commit(&self.table, &base, &self.hooks, app, epoch, batch).await?;
        }
        if self.strategy.holds_table() {
            *self.held.lock().expect("held table lock") = Some(after.unwrap_or(base));
        }
        if outcome == CommitOutcome::Committed {
            self.hooks.committed();
        }
        Ok(outcome)
    }

    async fn row_count(&self) -> Result<u64, SinkError> {
        self.table.row_count().await
    }
}

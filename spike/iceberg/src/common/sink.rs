//! The one `CommitSink` every Iceberg arm shares, and the one commit body: arms differ only in
//! the [`CommitStrategy`] that says where the check runs and what carries it into the commit.

use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use async_trait::async_trait;
use barrier_sink::{AppId, CallCounts, CommitOutcome, CommitSink, Epoch, Hooks, SinkError};

use super::commit_catalog::CommitCatalog;
use super::epoch::EpochCheck;
use super::errors::iceberg_error;
use super::ice::spec::DataFile;
use super::ice::table::Table;
use super::owned_loop::{self, Attempt, Attempts};
use super::strategy::{Append, CheckSite, CommitStrategy};
use super::table::IcebergTable;

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
pub struct IcebergSink {
    table: IcebergTable,
    hooks: Hooks,
    strategy: &'static dyn CommitStrategy,
    held: Mutex<Option<Table>>,
}

impl IcebergSink {
    /// A writer of `table` through `strategy`, reporting to `hooks`. With `counts`, or with a
    /// window at the swap, its connection counts round trips and calls the swap hook
    /// ([`CommitCatalog::observing`]).
    pub fn open(
        mut table: IcebergTable,
        strategy: &'static dyn CommitStrategy,
        hooks: Hooks,
        counts: Option<Arc<CallCounts>>,
    ) -> Self {
        if counts.is_some() || hooks.swap_window().is_some() {
            table.catalog = Arc::new(CommitCatalog::observing(table.catalog, counts, hooks.clone()));
        }
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

    /// Commits from `base`: one attempt, the library's loop inside it, or the sink's own loop
    /// of attempts where the strategy owns the loop. Returns the outcome and, when it has one,
    /// the table the commit left behind, for the sink to hold.
    async fn commit_from(
        &self,
        base: &Table,
        app: &AppId,
        epoch: Epoch,
        batch: &RecordBatch,
    ) -> Result<(CommitOutcome, Option<Table>), SinkError> {
        let check = EpochCheck { app: app.clone(), epoch, hooks: self.hooks.clone() };
        let mut body = Body { sink: self, check: &check, batch, files: None };
        if self.strategy.owns_loop() {
            return owned_loop::commit(base, &mut body).await;
        }
        match body.attempt(base).await? {
            Attempt::Done(outcome, after) => Ok((outcome, after)),
            Attempt::Refused(err) => Err(iceberg_error(err)),
        }
    }
}

/// One commit's body: what it offers and the data files it wrote, which later attempts reuse.
struct Body<'a> {
    sink: &'a IcebergSink,
    check: &'a EpochCheck,
    batch: &'a RecordBatch,
    files: Option<Vec<DataFile>>,
}

#[async_trait]
impl Attempts for Body<'_> {
    async fn load(&self) -> Result<Table, SinkError> {
        self.sink.table.load().await
    }

    /// One attempt from `base`: the pre-check (a replay writes nothing), the batch's data files
    /// (written once), the append staged with the strategy's guard, the commit through the
    /// strategy's catalog, and a guard's rejection read back as the epoch the table holds.
    async fn attempt(&mut self, base: &Table) -> Result<Attempt, SinkError> {
        let (sink, check) = (self.sink, self.check);
        let strategy = sink.strategy;
        let site = strategy.check_site();
        if site != CheckSite::Nowhere {
            if let Some(replay) = strategy.replay(base, &check.app, check.epoch)? {
                return Ok(Attempt::Done(replay, Some(base.clone())));
            }
            if site == CheckSite::Sink {
                sink.hooks.epoch_check_passed().await;
            }
        }
        let files = match &self.files {
            Some(written) => written.clone(),
            None => {
                let prefix = strategy.file_names().prefix(&check.app, check.epoch);
                match IcebergTable::write(base, self.batch, prefix).await {
                    Ok(written) => self.files.insert(written).clone(),
                    // Another batch's file holds the epoch's name: committed (a replay), or
                    // another attempt's, in flight or dead.
                    Err(claimed @ SinkError::EpochClaimed(_)) => {
                        let now = sink.table.load().await?;
                        return match IcebergTable::replay(&now, &check.app, check.epoch)? {
                            Some(replay) => Ok(Attempt::Done(replay, Some(now))),
                            None => Err(claimed),
                        };
                    }
                    Err(err) => return Err(err),
                }
            }
        };
        let append = Append {
            files,
            app: check.app.clone(),
            epoch: check.epoch,
            check_duplicate: strategy.check_duplicate(),
            watermark: strategy.records_watermark(),
        };
        let tx = strategy.stage(base, append, check).map_err(iceberg_error)?;
        match tx.commit(&strategy.catalog(sink.table.catalog.clone(), check)).await {
            Ok(after) => Ok(Attempt::Done(CommitOutcome::Committed, Some(after))),
            Err(err) if strategy.epoch_taken(&err) => {
                let (outcome, now) = sink.table.resolve(err, &check.app, check.epoch).await?;
                Ok(Attempt::Done(outcome, Some(now)))
            }
            Err(err) if strategy.owns_loop() && strategy.refused(&err) => Ok(Attempt::Refused(err)),
            Err(err) => Err(iceberg_error(err)),
        }
    }
}

#[async_trait]
impl CommitSink for IcebergSink {
    async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        self.table.committed_epoch(app).await
    }

    async fn commit(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<CommitOutcome, SinkError> {
        let (mut base, held) = self.base().await?;
        let (mut outcome, mut after) = self.commit_from(&base, app, epoch, &batch).await?;
        // A replay answered from the held table names the epoch that copy held, which another
        // writer may have passed since: decided again on a fresh load, `committed` is the
        // table's. Only replays pay this load; a commit's own check runs on the library's refresh.
        if held && matches!(outcome, CommitOutcome::AlreadyCommitted { .. }) {
            base = self.table.load().await?;
            (outcome, after) = self.commit_from(&base, app, epoch, &batch).await?;
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

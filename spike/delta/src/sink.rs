//! [`DeltaSink`]: each batch committed with a `txn` action carrying `(app, epoch)`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use async_trait::async_trait;
use barrier_sink::data::{batches_of, check_schema, local_path, parquet_rows};
use barrier_sink::retry::{MAX_ATTEMPTS, backoff};
use barrier_sink::{
    AppId, CallCounts, CommitOutcome, CommitSink, Epoch, Failpoint, Footprint, Hooks, SinkError, SourceFile,
};
use deltalake_core::kernel::transaction::{CommitBuilder, CommitProperties, TransactionError};
use deltalake_core::kernel::{Action, Transaction};
use deltalake_core::protocol::{DeltaOperation, SaveMode};
use deltalake_core::writer::{DeltaWriter, RecordBatchWriter};
use deltalake_core::{DeltaTable as Log, DeltaTableError};
use url::Url;

use crate::extension_points::TXN;

/// Commits each batch with a `txn` action carrying `(app, epoch)`.
///
/// The sink reads the app's version from the snapshot it commits on, and delta-rs's conflict
/// checker rejects the commit (`ConcurrentTransaction`) if a commit that landed after that
/// snapshot carries a `txn` of the same app, whatever its version. A rejected writer reloads and
/// checks again, so the check and the commit are one decision made against one table version.
pub struct DeltaSink {
    url: Url,
    hooks: Hooks,
    txn: bool,
    counts: Option<Arc<CallCounts>>,
}

impl DeltaSink {
    /// What `delta` adds to carry its check: this whole sink, since Delta has no shared part.
    pub const FOOTPRINT: Footprint = Footprint {
        extension_point: Some(&TXN),
        files: &[SourceFile { path: file!(), text: include_str!("sink.rs") }],
    };

    pub fn new(path: &Path, hooks: Hooks) -> Result<Self, SinkError> {
        Ok(Self { url: table_url(path)?, hooks, txn: true, counts: None })
    }

    /// `delta-plain`: the same append with no `txn` action and no check. The benchmarks' floor
    /// for `delta`; claims nothing.
    pub fn plain(path: &Path) -> Result<Self, SinkError> {
        Ok(Self { txn: false, ..Self::new(path, Hooks::default())? })
    }

    /// Counts each table load as a `load` and each attempt at the log's next version as an
    /// `update`. delta-rs's own rebase retries inside one attempt are not seen. For `delta`, whose
    /// writers of one app always conflict (a same-app `txn`), each lost race ends as a lost attempt
    /// here; for `delta-plain` a rebase can succeed unseen, so its attempts are a lower bound.
    pub fn counting(self, counts: Arc<CallCounts>) -> Self {
        Self { counts: Some(counts), ..self }
    }

    pub(crate) async fn load(&self) -> Result<Log, SinkError> {
        if let Some(counts) = &self.counts {
            counts.load();
        }
        // Checked here because delta-rs reports a missing directory as a kernel error about an
        // invalid location, and an empty one as `NotATable`: both mean there is no table.
        let log = local_path(self.url.as_str()).join("_delta_log");
        if !log.is_dir() {
            return Err(SinkError::TableNotFound(format!("no Delta log at {}", log.display()).into()));
        }
        let mut table = Log::try_from_url(self.url.clone()).await.map_err(delta_error)?;
        if table.version().is_none() {
            // `try_from_url` tolerates a missing table so that one can be created there.
            table.load().await.map_err(delta_error)?;
        }
        Ok(table)
    }

    async fn committed(table: &Log, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        let version = table
            .snapshot()
            .map_err(delta_error)?
            .transaction_version(table.log_store().as_ref(), app.as_str())
            .await
            .map_err(delta_error)?;
        version.map(Epoch::from_stored).transpose()
    }

    /// The data files the current version references.
    pub(crate) async fn data_files(&self) -> Result<BTreeSet<PathBuf>, SinkError> {
        let table = self.load().await?;
        let root = local_path(self.url.as_str()).to_path_buf();
        Ok(table
            .snapshot()
            .map_err(delta_error)?
            .log_data()
            .iter()
            .map(|file| root.join(file.path().as_ref()))
            .collect())
    }
}

impl DeltaSink {
    /// Another writer's compaction: every live data file removed and its rows added again in new
    /// files, one commit (`OPTIMIZE`, `dataChange: false`) with no `txn`.
    pub(crate) async fn rewrite(&self) -> Result<bool, SinkError> {
        let table = self.load().await?;
        let root = local_path(self.url.as_str()).to_path_buf();
        let snapshot = table.snapshot().map_err(delta_error)?;
        let mut actions = vec![];
        for file in snapshot.log_data().iter() {
            let path = root.join(file.path().as_ref());
            let bytes =
                std::fs::read(&path).map_err(|e| SinkError::Delta(format!("{}: {e}", path.display()).into()))?;
            for batch in batches_of(&path.to_string_lossy(), bytes.into())? {
                actions.extend(write(&table, &batch).await?);
            }
            actions.push(Action::Remove(file.remove_action(false)));
        }
        if actions.is_empty() {
            return Ok(false);
        }
        let operation = DeltaOperation::Optimize { predicate: None, target_size: 0 };
        CommitBuilder::default()
            .with_actions(actions)
            .build(Some(snapshot), table.log_store(), operation)
            .await
            .map_err(delta_error)?;
        Ok(true)
    }
}

#[async_trait]
impl CommitSink for DeltaSink {
    async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        Self::committed(&self.load().await?, app).await
    }

    async fn commit(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<CommitOutcome, SinkError> {
        let mut adds = None;
        for attempt in 0..MAX_ATTEMPTS {
            let table = self.load().await?;
            if self.txn {
                if let Some(committed) = Self::committed(&table, app).await?.filter(|c| *c >= epoch) {
                    return Ok(CommitOutcome::AlreadyCommitted { committed });
                }
                self.hooks.epoch_check_passed().await;
            }
            let actions = match &adds {
                Some(written) => Vec::clone(written),
                None => adds.insert(write(&table, &batch).await?).clone(),
            };
            Failpoint::BeforeSwap.check()?;
            let properties = if self.txn {
                CommitProperties::default().with_application_transaction(Transaction::new(app.as_str(), epoch.get()))
            } else {
                CommitProperties::default()
            };
            let snapshot = table.snapshot().map_err(delta_error)?;
            self.hooks.swap_reached().await;
            if let Some(counts) = &self.counts {
                counts.update();
            }
            let operation = DeltaOperation::Write { mode: SaveMode::Append, partition_by: None, predicate: None };
            let committed = CommitBuilder::from(properties)
                .with_actions(actions)
                .build(Some(snapshot), table.log_store(), operation)
                .await;
            match committed {
                Ok(_) => {
                    Failpoint::AfterSwap.check()?;
                    self.hooks.committed();
                    return Ok(CommitOutcome::Committed);
                }
                Err(err) if lost_race(&err) => tokio::time::sleep(backoff(attempt)).await,
                Err(err) => return Err(delta_error(err)),
            }
        }
        Err(SinkError::Conflict { attempts: MAX_ATTEMPTS })
    }

    async fn row_count(&self) -> Result<u64, SinkError> {
        parquet_rows(self.data_files().await?)
    }
}

pub(crate) fn table_url(path: &Path) -> Result<Url, SinkError> {
    Url::from_directory_path(path)
        .map_err(|()| SinkError::Delta(format!("not an absolute path: {}", path.display()).into()))
}

pub(crate) fn delta_error(err: DeltaTableError) -> SinkError {
    match err {
        DeltaTableError::NotATable(_) => SinkError::TableNotFound(Box::new(err)),
        other => SinkError::Delta(Box::new(other)),
    }
}

/// Another writer's commit landed first and carries a `txn` of this app
/// (`ConcurrentTransaction`), or otherwise conflicts with this one: check again on a fresh load.
fn lost_race(err: &DeltaTableError) -> bool {
    matches!(
        err,
        DeltaTableError::Transaction {
            source: TransactionError::CommitConflict(_) | TransactionError::MaxCommitAttempts(_)
        }
    )
}

/// Writes `batch` as Parquet data files of `table`; returns the `add` actions that would
/// reference them.
async fn write(table: &Log, batch: &RecordBatch) -> Result<Vec<Action>, SinkError> {
    let schema = table.snapshot().map_err(delta_error)?.snapshot().arrow_schema();
    check_schema(batch, &schema)?;
    let mut writer = RecordBatchWriter::for_table(table).map_err(delta_error)?;
    writer.write(batch.clone()).await.map_err(delta_error)?;
    let adds = writer.flush().await.map_err(delta_error)?;
    Failpoint::AfterDataFiles.check()?;
    Ok(adds.into_iter().map(Action::Add).collect())
}

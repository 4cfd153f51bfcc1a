//! `as-flink`: Flink's Iceberg sink, its committer's algorithm reproduced on iceberg-rust as it
//! is, not improved.

use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError, SourceFile};

use super::common::{CheckSite, CommitStrategy, IcebergTable, committed_epoch_on_main};
use super::ice::table::Table;

/// Flink's `IcebergFilesCommitter` and `IcebergCommitter` (apache/iceberg `flink/`): once per
/// commit, before committing, `SinkUtil.getMaxCommittedCheckpointId` walks `main`'s ancestry
/// from the head and stops at the first snapshot of this job (`flink.job-id`,
/// `flink.operator-id`), reading its `flink.max-committed-checkpoint-id`; a checkpoint at or
/// below it is skipped. Otherwise a `MergeAppend` (Java's appends have no duplicate-file check)
/// whose `commit()` refreshes the table and rebases the snapshot on a `CommitFailedException`:
/// nothing checks the id again on the refreshed base (apache/iceberg #14425; the fix for
/// `IcebergSink`, #17901, is open; `DynamicCommitter` has it, #14517). It records no table
/// property, so once the snapshot carrying the id has expired its restore is "best effort"
/// (#5846, #4137).
///
/// Here the checkpoint id is the epoch, read by the same walk (`committed_epoch_on_main`), the
/// duplicate-file check off as Java has none, and the library's retry is the rebase.
pub struct AsFlink;

impl CommitStrategy for AsFlink {
    fn footprint(&self) -> Footprint {
        Footprint { extension_point: None, files: &[SourceFile { path: file!(), text: include_str!("as_flink.rs") }] }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    fn check_duplicate(&self) -> bool {
        false
    }

    fn records_watermark(&self) -> bool {
        false
    }

    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        Ok(IcebergTable::already(committed_epoch_on_main(base.metadata(), app)?, epoch))
    }
}

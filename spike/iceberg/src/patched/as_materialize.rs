//! `as-materialize`: Materialize's Iceberg sink, its commit reproduced on iceberg-rust with patch 4
//! (the closest to its fork), not improved.

use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError, SourceFile, retry};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, IcebergTable, epoch_of_newest_sequence, sources};
use super::ice::table::Table;
use super::ice::transaction::{Rebase, Transaction};
use super::ice::{self, ErrorKind};

/// Materialize's `try_commit_batch` (`src/storage/src/sink/iceberg.rs`, after MaterializeInc/
/// materialize #38333 and its fix #38441): every attempt reloads the table and reads the sink's
/// frontier (`mz-frontier`) from its snapshot with the highest sequence number among every
/// snapshot the metadata holds (`retrieve_upper_from_snapshots`); a batch the frontier covers is
/// skipped; otherwise the append is committed with its own requirements and **no rebase** (its
/// fork of iceberg-rust); `CatalogCommitConflicts` is retried from a fresh load, other errors end
/// the attempt. Two things are not reproduced: its answer to `Unexpected` (a lost response: reload
/// and look for its own commit) is the caller's replay here, one level up, which resolves it the
/// same way; and its fencing of older writers by `mz-sink-version`, which this seam's writers do
/// not carry (`zombie_other_batch` reports what a zombie then does).
///
/// Patch 4 (`Transaction::with_rebase(Rebase::Never)`) is the closest: patch 2 would pin `main`
/// but let the library refresh and rebase the append before sending it, which Materialize turned
/// off, and patch 3 moves the check into the library's loop, which Materialize does not use.
pub struct AsMaterialize;

impl CommitStrategy for AsMaterialize {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&crate::extension_points::WITH_REBASE),
            files: &[
                SourceFile { path: file!(), text: include_str!("as_materialize.rs") },
                sources::OWNED_LOOP,
                retry::SOURCE,
            ],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    fn owns_loop(&self) -> bool {
        true
    }

    fn refused(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::CatalogCommitConflicts && !err.retryable()
    }

    fn records_watermark(&self) -> bool {
        false
    }

    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        Ok(IcebergTable::already(epoch_of_newest_sequence(base.metadata(), app)?, epoch))
    }

    fn stage(&self, base: &Table, append: Append, _check: &EpochCheck) -> ice::Result<Transaction> {
        append.stage(Transaction::new(base).with_rebase(Rebase::Never))
    }
}

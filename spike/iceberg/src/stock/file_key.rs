//! `iceberg-file-key`: the epoch check that stock iceberg-rust already runs on the refreshed base,
//! the fast append's duplicate-file check, made to refuse a second commit of an epoch by naming
//! the epoch's data files from `(app, epoch)`. No patch, no decorator.

use barrier_sink::{Footprint, SourceFile};

use super::common::{CheckSite, CommitStrategy, FileNames, sources};
use super::ice::{self, ErrorKind};
use crate::extension_points::DUPLICATE_FILE_CHECK;

/// Names each data file `once-{app}-{epoch}-{n}.parquet` (`FileNames::Keyed`) and commits a stock
/// fast append with the duplicate-file check on (`with_check_duplicate`, the library's default).
/// `FastAppendAction::commit` (0.10.1 `src/transaction/append.rs:90`) runs that check on the table
/// `Transaction::do_commit` has just refreshed (`src/transaction/snapshot.rs:165`), and the
/// append's own `RefSnapshotIdMatch` pins that table at the swap: a second commit of an epoch
/// whose files are live in `main` is refused by the library itself, inside its retry loop, with
/// `DataInvalid` ("Cannot add files that are already referenced by table"), which the sink reads
/// back, after a reload, as `AlreadyCommitted`.
///
/// What it decides, and what it does not:
/// - The sink first checks the epoch on a table it loads for every commit (the summary and the
///   watermark, as every arm): a replay, or an epoch at or below the committed one, is answered
///   there and writes nothing. That pre-check is not atomic with the swap; only the file check
///   is. So an epoch *below* the committed one raced against a commit of a higher one can land
///   (its files have other names): the arm refuses duplicates atomically, not regressions.
/// - Only writers that name their files the same way are fenced: a foreign writer that records
///   the epoch in the summary alone is seen by the pre-check, never by the swap.
/// - The check sees only files live in the current snapshot. Snapshot expiry keeps them live
///   (appends carry their manifests forward); a rewrite of the table's data (compaction, an
///   overwrite) does not, and a stale writer's replay of a rewritten epoch commits again
///   (`epochs_survive_rewrite`).
/// - Its files are created only if absent (`create_only.rs`): a stale writer of a committed epoch
///   with another batch must not replace the committed rows before its commit is refused. An
///   attempt that finds another batch's file at its name while the epoch is not committed gets
///   `SinkError::EpochClaimed` and writes nothing: the owner is in flight or died, and a dead
///   attempt's file claims the epoch until it is removed (or its own batch is offered again,
///   which reuses it).
/// - Its cost grows with the table: the check reads every manifest of the current snapshot on
///   every attempt (arroyo #942 turned it off for that reason).
pub struct FileKey {
    /// Whether its data files are created only if absent; off only to measure what a plain write
    /// does to the committed rows (`spike/lab/tests/file_key.rs`).
    pub create_only: bool,
}

impl CommitStrategy for FileKey {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&DUPLICATE_FILE_CHECK),
            files: &[SourceFile { path: file!(), text: include_str!("file_key.rs") }, sources::CREATE_ONLY],
        }
    }

    // The pre-check is in the sink; what enforces the claim is the check in the commit.
    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    fn check_duplicate(&self) -> bool {
        true
    }

    fn file_names(&self) -> FileNames {
        FileNames::Keyed { create_only: self.create_only }
    }

    fn epoch_taken(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::DataInvalid
            && err.message().starts_with("Cannot add files that are already referenced by table")
    }
}

//! `iceberg-no-rebase`: the commit's one attempt on the table the sink holds, no refresh and no
//! rebase (`Transaction::with_rebase(Rebase::Never)`, patch 4, shape (b)); the sink owns the loop.

use barrier_sink::{Footprint, SourceFile, retry};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, sources};
use super::ice::table::Table;
use super::ice::transaction::{Rebase, Transaction};
use super::ice::{self, ErrorKind};

/// Checks the epoch on the table its last commit returned and commits on that table as it is:
/// one round trip, the update. The append's own requirement (`main` where the held table has
/// it) makes the catalog refuse the commit if another writer moved `main`; the library does not
/// rebase it, so the refusal ends the attempt (`CatalogCommitConflicts`, not retryable), and the
/// sink reloads, checks again and commits again (`owned_loop.rs`), re-offering the data files it
/// wrote once. A held base another writer has moved costs a whole failed attempt, never a
/// duplicate.
pub struct NoRebase;

impl CommitStrategy for NoRebase {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&crate::extension_points::WITH_REBASE),
            files: &[
                SourceFile { path: file!(), text: include_str!("no_rebase.rs") },
                sources::OWNED_LOOP,
                retry::SOURCE,
            ],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    // The commit carries the held base's `main` as its requirement: a moved base is refused.
    fn holds_table(&self) -> bool {
        true
    }

    fn owns_loop(&self) -> bool {
        true
    }

    fn refused(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::CatalogCommitConflicts && !err.retryable()
    }

    fn stage(&self, base: &Table, append: Append, _check: &EpochCheck) -> ice::Result<Transaction> {
        append.stage(Transaction::new(base).with_rebase(Rebase::Never))
    }
}

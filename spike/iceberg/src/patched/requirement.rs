//! `iceberg-requirement`: check a loaded base and assert `main` where it found it
//! (`Transaction::assert_ref_snapshot_id`, patch 2); the sink owns the loop.

use barrier_sink::{Footprint, SourceFile, retry};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, sources};
use super::ice::spec::MAIN_BRANCH;
use super::ice::table::Table;
use super::ice::transaction::Transaction;
use super::ice::{self, ErrorKind};
use crate::extension_points::ASSERT_REF_SNAPSHOT_ID;

/// Loads, checks, and commits with `main` asserted at the snapshot it checked. A failed
/// assertion means another writer moved `main` in between: the sink reloads and checks again
/// (`owned_loop.rs`), re-offering the data files it wrote once.
///
/// Does not hold its table between commits. It would stay safe (the assertion pins whatever base
/// it checked), but its check runs on that base, not on the library's refresh: a held base that
/// another writer has moved on is never rebased, it fails the assertion and costs a whole
/// attempt (the refresh, the backoff, a reload, a second refresh), where the arms that check
/// inside the commit rebase for free.
pub struct Requirement;

impl CommitStrategy for Requirement {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&ASSERT_REF_SNAPSHOT_ID),
            files: &[
                SourceFile { path: file!(), text: include_str!("requirement.rs") },
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

    /// A moved `main` fails the assertion with `CommitConditionFailed`, which nothing else
    /// returns: the contract tells the refusal apart, not a look at the table.
    fn refused(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::CommitConditionFailed
    }

    fn stage(&self, base: &Table, append: Append, _check: &EpochCheck) -> ice::Result<Transaction> {
        let head = base.metadata().current_snapshot_id();
        append.stage(Transaction::new(base).assert_ref_snapshot_id(MAIN_BRANCH, head)?)
    }
}

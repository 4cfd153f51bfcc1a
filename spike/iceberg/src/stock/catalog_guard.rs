//! `iceberg-catalog-guard`: the epoch check moved into the catalog the transaction commits
//! through, on the stock build.

use std::sync::Arc;

use barrier_sink::{Footprint, SourceFile};

use super::common::{CheckSite, CommitCatalog, CommitStrategy, EpochCheck, sources};
use super::ice::Catalog;
use crate::extension_points::CATALOG_DECORATOR;

/// Commits through a [`CommitCatalog`] whose `load_table` rejects a table that already records the
/// epoch. `Transaction::do_commit` calls that load on every attempt and pins the append to the
/// table it returns, so the check and the compare-and-swap see the same base.
///
/// It relies on how 0.10.1's `do_commit` works, not on anything its API promises: one
/// `load_table` per attempt, through the catalog passed to `commit`, before any action runs; the
/// append's `RefSnapshotIdMatch` derived from that load; an `Err` from the load ending the commit
/// unless retryable. FINDINGS.md says what changes would break it.
pub struct CatalogGuard;

impl CommitStrategy for CatalogGuard {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&CATALOG_DECORATOR),
            files: &[SourceFile { path: file!(), text: include_str!("catalog_guard.rs") }, sources::COMMIT_CATALOG],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Commit
    }

    // The check runs on the library's refresh inside the commit, whatever base it started from.
    fn holds_table(&self) -> bool {
        true
    }

    fn catalog(&self, connection: Arc<dyn Catalog>, check: &EpochCheck) -> CommitCatalog {
        CommitCatalog::guarded(connection, check.clone())
    }
}

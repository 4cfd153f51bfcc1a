//! How the patched build publishes a snapshot it built outside a transaction
//! (`common/rewrite.rs`): through the library's own commit, a `TransactionAction` (public with
//! patch 1) that adds the snapshot and sets `main` to it, asserting `main` where the snapshot was
//! built. Another writer's commit in between fails that assertion on every retry: the caller
//! publishes while nothing else commits. The same commit, offering a snapshot id the table has,
//! shows who refuses a duplicate id (`iceberg-snapshot-id`).

use std::sync::Arc;

use async_trait::async_trait;
use barrier_sink::SinkError;

use super::common::CommitStrategy;
use super::common::{IcebergTable, iceberg_error};
use super::ice::spec::{MAIN_BRANCH, Snapshot, SnapshotReference, SnapshotRetention};
use super::ice::table::Table;
use super::ice::transaction::{ActionCommit, ApplyTransactionAction, Transaction, TransactionAction};
use super::ice::{self, TableRequirement, TableUpdate};
use super::snapshot_id::SnapshotId;

struct AddAsMain {
    snapshot: Snapshot,
    main: SnapshotReference,
    parent: Option<i64>,
}

#[async_trait]
impl TransactionAction for AddAsMain {
    async fn commit(self: Arc<Self>, _table: &Table) -> ice::Result<ActionCommit> {
        let updates = vec![
            TableUpdate::AddSnapshot { snapshot: self.snapshot.clone() },
            TableUpdate::SetSnapshotRef { ref_name: MAIN_BRANCH.to_string(), reference: self.main.clone() },
        ];
        let requirements =
            vec![TableRequirement::RefSnapshotIdMatch { r#ref: MAIN_BRANCH.to_string(), snapshot_id: self.parent }];
        Ok(ActionCommit::new(updates, requirements))
    }
}

/// Commits `snapshot` as `main` (at `main`) on `table`, built on `base`.
pub(crate) async fn snapshot(
    table: &IcebergTable,
    base: &Table,
    snapshot: Snapshot,
    main: SnapshotReference,
) -> Result<(), SinkError> {
    offer(table, base, snapshot, main).await.map_err(iceberg_error)
}

/// [`snapshot`], with the library's or the catalog's refusal as the library reports it.
pub(crate) async fn offer(
    table: &IcebergTable,
    base: &Table,
    snapshot: Snapshot,
    main: SnapshotReference,
) -> ice::Result<()> {
    let action = AddAsMain { parent: base.metadata().current_snapshot_id(), snapshot, main };
    action.apply(Transaction::new(base))?.commit(table.catalog.as_ref()).await.map(drop)
}

/// What became of a commit that adds a snapshot whose id the table already has.
#[derive(Debug)]
pub enum DuplicateIdAnswer {
    /// It applied the commit.
    Accepted,
    /// The library (its own apply of the updates, before sending them) or the catalog refused it,
    /// with this error; `taken` says whether `iceberg-snapshot-id` reads that error as the epoch
    /// already committed (it then reloads and answers `AlreadyCommitted`).
    Refused { error: String, taken: bool },
}

impl IcebergTable {
    /// Commits `main`'s current snapshot again, same id, with `main` asserted where it is, so that
    /// no requirement refuses it: only a check of the id can.
    pub async fn offer_current_snapshot_again(&self) -> Result<DuplicateIdAnswer, SinkError> {
        let base = self.load().await?;
        let Some(current) = base.metadata().current_snapshot() else {
            return Err(SinkError::Corrupt("no current snapshot to offer again".to_string()));
        };
        let main = SnapshotReference::new(current.snapshot_id(), SnapshotRetention::branch(None, None, None));
        Ok(match offer(self, &base, current.as_ref().clone(), main).await {
            Ok(()) => DuplicateIdAnswer::Accepted,
            Err(err) => DuplicateIdAnswer::Refused { error: err.to_string(), taken: SnapshotId.epoch_taken(&err) },
        })
    }
}

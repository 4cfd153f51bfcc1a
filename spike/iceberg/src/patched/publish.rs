//! How the patched build publishes a snapshot it built outside a transaction
//! (`common/rewrite.rs`): through the library's own commit, a `TransactionAction` (public with
//! patch 1) that adds the snapshot and sets `main` to it, asserting `main` where the snapshot was
//! built. Another writer's commit in between fails that assertion on every retry: the caller
//! publishes while nothing else commits.

use std::sync::Arc;

use async_trait::async_trait;
use barrier_sink::SinkError;

use super::common::{IcebergTable, iceberg_error};
use super::ice::spec::{MAIN_BRANCH, Snapshot, SnapshotReference};
use super::ice::table::Table;
use super::ice::transaction::{ActionCommit, ApplyTransactionAction, Transaction, TransactionAction};
use super::ice::{self, TableRequirement, TableUpdate};

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
    let action = AddAsMain { parent: base.metadata().current_snapshot_id(), snapshot, main };
    let tx = action.apply(Transaction::new(base)).map_err(iceberg_error)?;
    tx.commit(table.catalog.as_ref()).await.map_err(iceberg_error)?;
    Ok(())
}

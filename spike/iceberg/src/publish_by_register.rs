//! How a stock build publishes a snapshot it built outside a transaction (`common/rewrite.rs`):
//! the next metadata file, registered again. Stock iceberg-rust gives a caller no way to send the
//! catalog a snapshot its own actions did not produce.

use barrier_sink::SinkError;

use super::common::IcebergTable;
use super::ice::spec::{MAIN_BRANCH, Snapshot, SnapshotReference};
use super::ice::table::Table;

/// Publishes `snapshot` as `main` (at `reference`) on `base` by registering `table` again on the
/// next metadata file.
pub(crate) async fn snapshot(
    table: &IcebergTable,
    base: &Table,
    snapshot: Snapshot,
    reference: SnapshotReference,
) -> Result<(), SinkError> {
    let location = base.metadata_location().map(str::to_string);
    let next = (|| {
        base.metadata().clone().into_builder(location).add_snapshot(snapshot)?.set_ref(MAIN_BRANCH, reference)?.build()
    })()
    .map_err(|e| SinkError::Iceberg(Box::new(e)))?;
    table.register_again(base, next.metadata).await
}

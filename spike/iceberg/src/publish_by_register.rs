//! How a stock build publishes a snapshot it built outside a transaction (`common/rewrite.rs`):
//! the next metadata file, registered again. Stock iceberg-rust gives a caller no way to send the
//! catalog a snapshot its own actions did not produce.

use barrier_sink::SinkError;

use super::common::{IcebergTable, main_at};
use super::ice::spec::{MAIN_BRANCH, Snapshot};
use super::ice::table::Table;

/// Publishes `snapshot` as `main` on `base` by registering `table` again on the next metadata file.
pub(crate) async fn snapshot(table: &IcebergTable, base: &Table, snapshot: Snapshot) -> Result<(), SinkError> {
    let location = base.metadata_location().map(str::to_string);
    let reference = main_at(&snapshot);
    let next = (|| {
        base.metadata().clone().into_builder(location).add_snapshot(snapshot)?.set_ref(MAIN_BRANCH, reference)?.build()
    })()
    .map_err(|e| SinkError::Iceberg(Box::new(e)))?;
    table.register_again(base, next.metadata).await
}

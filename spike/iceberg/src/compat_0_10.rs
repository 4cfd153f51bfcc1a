//! Where iceberg 0.10.1's API differs from 0.11.0's, as `common` uses it: `crate::stock` and
//! `crate::patched` include this file as their `compat` module, `crate::stock_011` has its own.

use super::ice::spec::{Manifest, ManifestFile, TableMetadata};
use super::ice::table::Table;
use super::ice::{self, MetadataLocation};

/// What `FileWrite::close` returns.
pub type Closed = ();

/// What `FileWrite::close` returns for a file of `size` bytes.
pub fn closed(_size: u64) -> Closed {}

/// The first metadata location of a table with `metadata`.
pub fn first_metadata_location(metadata: &TableMetadata) -> ice::Result<MetadataLocation> {
    Ok(MetadataLocation::new_with_metadata(metadata.location(), metadata))
}

/// `manifest`, read through `table`'s file IO.
pub async fn load_manifest(table: &Table, manifest: &ManifestFile) -> ice::Result<Manifest> {
    manifest.load_manifest(table.file_io()).await
}

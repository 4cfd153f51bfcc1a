//! The stock arms on iceberg-rust 0.11.0, the newest release, which crates.io does not serve:
//! `vendor/iceberg-0.11.0`, the package of PyPI's pyiceberg-core 0.11.0 sdist
//! (`patches/v0.11.0/check`). The same code as the 0.10.1 builds', compiled against it, on the
//! memory catalog only: that sdist ships no catalog crate, and 0.11.0's SQL and REST catalogs are
//! published nowhere this project can derive them from.

pub(crate) use ::iceberg_011 as ice;

// The same code as the other builds', compiled against this build's crate: on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "common/mod.rs"]
mod common;

#[allow(clippy::duplicate_mod)]
#[path = "stock/catalog_guard.rs"]
mod catalog_guard;
#[allow(clippy::duplicate_mod)]
#[path = "publish_by_register.rs"]
pub(crate) mod publish;

/// Where 0.11.0's API differs from 0.10.1's, as `common` uses it (`compat_0_10.rs`).
pub(crate) mod compat {
    use super::ice::io::FileMetadata;
    use super::ice::spec::{Manifest, ManifestFile, TableMetadata};
    use super::ice::table::Table;
    use super::ice::{self, MetadataLocation};

    /// What `FileWrite::close` returns.
    pub type Closed = FileMetadata;

    /// What `FileWrite::close` returns for a file of `size` bytes.
    pub fn closed(size: u64) -> Closed {
        FileMetadata { size }
    }

    /// The first metadata location of a table with `metadata`.
    pub fn first_metadata_location(metadata: &TableMetadata) -> ice::Result<MetadataLocation> {
        MetadataLocation::try_new_with_metadata(metadata)
    }

    /// `manifest`, read through `table`'s file IO.
    pub async fn load_manifest(table: &Table, manifest: &ManifestFile) -> ice::Result<Manifest> {
        table.manifest_reader().read(manifest).await
    }
}

/// The catalogs other than `memory`, which this build cannot reach.
pub(crate) mod remote {
    use std::sync::Arc;

    use barrier_sink::SinkError;

    use super::ice::Catalog;
    use crate::connection::Connection;

    pub async fn open(_connection: &Connection) -> Result<Arc<dyn Catalog>, SinkError> {
        Err(SinkError::CatalogUnavailable(
            "iceberg 0.11.0 has no SQL or REST catalog crate here, only its memory catalog".into(),
        ))
    }
}

pub use catalog_guard::CatalogGuard;
pub use common::*;

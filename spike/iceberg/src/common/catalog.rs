//! Opens a [`Connection`] through this build: the memory catalog here, every other kind through
//! the build's `remote` module (the 0.10.1 builds' SQL and REST catalogs, `remote_catalogs.rs`;
//! 0.11.0 ships none). Every kind is opened on `storage.rs`'s decorator of its own storage.

use std::collections::HashMap;
use std::sync::Arc;

use barrier_sink::SinkError;

use super::errors::iceberg_error;
use super::ice::io::LocalFsStorageFactory;
use super::ice::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
use super::ice::{Catalog, CatalogBuilder};
use super::remote;
use super::storage::FailpointStorageFactory;
use crate::connection::Connection;

/// The local file system under the failpoints' storage decorator.
pub(crate) fn local_fs() -> Arc<FailpointStorageFactory> {
    Arc::new(FailpointStorageFactory { inner: Arc::new(LocalFsStorageFactory) })
}

/// A new connection to the catalog (for `memory`, a new, empty catalog).
pub async fn open(connection: &Connection) -> Result<Arc<dyn Catalog>, SinkError> {
    match connection {
        Connection::Memory { name, warehouse } => {
            let props = HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_string(), warehouse.clone())]);
            let catalog = MemoryCatalogBuilder::default()
                .with_storage_factory(local_fs())
                .load(name, props)
                .await
                .map_err(iceberg_error)?;
            Ok(Arc::new(catalog))
        }
        other => remote::open(other).await,
    }
}

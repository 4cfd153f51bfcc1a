//! The catalogs the arms run on.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::ice::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
use super::ice::{Catalog, CatalogBuilder};
use super::ice_sql::{
    SQL_CATALOG_PROP_BIND_STYLE, SQL_CATALOG_PROP_URI, SQL_CATALOG_PROP_WAREHOUSE, SqlBindStyle,
    SqlCatalogBuilder,
};
use super::storage::FailpointStorageFactory;
use super::table::iceberg_error;
use crate::arms::CatalogKind;
use crate::error::SinkError;

const CATALOG_NAME: &str = "barrier";

/// Where a catalog lives: `memory` is one in-process instance per fixture, `sqlite` a database
/// file that any number of connections (and processes) open independently.
#[derive(Clone, Debug)]
pub struct IcebergCatalog {
    pub kind: CatalogKind,
    pub dir: PathBuf,
}

impl IcebergCatalog {
    /// The catalog name. On a shared PostgreSQL server, one per directory, so that runs do not
    /// see each other's tables; every process given the same directory derives the same name.
    pub fn name(&self) -> String {
        match self.kind {
            CatalogKind::Postgres => {
                let hash = self.dir.to_string_lossy().bytes().fold(0xcbf29ce484222325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
                });
                format!("{CATALOG_NAME}-{hash:016x}")
            }
            _ => CATALOG_NAME.to_string(),
        }
    }

    /// The SQLite database file, for `sqlite`.
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        matches!(self.kind, CatalogKind::Sqlite).then(|| self.dir.join("catalog.db"))
    }

    pub fn warehouse(&self) -> String {
        format!("file://{}", self.dir.join("warehouse").display())
    }

    /// Opens a new connection to the catalog (for `memory`, a new, empty catalog).
    pub async fn open(&self) -> Result<Arc<dyn Catalog>, SinkError> {
        let storage = Arc::new(FailpointStorageFactory);
        match self.kind {
            CatalogKind::Memory => {
                let props = HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_string(), self.warehouse())]);
                let catalog = MemoryCatalogBuilder::default()
                    .with_storage_factory(storage)
                    .load(CATALOG_NAME, props)
                    .await
                    .map_err(iceberg_error)?;
                Ok(Arc::new(catalog))
            }
            CatalogKind::Sqlite => {
                let file = self.sqlite_file().expect("sqlite catalog has a file");
                let uri = format!("sqlite://{}?mode=rwc", file.display());
                self.sql_catalog(&uri, SqlBindStyle::QMark, storage).await
            }
            CatalogKind::Postgres => {
                let uri = std::env::var("BARRIER_POSTGRES_URL").map_err(|_| {
                    SinkError::CatalogUnavailable("BARRIER_POSTGRES_URL is not set".to_string())
                })?;
                self.sql_catalog(&uri, SqlBindStyle::DollarNumeric, storage).await
            }
        }
    }

    async fn sql_catalog(
        &self,
        uri: &str,
        bind_style: SqlBindStyle,
        storage: Arc<FailpointStorageFactory>,
    ) -> Result<Arc<dyn Catalog>, SinkError> {
        let props = HashMap::from([
            (SQL_CATALOG_PROP_URI.to_string(), uri.to_string()),
            (SQL_CATALOG_PROP_WAREHOUSE.to_string(), self.warehouse()),
            (SQL_CATALOG_PROP_BIND_STYLE.to_string(), bind_style.to_string()),
        ]);
        let catalog = SqlCatalogBuilder::default()
            .with_storage_factory(storage)
            .load(self.name(), props)
            .await
            .map_err(|e| SinkError::CatalogUnavailable(format!("{uri}: {e}")))?;
        Ok(Arc::new(catalog))
    }
}

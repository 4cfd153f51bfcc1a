//! The catalogs the arms run on: the one place that opens each kind.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use uuid::Uuid;

use super::ice::io::{LocalFsStorageFactory, StorageFactory};
use super::ice::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
use super::ice::{Catalog, CatalogBuilder};
use super::ice_rest::RestCatalogBuilder;
use super::ice_s3::OpenDalStorageFactory;
use super::ice_sql::{
    SQL_CATALOG_PROP_BIND_STYLE, SQL_CATALOG_PROP_URI, SQL_CATALOG_PROP_WAREHOUSE, SqlBindStyle,
    SqlCatalogBuilder,
};
use super::storage::FailpointStorageFactory;
use super::errors::iceberg_error;
use crate::catalogs::{Access, CatalogKind, REST_TIMEOUT};
use crate::error::SinkError;
use crate::store::S3Server;

const CATALOG_NAME: &str = "barrier";

fn local_fs() -> Arc<FailpointStorageFactory> {
    Arc::new(FailpointStorageFactory { inner: Arc::new(LocalFsStorageFactory) })
}
const NAMESPACE: &str = "barrier";

/// Where a catalog lives: `memory` is one in-process instance per fixture, `sqlite` a database
/// file that any number of connections (and processes) open independently, `postgres` and `rest`
/// a server that every fixture shares, each fixture keeping to names of its own.
#[derive(Clone, Debug)]
pub struct IcebergCatalog {
    pub kind: CatalogKind,
    pub dir: PathBuf,
    pub access: Access,
    /// What makes this fixture's names on a shared server its own (see [`IcebergCatalog::fresh`]).
    scope: String,
}

/// The file in a fixture's directory that records its scope on a shared server.
const SCOPE_FILE: &str = "catalog-scope";

impl IcebergCatalog {
    /// The catalog of the fixture under `dir`, as any process opens it.
    pub fn new(kind: CatalogKind, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let scope = std::fs::read_to_string(dir.join(SCOPE_FILE)).unwrap_or_default();
        Self { kind, dir, access: Access::default(), scope: scope.trim().to_string() }
    }

    /// The catalog of a fixture about to be created under `dir`. On a shared server its names
    /// get a scope of their own, recorded in `dir` for the processes that open the fixture later:
    /// a directory used again (a second `--keep` run) must not find the last run's tables.
    pub fn fresh(kind: CatalogKind, dir: &Path) -> Result<Self, SinkError> {
        if kind.profile().server.is_some() {
            let scope = Uuid::new_v4().simple().to_string()[..16].to_string();
            std::fs::write(dir.join(SCOPE_FILE), &scope)
                .map_err(|e| SinkError::CatalogUnavailable(format!("{}: {e}", dir.display())))?;
        }
        Ok(Self::new(kind, dir))
    }

    /// The same catalog, reached the way `access` says.
    pub fn with_access(&self, access: &Access) -> Self {
        Self { access: access.clone(), ..self.clone() }
    }

    fn scoped(&self, prefix: &str, separator: char) -> String {
        format!("{prefix}{separator}{}", self.scope)
    }

    /// The catalog name: on the shared PostgreSQL server, one per directory.
    pub fn name(&self) -> String {
        match self.kind {
            CatalogKind::Postgres => self.scoped(CATALOG_NAME, '-'),
            _ => CATALOG_NAME.to_string(),
        }
    }

    /// The namespace: on the shared REST server (which has one catalog), one per directory.
    pub fn namespace(&self) -> String {
        match self.kind {
            CatalogKind::Rest => self.scoped(NAMESPACE, '_'),
            _ => NAMESPACE.to_string(),
        }
    }

    /// The SQLite database file, for `sqlite`.
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        matches!(self.kind, CatalogKind::Sqlite).then(|| self.dir.join("catalog.db"))
    }

    /// The REST server's address, for `rest`: the writer's own if it has one (the fault proxy).
    pub fn uri(&self) -> Option<String> {
        matches!(self.kind, CatalogKind::Rest)
            .then(|| self.access.uri.clone().or_else(|| std::env::var("BARRIER_REST_URL").ok()))
            .flatten()
    }

    pub fn warehouse(&self) -> String {
        match self.kind {
            CatalogKind::Rest => "s3://warehouse".to_string(),
            _ => format!("file://{}", self.dir.join("warehouse").display()),
        }
    }

    /// Opens a new connection to the catalog (for `memory`, a new, empty catalog).
    pub async fn open(&self) -> Result<Arc<dyn Catalog>, SinkError> {
        match self.kind {
            CatalogKind::Memory => {
                let props = HashMap::from([(MEMORY_CATALOG_WAREHOUSE.to_string(), self.warehouse())]);
                let catalog = MemoryCatalogBuilder::default()
                    .with_storage_factory(local_fs())
                    .load(CATALOG_NAME, props)
                    .await
                    .map_err(iceberg_error)?;
                Ok(Arc::new(catalog))
            }
            CatalogKind::Sqlite => {
                let file = self.sqlite_file().expect("sqlite catalog has a file");
                let uri = format!("sqlite://{}?mode=rwc", file.display());
                self.sql_catalog(&uri, SqlBindStyle::QMark, local_fs()).await
            }
            CatalogKind::Postgres => {
                let uri = std::env::var("BARRIER_POSTGRES_URL").map_err(|_| {
                    SinkError::CatalogUnavailable("BARRIER_POSTGRES_URL is not set".to_string())
                })?;
                self.sql_catalog(&uri, SqlBindStyle::DollarNumeric, local_fs()).await
            }
            CatalogKind::Rest => self.rest_catalog().await,
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

    /// The REST catalog at `$BARRIER_REST_URL` (or the writer's own address), its data on the S3
    /// endpoint `scripts/seaweedfs` exports. The client authenticates with the S3 key pair as its
    /// OAuth client credential, as SeaweedFS expects, and times each request out after
    /// [`REST_TIMEOUT`] unless the writer asks otherwise.
    async fn rest_catalog(&self) -> Result<Arc<dyn Catalog>, SinkError> {
        let uri = self
            .uri()
            .ok_or_else(|| SinkError::CatalogUnavailable("BARRIER_REST_URL is not set".to_string()))?;
        let s3 = S3Server::from_env()?;
        let credential = self
            .access
            .catalog_credential
            .clone()
            .unwrap_or_else(|| format!("{}:{}", s3.access_key, s3.secret_key));
        let secret = self.access.storage_secret.clone().unwrap_or(s3.secret_key);
        let props = HashMap::from([
            ("uri".to_string(), uri.clone()),
            ("warehouse".to_string(), self.warehouse()),
            ("credential".to_string(), credential),
            ("s3.endpoint".to_string(), s3.endpoint),
            ("s3.path-style-access".to_string(), "true".to_string()),
            ("s3.access-key-id".to_string(), s3.access_key),
            ("s3.secret-access-key".to_string(), secret),
            ("s3.region".to_string(), "us-east-1".to_string()),
        ]);
        let client = reqwest::Client::builder()
            .timeout(self.access.timeout.unwrap_or(REST_TIMEOUT))
            .build()
            .map_err(|e| SinkError::CatalogUnavailable(format!("{uri}: {e}")))?;
        let s3: Arc<dyn StorageFactory> = Arc::new(OpenDalStorageFactory::S3 { customized_credential_load: None });
        let catalog = RestCatalogBuilder::default()
            .with_client(client)
            .with_storage_factory(Arc::new(FailpointStorageFactory { inner: s3 }))
            .load(CATALOG_NAME, props)
            .await
            .map_err(|e| SinkError::CatalogUnavailable(format!("{uri}: {e}")))?;
        Ok(Arc::new(catalog))
    }
}

//! The catalogs the arms run on, and the decorator every commit goes through.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;

use super::epoch::check_free;
use super::ice::memory::{MEMORY_CATALOG_WAREHOUSE, MemoryCatalogBuilder};
use super::ice::table::Table;
use super::ice::{
    self, Catalog, CatalogBuilder, Namespace, NamespaceIdent, TableCommit,
    TableCreation, TableIdent,
};
use super::ice_sql::{
    SQL_CATALOG_PROP_BIND_STYLE, SQL_CATALOG_PROP_URI, SQL_CATALOG_PROP_WAREHOUSE, SqlBindStyle,
    SqlCatalogBuilder,
};
use super::storage::FailpointStorageFactory;
use super::table::{iceberg_error, injected};
use crate::arms::CatalogKind;
use crate::error::SinkError;
use crate::hooks::failpoints::{AFTER_SWAP, BEFORE_SWAP};
use crate::hooks::{CallCounts, Hooks};
use crate::sink::{AppId, Epoch};

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

/// Rejects the refresh of a commit whose epoch the table already records.
///
/// `Transaction::commit` refreshes the table through the catalog it commits to before it derives
/// the append's requirements, on every attempt. A guard on that load therefore checks exactly the
/// base the commit will be pinned to. That is a property of `do_commit` in 0.10.1, not a promise
/// of its API: FINDINGS.md lists what this arm relies on.
pub struct EpochGuard {
    pub app: AppId,
    pub epoch: Epoch,
    pub hooks: Hooks,
}

/// The catalog a sink's transactions commit through: the connection it wraps, plus failpoints
/// around the swap ([`BEFORE_SWAP`], [`AFTER_SWAP`]) and an optional [`EpochGuard`]. Its storage
/// adds the one inside the swap (`storage::FailpointStorage`).
pub struct CommitCatalog {
    inner: Arc<dyn Catalog>,
    guard: Option<EpochGuard>,
    counts: Option<Arc<CallCounts>>,
    stops: bool,
}

impl CommitCatalog {
    pub fn new(inner: Arc<dyn Catalog>) -> Self {
        Self { inner, guard: None, counts: None, stops: true }
    }

    pub fn guarded(inner: Arc<dyn Catalog>, guard: EpochGuard) -> Self {
        Self { inner, guard: Some(guard), counts: None, stops: true }
    }

    /// A connection that counts every `load_table` and `update_table` that goes through it, and
    /// nothing else: the strategy's own `CommitCatalog` on top of it passes the failpoints, so
    /// that a swap passes each of them once.
    pub fn counting(inner: Arc<dyn Catalog>, counts: Arc<CallCounts>) -> Self {
        Self { inner, guard: None, counts: Some(counts), stops: false }
    }

    fn count(&self, field: impl Fn(&CallCounts) -> &std::sync::atomic::AtomicU64) {
        if let Some(counts) = &self.counts {
            field(counts).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl fmt::Debug for CommitCatalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommitCatalog")
            .field("inner", &self.inner)
            .field("guarded", &self.guard.is_some())
            .finish()
    }
}

#[async_trait]
impl Catalog for CommitCatalog {
    async fn load_table(&self, table: &TableIdent) -> ice::Result<Table> {
        self.count(|c| &c.loads);
        let loaded = self.inner.load_table(table).await?;
        if let Some(guard) = &self.guard {
            check_free(loaded.metadata(), &guard.app, guard.epoch)?;
            guard.hooks.epoch_check_passed().await;
        }
        Ok(loaded)
    }

    async fn update_table(&self, commit: TableCommit) -> ice::Result<Table> {
        self.count(|c| &c.updates);
        if self.stops {
            fail::fail_point!(BEFORE_SWAP, |_| Err(injected(BEFORE_SWAP)));
        }
        let table = self.inner.update_table(commit).await?;
        // The swap happened; the writer is about to lose the answer (an unknown outcome).
        if self.stops {
            fail::fail_point!(AFTER_SWAP, |_| Err(injected(AFTER_SWAP)));
        }
        Ok(table)
    }

    async fn list_namespaces(&self, parent: Option<&NamespaceIdent>) -> ice::Result<Vec<NamespaceIdent>> {
        self.inner.list_namespaces(parent).await
    }

    async fn create_namespace(
        &self,
        namespace: &NamespaceIdent,
        properties: HashMap<String, String>,
    ) -> ice::Result<Namespace> {
        self.inner.create_namespace(namespace, properties).await
    }

    async fn get_namespace(&self, namespace: &NamespaceIdent) -> ice::Result<Namespace> {
        self.inner.get_namespace(namespace).await
    }

    async fn namespace_exists(&self, namespace: &NamespaceIdent) -> ice::Result<bool> {
        self.inner.namespace_exists(namespace).await
    }

    async fn update_namespace(
        &self,
        namespace: &NamespaceIdent,
        properties: HashMap<String, String>,
    ) -> ice::Result<()> {
        self.inner.update_namespace(namespace, properties).await
    }

    async fn drop_namespace(&self, namespace: &NamespaceIdent) -> ice::Result<()> {
        self.inner.drop_namespace(namespace).await
    }

    async fn list_tables(&self, namespace: &NamespaceIdent) -> ice::Result<Vec<TableIdent>> {
        self.inner.list_tables(namespace).await
    }

    async fn create_table(
        &self,
        namespace: &NamespaceIdent,
        creation: TableCreation,
    ) -> ice::Result<Table> {
        self.inner.create_table(namespace, creation).await
    }

    async fn drop_table(&self, table: &TableIdent) -> ice::Result<()> {
        self.inner.drop_table(table).await
    }

    async fn purge_table(&self, table: &TableIdent) -> ice::Result<()> {
        self.inner.purge_table(table).await
    }

    async fn table_exists(&self, table: &TableIdent) -> ice::Result<bool> {
        self.inner.table_exists(table).await
    }

    async fn rename_table(&self, src: &TableIdent, dest: &TableIdent) -> ice::Result<()> {
        self.inner.rename_table(src, dest).await
    }

    async fn register_table(&self, table: &TableIdent, metadata_location: String) -> ice::Result<Table> {
        self.inner.register_table(table, metadata_location).await
    }
}

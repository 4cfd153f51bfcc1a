//! The catalog every commit goes through: a decorator of the connection, for the failpoints
//! around the swap, counting round trips, marking which call an error came from
//! ([`super::errors`]), and (for `iceberg-catalog-guard`) the epoch check on the library's refresh.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use barrier_sink::{CallCounts, Failpoint, Hooks, SourceFile};

use super::epoch::EpochCheck;
use super::errors::{CatalogCall, failed_call, injected};
use super::ice::table::Table;
use super::ice::{self, Catalog, Namespace, NamespaceIdent, TableCommit, TableCreation, TableIdent};

/// This file, for the footprint of `iceberg-catalog-guard`, whose check rides on it.
pub const SOURCE: SourceFile = SourceFile { path: file!(), text: include_str!("commit_catalog.rs") };

/// The catalog a sink's transactions commit through: the connection it wraps, plus failpoints
/// around the swap ([`Failpoint::BeforeSwap`], [`Failpoint::AfterSwap`]) and an optional
/// [`EpochCheck`] on every load. Its storage adds the one inside the swap (`storage.rs`).
///
/// A guarded load checks exactly the base the commit will be pinned to: `Transaction::commit`
/// refreshes the table through the catalog it commits to before it derives the append's
/// requirements, on every attempt. That is a property of `do_commit` in 0.10.1, not a promise of
/// its API: FINDINGS.md lists what `iceberg-catalog-guard` relies on.
pub struct CommitCatalog {
    inner: Arc<dyn Catalog>,
    guard: Option<EpochCheck>,
    counts: Option<Arc<CallCounts>>,
    /// The writer's hooks, for [`Hooks::swap_reached`] right before the swap.
    observed: Option<Hooks>,
    stops: bool,
}

impl CommitCatalog {
    pub fn new(inner: Arc<dyn Catalog>) -> Self {
        Self { inner, guard: None, counts: None, observed: None, stops: true }
    }

    /// Rejects the refresh of a commit whose epoch the table already records.
    pub fn guarded(inner: Arc<dyn Catalog>, guard: EpochCheck) -> Self {
        Self { guard: Some(guard), ..Self::new(inner) }
    }

    /// A connection that counts every `load_table` and `update_table` that goes through it, calls
    /// `hooks`' [`Hooks::swap_reached`] right before each `update_table`, and does nothing else:
    /// the strategy's own `CommitCatalog` on top of it passes the failpoints, so that a swap
    /// passes each of them once, and a writer held at the swap has passed them all.
    pub fn observing(inner: Arc<dyn Catalog>, counts: Option<Arc<CallCounts>>, hooks: Hooks) -> Self {
        Self { inner, guard: None, counts, observed: Some(hooks), stops: false }
    }
}

impl fmt::Debug for CommitCatalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommitCatalog").field("inner", &self.inner).field("guarded", &self.guard.is_some()).finish()
    }
}

#[async_trait]
impl Catalog for CommitCatalog {
    async fn load_table(&self, table: &TableIdent) -> ice::Result<Table> {
        if let Some(counts) = &self.counts {
            counts.load();
        }
        let loaded = self.inner.load_table(table).await.map_err(|e| failed_call(CatalogCall::Refresh, e))?;
        if let Some(guard) = &self.guard {
            guard.run(&loaded).await?;
        }
        Ok(loaded)
    }

    async fn update_table(&self, commit: TableCommit) -> ice::Result<Table> {
        if let Some(counts) = &self.counts {
            counts.update();
        }
        if self.stops && Failpoint::BeforeSwap.fires() {
            return Err(injected(Failpoint::BeforeSwap));
        }
        if let Some(hooks) = &self.observed {
            hooks.swap_reached().await;
        }
        let table = self.inner.update_table(commit).await.map_err(|e| failed_call(CatalogCall::Swap, e))?;
        // The swap happened; the writer is about to lose the answer (an unknown outcome).
        if self.stops && Failpoint::AfterSwap.fires() {
            return Err(injected(Failpoint::AfterSwap));
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

    async fn create_table(&self, namespace: &NamespaceIdent, creation: TableCreation) -> ice::Result<Table> {
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

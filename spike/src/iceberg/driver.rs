//! [`TableDriver`] for an Iceberg table on any catalog: what the suite, `verdict`, `stress` and
//! the benchmarks do to it. The arm's strategy comes from the build (`sink_for`).

use std::collections::BTreeSet;
use std::sync::Arc;

use async_trait::async_trait;

use super::commit_catalog::CommitCatalog;
use super::epoch::committed_epoch_on_main;
use super::outage;
use super::table::{IcebergFixture, IcebergTable};
use crate::arms::Arm;
use crate::error::SinkError;
use crate::fixture::{Outage, TableDriver, TableLocation, WriterOptions};
use crate::hooks::Hooks;
use crate::leftovers::{LeftBehind, unreferenced};
use crate::sink::{AppId, CommitSink, Epoch};

/// The arm's sink on `table`.
pub(super) fn sink(arm: Arm, table: IcebergTable, hooks: Hooks) -> Result<Box<dyn CommitSink>, SinkError> {
    super::sink_for(arm, table, hooks)
        .ok_or_else(|| SinkError::Iceberg(format!("{} does not run on this build", arm.name())))
}

#[async_trait]
impl TableDriver for IcebergFixture {
    async fn writer(&self, arm: Arm, options: WriterOptions) -> Result<Box<dyn CommitSink>, SinkError> {
        let mut table = self.handle_with(&options.access).await?;
        if options.counts.is_some() || options.hooks.swap_window().is_some() {
            table.catalog = Arc::new(CommitCatalog::observing(table.catalog, options.counts, options.hooks.clone()));
        }
        sink(arm, table, options.hooks)
    }

    async fn writer_on_missing_table(&self, arm: Arm) -> Result<Box<dyn CommitSink>, SinkError> {
        sink(arm, self.missing().await?, Hooks::default())
    }

    async fn expire_history(&self) -> Result<usize, SinkError> {
        self.handle().await?.expire_all_but_current().await
    }

    async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        committed_epoch_on_main(self.handle().await?.load().await?.metadata(), app)
    }

    async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        self.handle().await?.epoch_history(app).await
    }

    async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        self.handle().await?.epoch_batches(app).await
    }

    async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError> {
        self.handle().await?.seed_history(app, snapshots).await
    }

    async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError> {
        let (root, referenced) = self.handle().await?.table_files().await?;
        unreferenced(&root, &referenced).await
    }

    async fn location(&self) -> Result<TableLocation, SinkError> {
        let table = self.handle().await?.load().await?;
        Ok(TableLocation::Iceberg {
            catalog: self.catalog.kind,
            sqlite_file: self.catalog.sqlite_file(),
            uri: self.catalog.uri(),
            catalog_name: self.catalog.name(),
            namespace: self.ident.namespace().join("."),
            table: self.ident.name().to_string(),
            warehouse: self.catalog.warehouse(),
            metadata_file: table.metadata_location().map(str::to_string),
        })
    }

    async fn outages(&self, arm: Arm) -> Result<Vec<Box<dyn Outage>>, SinkError> {
        outage::of(self, arm)
    }
}

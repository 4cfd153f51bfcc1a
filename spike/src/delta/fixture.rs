//! [`TableDriver`] for a Delta table in a directory of its own: what the suite, `verdict`,
//! `stress` and the benchmarks do to it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use deltalake_core::DeltaTable;
use deltalake_core::kernel::{DataType, PrimitiveType, StructField};

use super::{DeltaSink, delta_error, table_url};
use crate::arms::Arm;
use crate::error::SinkError;
use crate::fixture::{Outage, TableDriver, TableLocation, WriterOptions};
use crate::hooks::Hooks;
use crate::leftovers::{LeftBehind, unreferenced};
use crate::sink::{AppId, CommitSink, Epoch};

/// A fresh Delta table in a directory of its own.
pub struct DeltaFixture {
    pub path: PathBuf,
}

#[async_trait]
impl TableDriver for DeltaFixture {
    /// `delta-plain` ignores the hooks: it has no check to report. The access options are
    /// for catalog servers; Delta's log is on the local file system.
    async fn writer(&self, arm: Arm, options: WriterOptions) -> Result<Box<dyn CommitSink>, SinkError> {
        let sink = match arm {
            Arm::DeltaPlain => DeltaSink::plain(&self.path)?,
            _ => self.sink(options.hooks)?,
        };
        Ok(Box::new(match options.counts {
            Some(counts) => sink.counting(counts),
            None => sink,
        }))
    }

    async fn writer_on_missing_table(&self, _arm: Arm) -> Result<Box<dyn CommitSink>, SinkError> {
        Ok(Box::new(DeltaSink::new(&self.path.with_file_name("no_such_table"), Hooks::default())?))
    }

    /// Checkpoints and deletes the commit files the checkpoint covers, as log retention does.
    async fn expire_history(&self) -> Result<usize, SinkError> {
        self.sink(Hooks::default())?.checkpoint_and_clean_log().await
    }

    async fn epoch_from_walk_alone(&self, _app: &AppId) -> Result<Option<Epoch>, SinkError> {
        Ok(None)
    }

    async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        self.sink(Hooks::default())?.epoch_history(app).await
    }

    async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        self.sink(Hooks::default())?.epoch_batches(app).await
    }

    /// One-row commits with a `txn`.
    async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError> {
        let sink = self.sink(Hooks::default())?;
        for n in 1..=snapshots {
            sink.commit(app, Epoch::new(n)?, crate::batch::batch(n as i64, 1, "history")).await?;
        }
        Ok(())
    }

    async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError> {
        let (root, referenced) = self.sink(Hooks::default())?.table_files().await?;
        unreferenced(&root, &referenced).await
    }

    async fn location(&self) -> Result<TableLocation, SinkError> {
        Ok(TableLocation::Delta { table_path: self.path.clone() })
    }

    async fn outages(&self, _arm: Arm) -> Result<Vec<Box<dyn Outage>>, SinkError> {
        Ok(vec![])
    }
}

impl DeltaFixture {
    pub async fn create(path: &Path) -> Result<Self, SinkError> {
        std::fs::create_dir_all(path).map_err(|e| SinkError::Delta(e.to_string()))?;
        DeltaTable::try_from_url(table_url(path)?)
            .await
            .map_err(delta_error)?
            .create()
            .with_columns([
                StructField::new("id", DataType::Primitive(PrimitiveType::Long), false),
                StructField::new("payload", DataType::Primitive(PrimitiveType::String), true),
            ])
            .await
            .map_err(delta_error)?;
        Ok(Self { path: path.to_path_buf() })
    }

    pub fn sink(&self, hooks: Hooks) -> Result<DeltaSink, SinkError> {
        DeltaSink::new(&self.path, hooks)
    }
}

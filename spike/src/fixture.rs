//! A fresh table for one target, and everything the suite, `verdict`, `stress` and the benchmarks
//! do to it. What differs between formats and builds is behind one trait, [`TableDriver`],
//! implemented once for Delta (`delta.rs`) and once for Iceberg (`iceberg/driver.rs`, compiled
//! against each build); the builds map arms to strategies in `stock.rs` and `patched.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use async_trait::async_trait;
use serde::Serialize;

use crate::arms::{Arm, Build, Target};
use crate::catalogs::{Access, CatalogKind};
use crate::delta::DeltaFixture;
use crate::error::SinkError;
use crate::hooks::{CallCounts, Hooks};
use crate::leftovers::LeftBehind;
use crate::peer::Pool;
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};
use crate::{patched, stock};

/// How a writer is opened: what it reports to, whether its round trips are counted, how it
/// reaches the catalog.
#[derive(Clone, Default)]
pub struct WriterOptions {
    pub hooks: Hooks,
    /// Iceberg catalog loads and updates; Delta table loads and attempts at the log's next
    /// version (its "catalog" is the log).
    pub counts: Option<Arc<CallCounts>>,
    pub access: Access,
}

impl WriterOptions {
    pub fn hooks(hooks: Hooks) -> Self {
        Self { hooks, ..Self::default() }
    }

    pub fn counting(counts: Arc<CallCounts>) -> Self {
        Self { counts: Some(counts), ..Self::default() }
    }

    pub fn with_access(self, access: Access) -> Self {
        Self { access, ..self }
    }
}

/// Where a fixture's table lives, for users who inspect it with other engines.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "format", rename_all = "lowercase")]
pub enum TableLocation {
    Delta {
        table_path: PathBuf,
    },
    Iceberg {
        catalog: CatalogKind,
        /// The SQLite catalog database, for `sqlite`.
        #[serde(skip_serializing_if = "Option::is_none")]
        sqlite_file: Option<PathBuf>,
        /// The REST catalog's address, for `rest`.
        #[serde(skip_serializing_if = "Option::is_none")]
        uri: Option<String>,
        catalog_name: String,
        namespace: String,
        table: String,
        warehouse: String,
        /// The current metadata file: the only handle on a `memory` table once the process exits.
        metadata_file: Option<String>,
    },
}

/// One way a table's catalog can be unavailable to a writer (`catalog_unavailable`).
#[async_trait]
pub trait Outage: Send + Sync {
    /// What goes wrong, in a few words.
    fn name(&self) -> &'static str;

    /// Whether `err` is the typed error a writer must get during this outage.
    fn expects(&self, err: &SinkError) -> bool;

    /// Offers `batch` as `epoch` of `app` while the catalog is unavailable, then again once the
    /// cause is gone (the same writer, where one could be opened at all).
    async fn commit_through(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<OutageOutcome, SinkError>;
}

pub struct OutageOutcome {
    pub during: Result<CommitOutcome, SinkError>,
    pub after: Result<CommitOutcome, SinkError>,
}

/// What the suite, `verdict`, `stress` and the benchmarks do to a table, whatever its format.
#[async_trait]
pub trait TableDriver: Send + Sync {
    /// A writer of `arm` of its own on the table.
    async fn writer(&self, arm: Arm, options: WriterOptions) -> Result<Box<dyn CommitSink>, SinkError>;

    /// A writer of `arm` pointed at a table that does not exist, next to this one.
    async fn writer_on_missing_table(&self, arm: Arm) -> Result<Box<dyn CommitSink>, SinkError>;

    /// Removes the history that carries the epochs, the way retention does; returns how many
    /// snapshots or log files went.
    async fn expire_history(&self) -> Result<usize, SinkError>;

    /// What the Iceberg ancestry walk alone finds for `app`, without the watermark property
    /// (`None` for Delta, which has no such walk).
    async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError>;

    /// Every epoch `app` committed to the table, one entry per commit (duplicates included).
    async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError>;

    /// Every commit of `app` on the table, oldest first: its epoch and the batch identities (the
    /// `payload` values) of the rows it added. What a stress run's outcome check reads.
    async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError>;

    /// Gives the table a history of `snapshots` commits of `app` (epochs 1..=snapshots).
    async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError>;

    /// Files under the table's location that no part of the table references.
    async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError>;

    async fn location(&self) -> Result<TableLocation, SinkError>;

    /// The ways this table's catalog can be unavailable to a writer of `arm`.
    async fn outages(&self, arm: Arm) -> Result<Vec<Box<dyn Outage>>, SinkError>;
}

/// A fresh table for one target, from which writers open their own sinks.
pub struct Fixture {
    pub target: Target,
    driver: Box<dyn TableDriver>,
    /// A peer's processes on the table: its writers (see [`crate::peer`]).
    peers: Option<Arc<Pool>>,
}

impl Fixture {
    /// Creates the target's table under `dir` (created if absent; it should be empty).
    pub async fn create(target: Target, dir: &Path) -> Result<Self, SinkError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| SinkError::CatalogUnavailable(format!("{}: {e}", dir.display())))?;
        let driver: Box<dyn TableDriver> = match (target.arm.build(), target.catalog) {
            (Some(Build::Stock), Some(kind)) => Box::new(stock::common::IcebergFixture::create(kind, dir).await?),
            (Some(Build::Patched), Some(kind)) => Box::new(patched::common::IcebergFixture::create(kind, dir).await?),
            _ => Box::new(DeltaFixture::create(&dir.join("delta")).await?),
        };
        let peers = match target.arm {
            Arm::Peer(peer) => Some(Pool::new(peer, driver.location().await?)),
            _ => None,
        };
        Ok(Self { target, driver, peers })
    }

    /// The target's table that another process created under `dir` (Delta, or Iceberg on a
    /// catalog several processes share).
    pub fn open(target: Target, dir: &Path) -> Self {
        let driver: Box<dyn TableDriver> = match (target.arm.build(), target.catalog) {
            (Some(Build::Stock), Some(kind)) => Box::new(stock::common::IcebergFixture::open(kind, dir)),
            (Some(Build::Patched), Some(kind)) => Box::new(patched::common::IcebergFixture::open(kind, dir)),
            _ => Box::new(DeltaFixture { path: dir.join("delta") }),
        };
        Self { target, driver, peers: None }
    }

    /// A writer of its own on the fixture's table, reporting to `hooks`.
    pub async fn writer(&self, hooks: Hooks) -> Result<Box<dyn CommitSink>, SinkError> {
        self.writer_with(WriterOptions::hooks(hooks)).await
    }

    /// A writer opened with `options` (a peer's: with its hooks only; it counts no round trips
    /// for the caller and reaches the catalog directly).
    pub async fn writer_with(&self, options: WriterOptions) -> Result<Box<dyn CommitSink>, SinkError> {
        match &self.peers {
            Some(pool) => Ok(Box::new(pool.writer(options.hooks).await?)),
            None => self.driver.writer(self.target.arm, options).await,
        }
    }

    /// A writer whose round trips are counted into `counts`.
    pub async fn counting_writer(&self, counts: Arc<CallCounts>) -> Result<Box<dyn CommitSink>, SinkError> {
        self.writer_with(WriterOptions::counting(counts)).await
    }

    pub async fn writer_on_missing_table(&self) -> Result<Box<dyn CommitSink>, SinkError> {
        match &self.peers {
            Some(pool) => Ok(Box::new(pool.writer_on_missing_table().await?)),
            None => self.driver.writer_on_missing_table(self.target.arm).await,
        }
    }

    pub async fn expire_history(&self) -> Result<usize, SinkError> {
        self.driver.expire_history().await
    }

    pub async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        self.driver.epoch_from_walk_alone(app).await
    }

    pub async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        self.driver.epoch_history(app).await
    }

    pub async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        self.driver.epoch_batches(app).await
    }

    pub async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError> {
        self.driver.seed_history(app, snapshots).await
    }

    /// Files the table's location holds that no part of the table references, with their
    /// sizes: what aborted and losing attempts left behind.
    pub async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError> {
        self.driver.left_behind().await
    }

    /// Where the table is, and (for `memory`) its current metadata file.
    pub async fn location(&self) -> Result<TableLocation, SinkError> {
        self.driver.location().await
    }

    pub async fn outages(&self) -> Result<Vec<Box<dyn Outage>>, SinkError> {
        self.driver.outages(self.target.arm).await
    }

    /// The catalog server's address, for targets on a catalog the fault proxy can sit in front of.
    pub fn proxied_server(&self) -> Option<String> {
        let profile = self.target.catalog?.profile();
        let server = profile.server.as_ref()?;
        profile.proxied.then(|| std::env::var(server.url).ok()).flatten()
    }
}

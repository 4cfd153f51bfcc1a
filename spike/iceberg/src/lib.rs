//! [`CommitSink`](barrier_sink::CommitSink) on iceberg-rust 0.10.1, the stock build and the
//! patched one, and on the stock 0.11.0, linked side by side, so that every arm on any build runs
//! in one process.
//!
//! The same code is compiled against each build ([`stock`], [`patched`], [`stock_011`]): one sink, one commit
//! body, and a [`CommitStrategy`](stock::CommitStrategy) per arm that supplies only what differs,
//! where the check runs and the extension point that carries it. [`Table`] is a table through
//! either build, for what a harness does besides committing; [`Connection`] is how to reach a
//! catalog. Its own crate because it is one of the two formats the seam is implemented for.

mod connection;
mod extension_points;
pub mod patched;
pub mod stock;
pub mod stock_011;
pub mod storage_io;

use std::collections::BTreeSet;
use std::sync::Arc;

use barrier_sink::{AppId, CallCounts, CommitSink, Epoch, Footprint, Hooks, SinkError};
pub use connection::{BindStyle, Connection, RestAuth, RestConnection, S3Access};
pub use extension_points::{
    ASSERT_REF_SNAPSHOT_ID, CATALOG_DECORATOR, EXTENSION_POINTS, TRANSACTION_ACTION, TRANSACTION_VALIDATOR,
    WITH_REBASE, WRITE_PATH_INTERNALS,
};

/// Which iceberg-rust an arm links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Build {
    /// 0.10.1 from crates.io.
    Stock,
    /// 0.10.1 from vendor/, with patches/ applied.
    Patched,
    /// 0.11.0 from vendor/, as PyPI's pyiceberg-core sdist ships it; the memory catalog only.
    Stock011,
}

impl Build {
    pub fn name(self) -> &'static str {
        match self {
            Build::Stock => "stock",
            Build::Patched => "patched",
            Build::Stock011 => "stock-0.11.0",
        }
    }

    /// The iceberg-rust release it links.
    pub fn version(self) -> &'static str {
        match self {
            Build::Stock | Build::Patched => "0.10.1",
            Build::Stock011 => "0.11.0",
        }
    }

    /// Whether it has catalog crates besides the memory catalog (0.11.0's sdist ships none).
    pub fn has_catalog_crates(self) -> bool {
        self != Build::Stock011
    }

    /// Whether this build's REST client sends an `Idempotency-Key` with a commit to a server that
    /// advertises a lifetime, and resends a commit whose answer it lost with the same key
    /// (`patches/rest/`).
    pub fn resends_with_idempotency_key(self) -> bool {
        self == Build::Patched
    }
}

/// What the current snapshot of a seeded history lists: the two shapes a long history can leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeadManifests {
    /// No manifest: the cheapest table a commit can meet, as close as a seed gets to one whose
    /// manifests are compacted. Every cost figure before 2026-12-06 was measured on it.
    #[default]
    Empty,
    /// One manifest per seeded snapshot, as iceberg-rust's fast append (which never merges
    /// manifests) leaves a table nothing compacts: whatever reads every manifest of the current
    /// snapshot (the duplicate-file check) then costs what it would on that history. Each holds one
    /// entry, a data file that snapshot removed (status `DELETED`, the file never written): decoded
    /// like a live one, and read by nothing that counts rows.
    OnePerSnapshot,
}

/// An arm's strategy on the build it runs on.
#[derive(Clone, Copy)]
pub enum Strategy {
    Stock(&'static dyn stock::CommitStrategy),
    Patched(&'static dyn patched::CommitStrategy),
    Stock011(&'static dyn stock_011::CommitStrategy),
}

impl Strategy {
    pub fn build(self) -> Build {
        match self {
            Strategy::Stock(_) => Build::Stock,
            Strategy::Patched(_) => Build::Patched,
            Strategy::Stock011(_) => Build::Stock011,
        }
    }

    pub fn footprint(self) -> Footprint {
        match self {
            Strategy::Stock(strategy) => strategy.footprint(),
            Strategy::Patched(strategy) => strategy.footprint(),
            Strategy::Stock011(strategy) => strategy.footprint(),
        }
    }

    /// Whether its commits record the app's watermark, and so look epochs up with this project's
    /// `committed_epoch` (every arm this project designed); a production sink reproduced here
    /// reads what its system reads instead.
    pub fn records_watermark(self) -> bool {
        match self {
            Strategy::Stock(strategy) => strategy.records_watermark(),
            Strategy::Patched(strategy) => strategy.records_watermark(),
            Strategy::Stock011(strategy) => strategy.records_watermark(),
        }
    }
}

/// An Iceberg table through one build. Cloning it shares its connection (for `memory`, the
/// catalog itself, which every writer of the table must share).
#[derive(Clone)]
pub enum Table {
    Stock(stock::IcebergTable),
    Patched(patched::IcebergTable),
    Stock011(stock_011::IcebergTable),
}

/// Runs the same expression on either build's table.
macro_rules! on_build {
    ($table:expr, $t:ident => $body:expr) => {
        match $table {
            Table::Stock($t) => $body,
            Table::Patched($t) => $body,
            Table::Stock011($t) => $body,
        }
    };
}

impl Table {
    /// Creates the namespace (if needed) and the experiment's table `name` in it.
    pub async fn create(
        build: Build,
        connection: &Connection,
        namespace: &str,
        name: &str,
    ) -> Result<Table, SinkError> {
        Ok(match build {
            Build::Stock => Table::Stock(stock::IcebergTable::create(connection, namespace, name).await?),
            Build::Patched => Table::Patched(patched::IcebergTable::create(connection, namespace, name).await?),
            Build::Stock011 => Table::Stock011(stock_011::IcebergTable::create(connection, namespace, name).await?),
        })
    }

    /// A new connection to the table `name` in `namespace`, which may or may not exist.
    pub async fn open(build: Build, connection: &Connection, namespace: &str, name: &str) -> Result<Table, SinkError> {
        Ok(match build {
            Build::Stock => Table::Stock(stock::IcebergTable::open(connection, namespace, name).await?),
            Build::Patched => Table::Patched(patched::IcebergTable::open(connection, namespace, name).await?),
            Build::Stock011 => Table::Stock011(stock_011::IcebergTable::open(connection, namespace, name).await?),
        })
    }

    pub fn build(&self) -> Build {
        match self {
            Table::Stock(_) => Build::Stock,
            Table::Patched(_) => Build::Patched,
            Table::Stock011(_) => Build::Stock011,
        }
    }

    /// The table `name` beside this one, on the same connection.
    pub fn named(&self, name: &str) -> Table {
        match self {
            Table::Stock(t) => Table::Stock(t.named(name)),
            Table::Patched(t) => Table::Patched(t.named(name)),
            Table::Stock011(t) => Table::Stock011(t.named(name)),
        }
    }

    /// A writer through `strategy` (which must run on this table's build), reporting to `hooks`,
    /// its round trips counted into `counts`.
    pub fn writer(
        &self,
        strategy: Strategy,
        hooks: Hooks,
        counts: Option<Arc<CallCounts>>,
    ) -> Result<Box<dyn CommitSink>, SinkError> {
        match (self, strategy) {
            (Table::Stock(t), Strategy::Stock(s)) => {
                Ok(Box::new(stock::IcebergSink::open(t.clone(), s, hooks, counts)))
            }
            (Table::Patched(t), Strategy::Patched(s)) => {
                Ok(Box::new(patched::IcebergSink::open(t.clone(), s, hooks, counts)))
            }
            (Table::Stock011(t), Strategy::Stock011(s)) => {
                Ok(Box::new(stock_011::IcebergSink::open(t.clone(), s, hooks, counts)))
            }
            _ => Err(SinkError::Iceberg(
                format!("a {} strategy on a {} table", strategy.build().name(), self.build().name()).into(),
            )),
        }
    }

    pub async fn metadata_location(&self) -> Result<Option<String>, SinkError> {
        on_build!(self, t => t.metadata_location().await)
    }

    /// Every epoch `app` committed on `main`, newest first, one entry per commit.
    pub async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        on_build!(self, t => t.epoch_history(app).await)
    }

    /// What the ancestry walk alone finds for `app`, without the watermark property.
    pub async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        on_build!(self, t => t.epoch_from_walk_alone(app).await)
    }

    /// Every commit of `app` on `main`, oldest first: its epoch and the batch identities (the
    /// `payload` values) of the rows it added.
    pub async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        on_build!(self, t => t.epoch_batches(app).await)
    }

    /// Gives the table `snapshots` more snapshots of `app` on `main`, in one pass.
    pub async fn seed_history(&self, app: &AppId, snapshots: u64, head: HeadManifests) -> Result<(), SinkError> {
        on_build!(self, t => t.seed_history(app, snapshots, head).await)
    }

    /// Expires every snapshot but the current one; returns how many it removed.
    /// Another writer rewrites the table's data (every live data file replaced by new files with
    /// the same rows, a `replace` snapshot with no epoch); `false` if it holds none. Published by
    /// registering the next metadata file on the stock builds, through the library's commit on
    /// the patched one (`common/rewrite.rs`).
    pub async fn rewrite_data(&self) -> Result<bool, SinkError> {
        on_build!(self, t => t.rewrite_data().await)
    }

    pub async fn expire_all_but_current(&self) -> Result<usize, SinkError> {
        on_build!(self, t => t.expire_all_but_current().await)
    }

    /// The catalog's own answer to a snapshot id the table already has (patched build only:
    /// the commit is a `TransactionAction`, patch 1).
    pub async fn offer_current_snapshot_again(&self) -> Result<patched::DuplicateIdAnswer, SinkError> {
        match self {
            Table::Patched(t) => t.offer_current_snapshot_again().await,
            _ => Err(SinkError::Iceberg(format!("{} cannot send a snapshot of its own", self.build().name()).into())),
        }
    }

    /// The table's location, and every file under it that its current metadata reaches.
    pub async fn table_files(&self) -> Result<(String, BTreeSet<String>), SinkError> {
        on_build!(self, t => t.table_files().await)
    }
}

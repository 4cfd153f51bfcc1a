//! The matrix: every arm, on every catalog it runs on, and a fresh table for each.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::delta::DeltaFixture;
use crate::error::SinkError;
use crate::hooks::{CallCounts, Hooks};
use crate::leftovers::{LeftBehind, unreferenced};
use crate::sink::{AppId, CommitSink, Epoch};
use crate::{patched, stock};

/// The Iceberg catalogs every Iceberg arm runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CatalogKind {
    /// The in-process `MemoryCatalog`: one mutex around every operation.
    Memory,
    /// `iceberg-catalog-sql` on a SQLite file: a compare-and-swap in the database, usable from
    /// several processes.
    Sqlite,
    /// `iceberg-catalog-sql` on the PostgreSQL server at `$BARRIER_POSTGRES_URL`: what writers on
    /// many machines would share. Not an embedded default; `stress --catalog postgres` uses it.
    Postgres,
}

impl CatalogKind {
    /// The embedded defaults every Iceberg arm of the suite and `verdict` runs on.
    pub const ALL: [CatalogKind; 2] = [CatalogKind::Memory, CatalogKind::Sqlite];

    pub fn name(self) -> &'static str {
        match self {
            CatalogKind::Memory => "memory",
            CatalogKind::Sqlite => "sqlite",
            CatalogKind::Postgres => "postgres",
        }
    }
}

/// Which iceberg-rust the arm links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Build {
    /// 0.10.1 from crates.io.
    Stock,
    /// 0.10.1 from vendor/, with patches/ applied.
    Patched,
}

impl Build {
    pub fn name(self) -> &'static str {
        match self {
            Build::Stock => "stock",
            Build::Patched => "patched",
        }
    }
}

/// One way of making the commit conditional, or (the floors) of not making it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arm {
    Delta,
    IcebergNaive(Build),
    IcebergCatalogGuard,
    IcebergAction,
    IcebergRequirement,
    IcebergValidator,
    /// Benchmarks' floor: Delta's append without a `txn` action or a check.
    DeltaPlain,
    /// Benchmarks' floor: a stock fast append with no check at all.
    IcebergUnguarded,
}

impl Arm {
    pub const ALL: [Arm; 7] = [
        Arm::Delta,
        Arm::IcebergNaive(Build::Stock),
        Arm::IcebergCatalogGuard,
        Arm::IcebergAction,
        Arm::IcebergRequirement,
        Arm::IcebergValidator,
        Arm::IcebergNaive(Build::Patched),
    ];

    /// The floors the benchmarks measure the arms against; not part of the suite.
    pub const FLOORS: [Arm; 2] = [Arm::DeltaPlain, Arm::IcebergUnguarded];

    pub fn name(self) -> &'static str {
        match self {
            Arm::Delta => "delta",
            Arm::DeltaPlain => "delta-plain",
            Arm::IcebergUnguarded => "iceberg-unguarded",
            Arm::IcebergNaive(_) => "iceberg-naive",
            Arm::IcebergCatalogGuard => "iceberg-catalog-guard",
            Arm::IcebergAction => "iceberg-action",
            Arm::IcebergRequirement => "iceberg-requirement",
            Arm::IcebergValidator => "iceberg-validator",
        }
    }

    /// `None` for Delta, which is not iceberg-rust.
    pub fn build(self) -> Option<Build> {
        match self {
            Arm::Delta | Arm::DeltaPlain => None,
            Arm::IcebergNaive(build) => Some(build),
            Arm::IcebergCatalogGuard | Arm::IcebergUnguarded => Some(Build::Stock),
            Arm::IcebergAction | Arm::IcebergRequirement | Arm::IcebergValidator => Some(Build::Patched),
        }
    }

    /// The failpoints a commit of this arm passes, in order (see [`crate::hooks::failpoints`]).
    pub fn failpoints(self) -> &'static [&'static str] {
        match self.build() {
            None => &crate::hooks::failpoints::DELTA,
            Some(_) => &crate::hooks::failpoints::ICEBERG,
        }
    }

    /// Whether the arm claims at most one commit per `(app, epoch)` under races. The suite holds
    /// every arm to its claim, and holds `iceberg-naive` to the duplicate it is known to make.
    pub fn claims_exactly_once(self) -> bool {
        !matches!(self, Arm::IcebergNaive(_) | Arm::DeltaPlain | Arm::IcebergUnguarded)
    }
}

/// The arm's name on the command line: the suite's name, with `@patched` for the patched
/// build's `iceberg-naive`.
pub fn arm_label(arm: Arm) -> String {
    match arm {
        Arm::IcebergNaive(Build::Patched) => format!("{}@patched", arm.name()),
        _ => arm.name().to_string(),
    }
}

/// The arm named `label` (see [`arm_label`]), among the suite's arms and the floors.
pub fn arm_named(label: &str) -> Option<Arm> {
    Arm::ALL.into_iter().chain(Arm::FLOORS).find(|arm| arm_label(*arm) == label)
}

/// One arm on one catalog (Delta runs on the local filesystem, with no catalog).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub arm: Arm,
    pub catalog: Option<CatalogKind>,
}

impl Target {
    /// Every target, in the order the matrix prints them.
    pub fn all() -> Vec<Target> {
        Arm::ALL
            .into_iter()
            .flat_map(Target::of)
            .collect()
    }

    /// The arm on every catalog it runs on.
    pub fn of(arm: Arm) -> Vec<Target> {
        match arm.build() {
            None => vec![Target { arm, catalog: None }],
            Some(_) => CatalogKind::ALL
                .into_iter()
                .map(|c| Target { arm, catalog: Some(c) })
                .collect(),
        }
    }

    pub fn catalog_name(self) -> &'static str {
        self.catalog.map_or("local-fs", CatalogKind::name)
    }

    pub fn build_name(self) -> &'static str {
        self.arm.build().map_or("deltalake-core 0.32.4", Build::name)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.arm.build() {
            None => write!(f, "{}", self.arm.name()),
            Some(build) => write!(f, "{}/{}/{}", self.arm.name(), build.name(), self.catalog_name()),
        }
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
        catalog_name: String,
        namespace: String,
        table: String,
        warehouse: String,
        /// The current metadata file: the only handle on a `memory` table once the process exits.
        metadata_file: Option<String>,
    },
}

enum Table {
    Delta(DeltaFixture),
    Stock(stock::common::IcebergFixture),
    Patched(patched::common::IcebergFixture),
}

/// A fresh table for one target, from which writers open their own sinks.
pub struct Fixture {
    pub target: Target,
    dir: PathBuf,
    table: Table,
}

impl Fixture {
    /// Creates the target's table under `dir` (created if absent; it should be empty).
    pub async fn create(target: Target, dir: &Path) -> Result<Self, SinkError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| SinkError::CatalogUnavailable(format!("{}: {e}", dir.display())))?;
        let table = match (target.arm.build(), target.catalog) {
            (None, _) => Table::Delta(DeltaFixture::create(&dir.join("delta")).await?),
            (Some(Build::Stock), Some(kind)) => Table::Stock(
                stock::common::IcebergFixture::create(
                    stock::common::IcebergCatalog { kind, dir: dir.to_path_buf() },
                    "events",
                )
                .await?,
            ),
            (Some(Build::Patched), Some(kind)) => Table::Patched(
                patched::common::IcebergFixture::create(
                    patched::common::IcebergCatalog { kind, dir: dir.to_path_buf() },
                    "events",
                )
                .await?,
            ),
            (Some(_), None) => unreachable!("Target::all gives every Iceberg arm a catalog"),
        };
        Ok(Self {
            target,
            dir: dir.to_path_buf(),
            table,
        })
    }

    /// The target's table that another process created under `dir` (Delta, or Iceberg on `sqlite`).
    pub async fn open(target: Target, dir: &Path) -> Result<Self, SinkError> {
        let table = match (target.arm.build(), target.catalog) {
            (None, _) => Table::Delta(DeltaFixture { path: dir.join("delta") }),
            (Some(Build::Stock), Some(kind)) => Table::Stock(stock::common::IcebergFixture::open(
                stock::common::IcebergCatalog { kind, dir: dir.to_path_buf() },
                "events",
            )),
            (Some(Build::Patched), Some(kind)) => Table::Patched(patched::common::IcebergFixture::open(
                patched::common::IcebergCatalog { kind, dir: dir.to_path_buf() },
                "events",
            )),
            (Some(_), None) => unreachable!("Target::all gives every Iceberg arm a catalog"),
        };
        Ok(Self {
            target,
            dir: dir.to_path_buf(),
            table,
        })
    }

    /// Removes the history that carries the epochs, the way retention does: Iceberg expires every
    /// snapshot but the current one; Delta checkpoints and deletes the commit files the checkpoint
    /// covers. Returns how many snapshots or files went.
    pub async fn expire_history(&self) -> Result<usize, SinkError> {
        match &self.table {
            Table::Delta(fixture) => fixture.sink(Hooks::default())?.checkpoint_and_clean_log().await,
            Table::Stock(fixture) => fixture.handle().await?.expire_all_but_current().await,
            Table::Patched(fixture) => fixture.handle().await?.expire_all_but_current().await,
        }
    }

    /// What the Iceberg ancestry walk alone finds for `app`, without the watermark property
    /// (`None` for Delta, which has no such walk).
    pub async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        match &self.table {
            Table::Delta(_) => Ok(None),
            Table::Stock(fixture) => {
                stock::common::committed_epoch_on_main(fixture.handle().await?.load().await?.metadata(), app)
            }
            Table::Patched(fixture) => {
                patched::common::committed_epoch_on_main(fixture.handle().await?.load().await?.metadata(), app)
            }
        }
    }

    /// Every epoch `app` committed to the table, one entry per commit (duplicates included).
    pub async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        match &self.table {
            Table::Delta(fixture) => fixture.sink(Hooks::default())?.epoch_history(app).await,
            Table::Stock(fixture) => fixture.handle().await?.epoch_history(app).await,
            Table::Patched(fixture) => fixture.handle().await?.epoch_history(app).await,
        }
    }

    /// A writer of its own on the fixture's table, reporting to `hooks`.
    pub async fn writer(&self, hooks: Hooks) -> Result<Box<dyn CommitSink>, SinkError> {
        Ok(match &self.table {
            Table::Delta(fixture) => Box::new(self.delta_sink(fixture, hooks)?),
            Table::Stock(fixture) => self.stock_sink(fixture.handle().await?, hooks),
            Table::Patched(fixture) => self.patched_sink(fixture.handle().await?, hooks),
        })
    }

    /// `delta-plain` ignores `hooks`: it has no check to report.
    fn delta_sink(&self, fixture: &DeltaFixture, hooks: Hooks) -> Result<crate::delta::DeltaSink, SinkError> {
        match self.target.arm {
            Arm::DeltaPlain => crate::delta::DeltaSink::plain(&fixture.path),
            _ => fixture.sink(hooks),
        }
    }

    /// A writer whose round trips are counted into `counts`: Iceberg catalog loads and updates;
    /// Delta table loads and attempts at the log's next version (its "catalog" is the log).
    pub async fn counting_writer(&self, counts: Arc<CallCounts>) -> Result<Box<dyn CommitSink>, SinkError> {
        Ok(match &self.table {
            Table::Delta(fixture) => Box::new(self.delta_sink(fixture, Hooks::default())?.counting(counts)),
            Table::Stock(fixture) => {
                let mut table = fixture.handle().await?;
                table.catalog = Arc::new(stock::common::CommitCatalog::counting(table.catalog, counts));
                self.stock_sink(table, Hooks::default())
            }
            Table::Patched(fixture) => {
                let mut table = fixture.handle().await?;
                table.catalog = Arc::new(patched::common::CommitCatalog::counting(table.catalog, counts));
                self.patched_sink(table, Hooks::default())
            }
        })
    }

    /// Gives the table a history of `snapshots` commits of `app` (epochs 1..=snapshots): for
    /// Iceberg, appends carrying only the epoch; for Delta, one-row commits with a `txn`.
    pub async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError> {
        match &self.table {
            Table::Delta(fixture) => {
                let sink = fixture.sink(Hooks::default())?;
                for n in 1..=snapshots {
                    sink.commit(app, Epoch::new(n)?, crate::batch::batch(n as i64, 1, "history"))
                        .await?;
                }
                Ok(())
            }
            Table::Stock(fixture) => fixture.handle().await?.seed_history(app, 1..snapshots + 1).await,
            Table::Patched(fixture) => fixture.handle().await?.seed_history(app, 1..snapshots + 1).await,
        }
    }

    /// A writer pointed at a table that does not exist, next to the fixture's.
    pub async fn writer_on_missing_table(&self) -> Result<Box<dyn CommitSink>, SinkError> {
        Ok(match &self.table {
            Table::Delta(fixture) => Box::new(crate::delta::DeltaSink::new(
                &fixture.path.with_file_name("no_such_table"),
                Hooks::default(),
            )?),
            Table::Stock(fixture) => self.stock_sink(fixture.missing().await?, Hooks::default()),
            Table::Patched(fixture) => self.patched_sink(fixture.missing().await?, Hooks::default()),
        })
    }

    fn stock_sink(&self, table: stock::common::IcebergTable, hooks: Hooks) -> Box<dyn CommitSink> {
        use stock::common::{IcebergSink, Naive};
        match self.target.arm {
            Arm::IcebergNaive(_) => Box::new(IcebergSink::new(table, hooks, Naive)),
            Arm::IcebergCatalogGuard => Box::new(IcebergSink::new(table, hooks, stock::CatalogGuard)),
            Arm::IcebergUnguarded => Box::new(IcebergSink::new(table, hooks, stock::common::Unguarded)),
            other => unreachable!("{} is not a stock arm", other.name()),
        }
    }

    fn patched_sink(&self, table: patched::common::IcebergTable, hooks: Hooks) -> Box<dyn CommitSink> {
        use patched::common::{IcebergSink, Naive};
        match self.target.arm {
            Arm::IcebergNaive(_) => Box::new(IcebergSink::new(table, hooks, Naive)),
            Arm::IcebergAction => Box::new(IcebergSink::new(table, hooks, patched::Action)),
            Arm::IcebergRequirement => Box::new(IcebergSink::new(table, hooks, patched::Requirement)),
            Arm::IcebergValidator => Box::new(IcebergSink::new(table, hooks, patched::Validator)),
            other => unreachable!("{} is not a patched arm", other.name()),
        }
    }

    /// Opens the fixture's kind of catalog where its file cannot be created (`sqlite` only).
    pub async fn open_unreachable_catalog(&self) -> Result<(), SinkError> {
        let dir = self.dir.join("no-such-dir").join("deeper");
        match (&self.table, self.target.catalog) {
            (Table::Stock(_), Some(kind)) => stock::common::IcebergCatalog { kind, dir }.open().await.map(drop),
            (Table::Patched(_), Some(kind)) => patched::common::IcebergCatalog { kind, dir }.open().await.map(drop),
            _ => Ok(()),
        }
    }

    /// Files in the table's directory that no part of the table references, with their sizes:
    /// what aborted and losing attempts left behind.
    pub async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError> {
        let (root, referenced) = match &self.table {
            Table::Delta(fixture) => fixture.sink(Hooks::default())?.table_files().await?,
            Table::Stock(fixture) => fixture.handle().await?.table_files().await?,
            Table::Patched(fixture) => fixture.handle().await?.table_files().await?,
        };
        unreferenced(&root, &referenced)
    }

    /// The SQLite catalog file, for targets on `sqlite`.
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        match &self.table {
            Table::Delta(_) => None,
            Table::Stock(fixture) => fixture.catalog.sqlite_file(),
            Table::Patched(fixture) => fixture.catalog.sqlite_file(),
        }
    }

    /// Where the table is, and (for `memory`) its current metadata file.
    pub async fn location(&self) -> Result<TableLocation, SinkError> {
        macro_rules! iceberg_location {
            ($fixture:expr) => {{
                let fixture = $fixture;
                let table = fixture.handle().await?.load().await?;
                TableLocation::Iceberg {
                    catalog: fixture.catalog.kind,
                    sqlite_file: fixture.catalog.sqlite_file(),
                    catalog_name: fixture.catalog.name(),
                    namespace: fixture.ident.namespace().join("."),
                    table: fixture.ident.name().to_string(),
                    warehouse: fixture.catalog.warehouse(),
                    metadata_file: table.metadata_location().map(str::to_string),
                }
            }};
        }
        Ok(match &self.table {
            Table::Delta(fixture) => TableLocation::Delta {
                table_path: fixture.path.clone(),
            },
            Table::Stock(fixture) => iceberg_location!(fixture),
            Table::Patched(fixture) => iceberg_location!(fixture),
        })
    }
}

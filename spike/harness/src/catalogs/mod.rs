//! The Iceberg catalogs an arm can commit through, and what each one is: one registry entry per
//! kind, its facts and how a writer connects in a module of its own (`memory.rs`, `sqlite.rs`,
//! `postgresql.rs`, `rest.rs`, `rest_rustberg.rs`, `rest_fixture.rs`), read by the fixtures, the suite, `verdict`, `stress` and the tests.

mod memory;
mod postgresql;
mod rest;
mod rest_fixture;
mod rest_rustberg;
mod sqlite;

use std::path::{Path, PathBuf};
use std::time::Duration;

use barrier_iceberg::{Build, Connection};
use barrier_sink::{Failpoint, Located, SinkError};
use uuid::Uuid;

use crate::registry::registry;

registry! {
    /// The catalogs. Delta has none: its log on the file system is its own catalog.
    pub enum CatalogKind: Profile {
        /// The in-process `MemoryCatalog`: one mutex around every operation.
        Memory => memory::PROFILE,
        /// `iceberg-catalog-sql` on a SQLite file: a compare-and-swap in the database, usable from
        /// several processes.
        Sqlite => sqlite::PROFILE,
        /// `iceberg-catalog-sql` on the PostgreSQL server at `$BARRIER_POSTGRES_URL`: what writers
        /// on many machines would share.
        Postgres => postgresql::PROFILE,
        /// `iceberg-catalog-rest` against the Iceberg REST server at `$BARRIER_REST_URL`, data on
        /// its S3 endpoint: the server checks each commit's requirements and writes the metadata file.
        Rest => rest::PROFILE,
        /// `iceberg-catalog-rest` against the Rustberg server at `$BARRIER_RUSTBERG_URL`, a second
        /// REST server with its own requirement checks and `Idempotency-Key` support; data on the
        /// same S3 endpoint as `rest`'s.
        Rustberg => rest_rustberg::PROFILE,
        /// `iceberg-catalog-rest` against apache/iceberg's REST fixture at
        /// `$BARRIER_REST_FIXTURE_URL`: Iceberg Java's own server-side commit (1.11.0), data on the
        /// same S3 endpoint.
        RestFixture => rest_fixture::PROFILE,
    }
}

/// What the registry says of a catalog kind: where it keeps its state, from which every
/// capability the rest of the project asks of it follows ([`CatalogKind`]'s methods), and how a
/// writer connects.
pub struct Profile {
    pub name: &'static str,
    pub home: Home,
    /// How a writer of the fixture at `place` reaches the catalog, the way `access` says.
    pub connect: fn(place: &Place, access: &Access) -> Result<Connection, SinkError>,
}

/// Where a catalog keeps its state.
pub enum Home {
    /// This process's memory: one fixture's writers share it, no other process can.
    InProcess,
    /// A file in the fixture's directory, which any process opens (and another can lock).
    File(fn(place: &Place) -> PathBuf),
    /// A SQL server a project script starts; fixtures share it under catalog names of their own.
    SqlServer(Server),
    /// An Iceberg REST server a project script starts, its data on S3: the server checks each
    /// commit's requirements and writes the metadata file inside the commit request. Fixtures share
    /// it in namespaces of their own.
    RestServer(RestServer),
}

/// An Iceberg REST server of the project's.
pub struct RestServer {
    pub server: Server,
    /// It advertises an `idempotency-key-lifetime` and answers a resent request with the answer
    /// it stored (held to the server by the contract's `idempotency_key_resend`, `tests/contract/http.rs`).
    pub idempotency_keys: bool,
    /// It refuses a client with a wrong credential (one of `catalog_unavailable`'s outages).
    pub authenticates: bool,
}

/// How a catalog can be made unavailable to a writer, so that `catalog_unavailable` can show a
/// typed error that commits nothing and a commit once the catalog is back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outages {
    /// In-process: there is nothing to lose.
    None,
    /// A file: a path that cannot be created, and another process's `BEGIN EXCLUSIVE` lock.
    SqliteFile,
    /// A SQL server: one the writer cannot reach (nobody listens at its address).
    SqlServer,
    /// A server behind the fault proxy: the proxy stopped (the server down, seen from the
    /// writer), a writer with wrong storage credentials, and (a server that `authenticates`) one
    /// with wrong catalog credentials.
    Server { authenticates: bool },
}

/// A catalog server the project's own scripts start on loopback.
pub struct Server {
    /// The variable the script exports with the server's address once it is up.
    pub url: &'static str,
    /// The script's name under `scripts/`.
    pub script: &'static str,
    /// The variable the script exports with its own path, for `stress`'s server faults
    /// (`<script> kill`, `<script> resume`).
    pub control: &'static str,
    /// The variable naming the directory the script keeps the server's data, port and process
    /// in: set, it starts (and kills, and stops) a server of that directory's own.
    pub data: &'static str,
}

/// The kind of client a writer reaches a catalog with: what makes one catalog's cells run other
/// code than another's (the same client on another store or server runs the same sink code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    /// The in-process catalog's own calls.
    InProcess,
    /// A SQL catalog crate on a database (a file or a server).
    Sql,
    /// A REST catalog client against a server.
    Rest,
}

impl CatalogKind {
    /// The kind of client a writer reaches it with.
    pub fn client(self) -> Client {
        match self.spec().home {
            Home::InProcess => Client::InProcess,
            Home::File(_) | Home::SqlServer(_) => Client::Sql,
            Home::RestServer(_) => Client::Rest,
        }
    }

    /// The embedded defaults every Iceberg arm of `verdict` runs on: the catalogs that need no
    /// server.
    pub fn embedded() -> Vec<CatalogKind> {
        CatalogKind::ALL.iter().copied().filter(|c| c.server().is_none()).collect()
    }

    /// Processes other than the one that created a table can commit to it (`stress`).
    pub fn shared(self) -> bool {
        !matches!(self.spec().home, Home::InProcess)
    }

    /// The server the catalog needs, if any.
    pub fn server(self) -> Option<&'static Server> {
        match &self.spec().home {
            Home::InProcess | Home::File(_) => None,
            Home::SqlServer(server) | Home::RestServer(RestServer { server, .. }) => Some(server),
        }
    }

    /// The server speaks the Iceberg REST protocol (the contract's `spike/lab/tests/contract/http.rs`
    /// probes it), and the fault proxy can sit between a writer and it (`lost_response`).
    pub fn speaks_rest(self) -> bool {
        matches!(self.spec().home, Home::RestServer(_))
    }

    /// The server stores a commit's answer under its `Idempotency-Key` ([`Home::RestServer`]).
    pub fn idempotency_keys(self) -> bool {
        matches!(self.spec().home, Home::RestServer(RestServer { idempotency_keys: true, .. }))
    }

    /// The commit failpoints a writer of this catalog passes, in order. On a REST catalog the
    /// server writes the new metadata file inside the commit request, so
    /// `barrier.after-metadata-file` is not in this process; the fault proxy's lost responses
    /// take its place (`lost_response`).
    pub fn failpoints(self) -> &'static [Failpoint] {
        const REST: &[Failpoint] = &[Failpoint::AfterDataFiles, Failpoint::BeforeSwap, Failpoint::AfterSwap];
        if self.speaks_rest() { REST } else { &Failpoint::ALL }
    }

    /// How the catalog can be made unavailable to one writer (`catalog_unavailable`). A SQL
    /// server only as unreachable: the fault proxy forwards HTTP only, so a server that stops
    /// answering mid-commit is `stress`'s server kills, not a forced outage.
    pub fn outages(self) -> Outages {
        match self.spec().home {
            Home::InProcess => Outages::None,
            Home::SqlServer(_) => Outages::SqlServer,
            Home::File(_) => Outages::SqliteFile,
            Home::RestServer(RestServer { authenticates, .. }) => Outages::Server { authenticates },
        }
    }

    /// Whether a writer on `build` resends a lost commit with its `Idempotency-Key` here, and the
    /// server honours the key: the patched build's REST client on a catalog that advertises keys.
    pub fn resends_with_idempotency_key(self, build: Build) -> bool {
        self.idempotency_keys() && build.resends_with_idempotency_key()
    }

    /// Whether `build` has a catalog crate for it: every build has the memory catalog, and 0.11.0
    /// nothing else.
    pub fn reached_by(self, build: Build) -> bool {
        self == CatalogKind::Memory || build.has_catalog_crates()
    }

    /// The server's address, if the catalog has a server and it runs.
    pub fn server_url(self) -> Option<String> {
        std::env::var(self.server()?.url).ok()
    }

    /// Why this catalog cannot be used in this process, if it cannot: its server's variable is
    /// unset (the variable `<VAR>_UNAVAILABLE`, which the scripts set when a server did not
    /// start, says why).
    pub fn unavailable(self) -> Option<String> {
        let Server { url, script, .. } = self.server()?;
        if std::env::var_os(url).is_some() {
            return None;
        }
        Some(std::env::var(format!("{url}_UNAVAILABLE")).unwrap_or_else(|_| {
            format!("{url} is not set; `eval \"$(scripts/{script} start)\"` starts a server (the test command does)")
        }))
    }
}

/// How one writer reaches a catalog server, where it should not be the usual way: tests put the
/// fault proxy in front of it, shorten its timeout, or give it wrong credentials. Embedded
/// catalogs ignore it.
#[derive(Clone, Debug, Default)]
pub struct Access {
    /// The catalog's API at another address (the fault proxy's; for a SQL server, its URL).
    pub uri: Option<String>,
    /// The HTTP client's timeout per request, instead of [`REST_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// A catalog credential (`id:secret`, or a token) to present instead of the right one.
    pub catalog_credential: Option<String>,
    /// An S3 secret key to sign storage requests with instead of the right one.
    pub storage_secret: Option<String>,
}

/// A REST writer's HTTP timeout per request. iceberg-catalog-rest sets none, so a response lost
/// without a reset would hang a writer for ever; a writer must choose one.
pub const REST_TIMEOUT: Duration = Duration::from_secs(30);

/// The name every fixture's catalog has, unless its kind scopes it.
const CATALOG_NAME: &str = "barrier";
/// The namespace every fixture's table is in, except on a REST server.
const NAMESPACE: &str = "barrier";
/// The file in a fixture's directory that records its scope on a shared server.
const SCOPE_FILE: &str = "catalog-scope";

/// Where one fixture's catalog is: its kind, the directory the fixture keeps its files in, and
/// what makes its names on a shared server its own.
#[derive(Clone, Debug)]
pub struct Place {
    pub kind: CatalogKind,
    pub dir: PathBuf,
    scope: String,
}

impl Place {
    /// The catalog of the fixture under `dir`, as any process opens it.
    pub fn of(kind: CatalogKind, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let scope = std::fs::read_to_string(dir.join(SCOPE_FILE)).unwrap_or_default();
        Self { kind, dir, scope: scope.trim().to_string() }
    }

    /// The catalog of a fixture about to be created under `dir`. On a shared server its names
    /// get a scope of their own, recorded in `dir` for the processes that open the fixture later:
    /// a directory used again (a second `--keep` run) must not find the last run's tables.
    pub fn fresh(kind: CatalogKind, dir: &Path) -> Result<Self, SinkError> {
        if kind.server().is_some() {
            let scope = Uuid::new_v4().simple().to_string()[..16].to_string();
            std::fs::write(dir.join(SCOPE_FILE), &scope)
                .map_err(|e| SinkError::CatalogUnavailable(Located::boxed(dir.display(), e)))?;
        }
        Ok(Self::of(kind, dir))
    }

    /// `prefix` made this fixture's own.
    fn scoped(&self, prefix: &str, separator: char) -> String {
        format!("{prefix}{separator}{}", self.scope)
    }

    /// The namespace the fixture's table is in: on a REST server, one of the fixture's own.
    pub fn namespace(&self) -> String {
        if self.kind.speaks_rest() { self.scoped(NAMESPACE, '_') } else { NAMESPACE.to_string() }
    }

    /// The warehouse in the fixture's directory, for catalogs whose data is on the local file system.
    fn local_warehouse(&self) -> String {
        format!("file://{}", self.dir.join("warehouse").display())
    }

    /// The file the catalog is, if it is one.
    pub fn file(&self) -> Option<PathBuf> {
        match self.kind.spec().home {
            Home::File(file) => Some(file(self)),
            _ => None,
        }
    }

    /// How a writer reaches the catalog, the way `access` says.
    pub fn connection(&self, access: &Access) -> Result<Connection, SinkError> {
        (self.kind.spec().connect)(self, access)
    }
}

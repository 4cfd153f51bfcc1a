//! The Iceberg catalogs an arm can commit through, and what each one is: one table of facts, read
//! by the suite, `verdict`, `stress` and the tests, so that adding a catalog means one variant, one
//! row here and its `open` in `iceberg/catalog.rs`.

use std::time::Duration;

use serde::Serialize;

use crate::hooks::failpoints;

/// The catalogs. Delta has none: its log on the file system is its own catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CatalogKind {
    /// The in-process `MemoryCatalog`: one mutex around every operation.
    Memory,
    /// `iceberg-catalog-sql` on a SQLite file: a compare-and-swap in the database, usable from
    /// several processes.
    Sqlite,
    /// `iceberg-catalog-sql` on the PostgreSQL server at `$BARRIER_POSTGRES_URL`: what writers on
    /// many machines would share.
    Postgres,
    /// `iceberg-catalog-rest` against the Iceberg REST server at `$BARRIER_REST_URL`, data on its
    /// S3 endpoint: the server checks each commit's requirements and writes the metadata file.
    Rest,
}

/// How a catalog can be made unavailable to a writer, so that `catalog_unavailable` can show a
/// typed error that commits nothing and a commit once the catalog is back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outages {
    /// In-process: there is nothing to lose.
    None,
    /// A file: a path that cannot be created, and another process's `BEGIN EXCLUSIVE` lock.
    SqliteFile,
    /// A server behind the fault proxy: the proxy stopped (the server down, seen from the
    /// writer), and a writer with wrong catalog credentials or wrong storage credentials.
    Server,
}

/// A catalog server the project's own scripts start on loopback.
pub struct Server {
    /// The variable the script exports with the server's address once it is up.
    pub url: &'static str,
    pub script: &'static str,
    /// The variable the script exports with its own path, for `stress`'s server faults
    /// (`<script> kill`, `<script> resume`).
    pub control: &'static str,
}

/// What the rest of the project needs to know about a catalog kind.
pub struct Profile {
    pub kind: CatalogKind,
    pub name: &'static str,
    /// One of the embedded defaults every Iceberg arm of the suite and `verdict` runs on.
    pub embedded: bool,
    /// Processes other than the one that created a table can commit to it (`stress`).
    pub shared: bool,
    /// The server the catalog needs, if any.
    pub server: Option<Server>,
    /// The commit failpoints a writer of this catalog passes, in order. On a REST catalog the
    /// server writes the new metadata file inside the commit request, so
    /// `barrier.after-metadata-file` is not in this process; the fault proxy's lost responses
    /// take its place (`lost_response`).
    pub failpoints: &'static [&'static str],
    pub outages: Outages,
    /// The fault proxy can sit between a writer and this catalog (`lost_response`).
    pub proxied: bool,
}

const LOCAL_FAILPOINTS: &[&str] = &failpoints::ICEBERG;
const REST_FAILPOINTS: &[&str] = &[failpoints::AFTER_DATA_FILES, failpoints::BEFORE_SWAP, failpoints::AFTER_SWAP];

pub const PROFILES: [Profile; 4] = [
    Profile {
        kind: CatalogKind::Memory,
        name: "memory",
        embedded: true,
        shared: false,
        server: None,
        failpoints: LOCAL_FAILPOINTS,
        outages: Outages::None,
        proxied: false,
    },
    Profile {
        kind: CatalogKind::Sqlite,
        name: "sqlite",
        embedded: true,
        shared: true,
        server: None,
        failpoints: LOCAL_FAILPOINTS,
        outages: Outages::SqliteFile,
        proxied: false,
    },
    Profile {
        kind: CatalogKind::Postgres,
        name: "postgres",
        embedded: false,
        shared: true,
        server: Some(Server { url: "BARRIER_POSTGRES_URL", script: "scripts/postgres", control: "BARRIER_POSTGRES_CTL" }),
        failpoints: LOCAL_FAILPOINTS,
        outages: Outages::None,
        proxied: false,
    },
    Profile {
        kind: CatalogKind::Rest,
        name: "rest",
        embedded: false,
        shared: true,
        server: Some(Server { url: "BARRIER_REST_URL", script: "scripts/seaweedfs", control: "BARRIER_SEAWEEDFS_CTL" }),
        failpoints: REST_FAILPOINTS,
        outages: Outages::Server,
        proxied: true,
    },
];

impl CatalogKind {
    /// The embedded defaults every Iceberg arm of the suite and `verdict` runs on.
    pub const ALL: [CatalogKind; 2] = [CatalogKind::Memory, CatalogKind::Sqlite];

    pub fn profile(self) -> &'static Profile {
        PROFILES.iter().find(|p| p.kind == self).expect("every kind has a profile")
    }

    pub fn name(self) -> &'static str {
        self.profile().name
    }

    pub fn named(name: &str) -> Option<CatalogKind> {
        PROFILES.iter().find(|p| p.name == name).map(|p| p.kind)
    }

    /// Why this catalog cannot be used in this process, if it cannot: its server's variable is
    /// unset (the variable `<VAR>_UNAVAILABLE`, which the scripts set when a server did not
    /// start, says why).
    pub fn unavailable(self) -> Option<String> {
        let Server { url, script, .. } = self.profile().server.as_ref()?;
        if std::env::var_os(url).is_some() {
            return None;
        }
        Some(std::env::var(format!("{url}_UNAVAILABLE")).unwrap_or_else(|_| {
            format!("{url} is not set; `eval \"$({script} start)\"` starts a server (scripts/test does)")
        }))
    }
}

/// How one writer reaches a catalog server, where it should not be the usual way: tests put the
/// fault proxy in front of it, shorten its timeout, or give it wrong credentials. Embedded
/// catalogs ignore it.
#[derive(Clone, Debug, Default)]
pub struct Access {
    /// The catalog's API at another address (the fault proxy's).
    pub uri: Option<String>,
    /// The HTTP client's timeout per request, instead of [`REST_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// A catalog credential (`id:secret`) to present instead of the right one.
    pub catalog_credential: Option<String>,
    /// An S3 secret key to sign storage requests with instead of the right one.
    pub storage_secret: Option<String>,
}

/// A REST writer's HTTP timeout per request. iceberg-catalog-rest sets none, so a response lost
/// without a reset would hang a writer for ever; a writer must choose one.
pub const REST_TIMEOUT: Duration = Duration::from_secs(30);

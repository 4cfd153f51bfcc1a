//! How to reach a catalog: everything opening a connection needs, and nothing about where it came
//! from (the harness reads servers' addresses and keys from the environment and builds these).

use std::time::Duration;

/// A catalog to open, through either build.
#[derive(Clone, Debug)]
pub enum Connection {
    /// A new, empty in-process `MemoryCatalog`: one mutex around every operation. Writers of one
    /// table must share the instance (the [`Table`](crate::Table) it was opened as).
    Memory { name: String, warehouse: String },
    /// `iceberg-catalog-sql`: a compare-and-swap in the database, usable from many processes.
    Sql { name: String, uri: String, bind_style: BindStyle, warehouse: String },
    /// `iceberg-catalog-rest`, the data on S3: the server checks each commit's requirements and
    /// writes the metadata file.
    Rest(RestConnection),
}

/// The SQL dialect's placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindStyle {
    /// `?` (SQLite).
    QMark,
    /// `$1` (PostgreSQL).
    DollarNumeric,
}

/// An Iceberg REST catalog whose warehouse is on S3.
#[derive(Clone, Debug)]
pub struct RestConnection {
    pub name: String,
    pub uri: String,
    pub warehouse: String,
    pub auth: RestAuth,
    pub s3: S3Access,
    /// The HTTP client's timeout per request. iceberg-catalog-rest sets none, so a response lost
    /// without a reset would hang a writer for ever: a writer must choose one.
    pub timeout: Duration,
}

/// How a REST client proves who it is; each server wants one of these.
#[derive(Clone, Debug)]
pub enum RestAuth {
    /// An OAuth client credential, `id:secret`, exchanged for a token at the server's token
    /// endpoint (SeaweedFS).
    OAuthClient(String),
    /// A token sent as `Authorization: Bearer` on every request (Rustberg's API key).
    Bearer(String),
    /// None: the server authenticates nobody (apache/iceberg's REST fixture).
    None,
}

/// An S3 endpoint and the key pair that signs requests to it.
#[derive(Clone, Debug)]
pub struct S3Access {
    pub endpoint: String,
    pub access_key: String,
    pub secret_key: String,
}

impl Connection {
    /// The catalog's name.
    pub fn name(&self) -> &str {
        match self {
            Connection::Memory { name, .. } | Connection::Sql { name, .. } => name,
            Connection::Rest(rest) => &rest.name,
        }
    }

    /// Where the catalog's tables keep their files.
    pub fn warehouse(&self) -> &str {
        match self {
            Connection::Memory { warehouse, .. } | Connection::Sql { warehouse, .. } => warehouse,
            Connection::Rest(rest) => &rest.warehouse,
        }
    }
}

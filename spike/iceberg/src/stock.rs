//! The arms on iceberg-rust 0.10.1 exactly as published on crates.io.

pub(crate) use ::iceberg as ice;
pub(crate) use ::iceberg_catalog_rest as ice_rest;
pub(crate) use ::iceberg_catalog_sql as ice_sql;
pub(crate) use ::iceberg_storage_opendal as ice_s3;

// The same code as the other build's, compiled against this build's crates: on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "common/mod.rs"]
mod common;
#[allow(clippy::duplicate_mod)]
#[path = "compat_0_10.rs"]
pub(crate) mod compat;
#[allow(clippy::duplicate_mod)]
#[path = "publish_by_register.rs"]
pub(crate) mod publish;
#[allow(clippy::duplicate_mod)]
#[path = "remote_catalogs.rs"]
pub(crate) mod remote;

mod as_arroyo;
mod as_flink;
mod catalog_guard;
mod file_key;

pub use as_arroyo::AsArroyo;
pub use as_flink::AsFlink;
pub use catalog_guard::CatalogGuard;
pub use common::*;
pub use file_key::FileKey;

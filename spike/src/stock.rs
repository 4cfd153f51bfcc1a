//! Arms on iceberg-rust 0.10.1 exactly as published on crates.io.

pub(crate) use ::iceberg as ice;
pub(crate) use ::iceberg_catalog_sql as ice_sql;

#[path = "iceberg/mod.rs"]
pub mod common;

mod catalog_guard;

pub use catalog_guard::CatalogGuard;

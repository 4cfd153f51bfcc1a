//! Arms on iceberg-rust 0.10.1 exactly as published on crates.io.

pub(crate) use ::iceberg as ice;
pub(crate) use ::iceberg_catalog_rest as ice_rest;
pub(crate) use ::iceberg_catalog_sql as ice_sql;
pub(crate) use ::iceberg_storage_opendal as ice_s3;

#[path = "iceberg/mod.rs"]
pub mod common;

mod catalog_guard;

pub use catalog_guard::CatalogGuard;

use crate::arms::Arm;
use crate::hooks::Hooks;
use crate::sink::CommitSink;
use common::{IcebergSink, IcebergTable, Naive, Unguarded};

/// The stock build's sink for `arm`, if the arm runs on it.
pub(crate) fn sink_for(arm: Arm, table: IcebergTable, hooks: Hooks) -> Option<Box<dyn CommitSink>> {
    Some(match arm {
        Arm::IcebergNaive(_) => Box::new(IcebergSink::new(table, hooks, Naive)),
        Arm::IcebergCatalogGuard => Box::new(IcebergSink::new(table, hooks, CatalogGuard)),
        Arm::IcebergUnguarded => Box::new(IcebergSink::new(table, hooks, Unguarded)),
        _ => return None,
    })
}

//! Arms on the same iceberg-rust 0.10.1 with `patches/` applied (`vendor/`).

pub(crate) use ::iceberg_catalog_rest_patched as ice_rest;
pub(crate) use ::iceberg_catalog_sql_patched as ice_sql;
pub(crate) use ::iceberg_patched as ice;
pub(crate) use ::iceberg_storage_opendal_patched as ice_s3;

#[path = "iceberg/mod.rs"]
pub mod common;

mod action;
mod requirement;
mod validator;

pub use action::{Action, EpochAction};
pub use requirement::Requirement;
pub use validator::{EpochValidator, Validator};

use crate::arms::Arm;
use crate::hooks::Hooks;
use crate::sink::CommitSink;
use common::{IcebergSink, IcebergTable, Naive};

/// The patched build's sink for `arm`, if the arm runs on it.
pub(crate) fn sink_for(arm: Arm, table: IcebergTable, hooks: Hooks) -> Option<Box<dyn CommitSink>> {
    Some(match arm {
        Arm::IcebergNaive(_) => Box::new(IcebergSink::new(table, hooks, Naive)),
        Arm::IcebergAction => Box::new(IcebergSink::new(table, hooks, Action)),
        Arm::IcebergRequirement => Box::new(IcebergSink::new(table, hooks, Requirement)),
        Arm::IcebergValidator => Box::new(IcebergSink::new(table, hooks, Validator)),
        _ => return None,
    })
}

//! The arms on the same iceberg-rust 0.10.1 with `patches/` applied (`vendor/`).

pub(crate) use ::iceberg_catalog_rest_patched as ice_rest;
pub(crate) use ::iceberg_catalog_sql_patched as ice_sql;
pub(crate) use ::iceberg_patched as ice;
pub(crate) use ::iceberg_storage_opendal_patched as ice_s3;

// The same code as the other build's, compiled against this build's crates: on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "common/mod.rs"]
mod common;
#[allow(clippy::duplicate_mod)]
#[path = "compat_0_10.rs"]
pub(crate) mod compat;
#[allow(clippy::duplicate_mod)]
#[path = "remote_catalogs.rs"]
pub(crate) mod remote;

mod action;
mod as_kafka_connect;
mod as_materialize;
mod no_rebase;
pub(crate) mod publish;
mod requirement;
mod snapshot_id;
mod validator;

pub use action::Action;
pub use as_kafka_connect::AsKafkaConnect;
pub use as_materialize::AsMaterialize;
pub use common::*;
pub use ice::transaction::Rebase;
pub use no_rebase::NoRebase;
pub use publish::DuplicateIdAnswer;
pub use requirement::Requirement;
pub use snapshot_id::{SnapshotId, snapshot_id};
pub use validator::Validator;

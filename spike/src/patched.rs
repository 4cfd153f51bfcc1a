//! Arms on the same iceberg-rust 0.10.1 with `patches/` applied (`vendor/`).

pub(crate) use ::iceberg_catalog_sql_patched as ice_sql;
pub(crate) use ::iceberg_patched as ice;

#[path = "iceberg/mod.rs"]
pub mod common;

mod action;
mod requirement;
mod validator;

pub use action::{Action, EpochAction};
pub use requirement::Requirement;
pub use validator::{EpochValidator, Validator};

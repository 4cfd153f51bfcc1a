//! What every Iceberg arm shares: catalogs, the epoch lookup, writing a batch as Parquet data
//! files, counting rows, and the catalog every commit goes through.
//!
//! This module is compiled twice, once against each build (`crate::stock` and `crate::patched`
//! include it with `#[path]` after binding `ice`/`ice_sql` to their crates), so that the two builds
//! run literally the same code and differ only in the library underneath.

pub(crate) use super::{ice, ice_sql};

mod catalog;
mod commit_catalog;
mod epoch;
mod naive;
mod sink;
mod storage;
mod table;

pub use catalog::IcebergCatalog;
pub use commit_catalog::{CommitCatalog, EpochGuard};
pub use epoch::{
    APP_ID_KEY, EPOCH_KEY, WATERMARK_PREFIX, check_free, committed_epoch, committed_epoch_full_scan,
    committed_epoch_on_main, epoch_history, epoch_summary, record_watermark, stage_append,
    synthetic_history, watermark_key,
};
pub use naive::{Naive, Unguarded};
pub use sink::{CommitStrategy, IcebergSink};
pub use table::{IcebergFixture, IcebergTable, iceberg_error};

//! What every Iceberg arm shares: catalogs, the epoch lookup, writing a batch as Parquet data
//! files, counting rows, the catalog every commit goes through, and the table driver.
//!
//! This module is compiled twice, once against each build (`crate::stock` and `crate::patched`
//! include it with `#[path]` after binding `ice`, `ice_sql`, `ice_rest` and `ice_s3` to their
//! crates, and defining `sink_for`, the build's arms), so that the two builds run literally the
//! same code and differ only in the library underneath.

pub(crate) use super::{ice, ice_rest, ice_s3, ice_sql, sink_for};

mod catalog;
mod commit_catalog;
mod driver;
mod epoch;
mod errors;
mod naive;
mod outage;
mod sink;
mod storage;
mod table;

pub use catalog::IcebergCatalog;
pub use commit_catalog::{CommitCatalog, EpochGuard};
pub use epoch::{
    APP_ID_KEY, EPOCH_KEY, WATERMARK_PREFIX, check_free, committed_epoch, committed_epoch_full_scan,
    committed_epoch_on_main, epoch_history, epoch_summary, extend_history, record_watermark, stage_append,
    synthetic_history, watermark_key,
};
pub use naive::{Naive, Unguarded};
pub use sink::{CommitStrategy, IcebergSink};
pub use errors::iceberg_error;
pub use table::{IcebergFixture, IcebergTable};

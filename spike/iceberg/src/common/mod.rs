//! What every Iceberg arm shares: opening catalogs, the epoch lookup, writing a batch as Parquet
//! data files, the catalog every commit goes through, the storage under it, and the one commit
//! body with its strategies' contract.
//!
//! This module is compiled once against each build (`crate::stock`, `crate::patched` and
//! `crate::stock_011` include it with `#[path]` after binding `ice` to the build's iceberg and
//! `remote` to how it opens the catalogs other than `memory`), so that the builds run literally
//! the same code and differ only in the library underneath.

pub(crate) use super::{compat, ice, publish, remote};

mod catalog;
mod commit_catalog;
mod create_only;
mod epoch;
mod errors;
mod naive;
mod owned_loop;
mod rewrite;
mod sink;
mod storage;
mod strategy;
mod table;

/// The shared files an arm's footprint declares when its check rides on them.
pub mod sources {
    pub use super::commit_catalog::SOURCE as COMMIT_CATALOG;
    pub use super::create_only::SOURCE as CREATE_ONLY;
    pub use super::owned_loop::SOURCE as OWNED_LOOP;
}

#[allow(unused_imports, reason = "for the builds' SQL catalogs; 0.11.0 has none")]
pub(crate) use catalog::local_fs;
pub use commit_catalog::CommitCatalog;
pub use create_only::KeyTaken;
pub use epoch::{
    APP_ID_KEY, EPOCH_KEY, EpochCheck, WATERMARK_PREFIX, committed_epoch, committed_epoch_full_scan,
    committed_epoch_in, committed_epoch_on_main, epoch_history, epoch_of_current, epoch_of_newest_sequence,
    epoch_summary, extend_history, is_epoch_taken, record_watermark, synthetic_history, watermark, watermark_key,
};
pub use errors::iceberg_error;
pub use naive::{Naive, Unguarded};
pub use sink::IcebergSink;
#[allow(unused_imports, reason = "for the builds' REST catalogs; 0.11.0 has none")]
pub(crate) use storage::FailpointStorageFactory;
#[allow(unused_imports, reason = "no guard of the stock build extends the append")]
pub(crate) use strategy::fast_append;
pub use strategy::{Append, CheckSite, CommitStrategy, FileNames, stage_append};
pub use table::IcebergTable;

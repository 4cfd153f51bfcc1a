//! Files and bytes this process moved through iceberg's `Storage`: every catalog and writer of
//! this crate (both builds) is opened on `common/storage.rs`'s decorator, which counts here.
//! The benchmarks read it around one commit for the I/O a commit makes.
//!
//! Process-wide on purpose: a catalog builds its storage from a serialized factory, and a
//! `memory` catalog is shared by every writer of its fixture, so no per-writer handle reaches
//! every file. A difference of two readings is therefore exact only while nothing else in the
//! process touches a table. Whole-file reads (metadata, manifest lists, manifests) are counted;
//! ranged reads (Parquet data, which no commit reads) are not. Below `Storage` nothing is seen:
//! `fsync`s, directory creation, and what a SQL catalog writes to its own database.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

static FILES_WRITTEN: AtomicU64 = AtomicU64::new(0);
static BYTES_WRITTEN: AtomicU64 = AtomicU64::new(0);
static FILES_READ: AtomicU64 = AtomicU64::new(0);
static BYTES_READ: AtomicU64 = AtomicU64::new(0);
static MANIFESTS_WRITTEN: AtomicU64 = AtomicU64::new(0);

/// A reading of the counters, or the difference of two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageIo {
    /// Files created for writing, whole (table metadata) or streamed (data files, manifests,
    /// manifest lists), whether or not the write completed.
    pub files_written: u64,
    pub bytes_written: u64,
    pub files_read: u64,
    pub bytes_read: u64,
    /// Of `files_written`, the manifests and manifest lists (Avro): a fast append commits one
    /// of each, so anything above two per commit is an attempt's that lost its swap.
    #[serde(default)]
    pub manifests_written: u64,
}

impl StorageIo {
    /// The counters now.
    pub fn now() -> Self {
        Self {
            files_written: FILES_WRITTEN.load(Ordering::SeqCst),
            bytes_written: BYTES_WRITTEN.load(Ordering::SeqCst),
            files_read: FILES_READ.load(Ordering::SeqCst),
            bytes_read: BYTES_READ.load(Ordering::SeqCst),
            manifests_written: MANIFESTS_WRITTEN.load(Ordering::SeqCst),
        }
    }

    /// What was counted between `earlier` and this reading.
    pub fn since(self, earlier: StorageIo) -> Self {
        Self {
            files_written: self.files_written - earlier.files_written,
            bytes_written: self.bytes_written - earlier.bytes_written,
            files_read: self.files_read - earlier.files_read,
            bytes_read: self.bytes_read - earlier.bytes_read,
            manifests_written: self.manifests_written - earlier.manifests_written,
        }
    }
}

pub(crate) fn file_created(path: &str) {
    FILES_WRITTEN.fetch_add(1, Ordering::Relaxed);
    if path.ends_with(".avro") {
        MANIFESTS_WRITTEN.fetch_add(1, Ordering::Relaxed);
    }
}

pub(crate) fn bytes_written(n: usize) {
    BYTES_WRITTEN.fetch_add(n as u64, Ordering::Relaxed);
}

pub(crate) fn file_read(bytes: usize) {
    FILES_READ.fetch_add(1, Ordering::Relaxed);
    BYTES_READ.fetch_add(bytes as u64, Ordering::Relaxed);
}

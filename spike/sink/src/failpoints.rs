//! The `fail` failpoints of a commit, in the order a commit passes them, and the storage faults.
//!
//! Each step is placed at a boundary the format really has: a process stopped there has done
//! everything before it and nothing after. Live only with the crate's `failpoints` feature (the
//! crash tests and `stress` turn it on); without it no failpoint ever fires, and the check is a
//! constant the compiler removes.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Whether the failpoint `name` fires now, as `fail` is configured: `return` fires; `panic`
/// panics here, with the name as the message when configured so; `off` does not fire.
fn fires(name: &str) -> bool {
    cfg!(feature = "failpoints") && fail::eval(name, |_| ()).is_some()
}

/// A step of a commit a crash test can stop it at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Failpoint {
    /// The batch's Parquet data files are written; nothing references them yet.
    #[serde(rename = "barrier.after-data-files")]
    AfterDataFiles,
    /// Iceberg: the manifests and manifest list are written, the catalog not yet called. Delta:
    /// the commit's actions are staged, the log's next version not yet attempted.
    #[serde(rename = "barrier.before-swap")]
    BeforeSwap,
    /// Iceberg only: inside the catalog's `update_table`, the new metadata file is written and
    /// the pointer swap not yet made. (Delta has no such step: its commit file *is* the swap.)
    #[serde(rename = "barrier.after-metadata-file")]
    AfterMetadataFile,
    /// The swap happened; the writer has not learned it (the unknown-outcome case).
    #[serde(rename = "barrier.after-swap")]
    AfterSwap,
}

impl Failpoint {
    pub const ALL: [Failpoint; 4] =
        [Failpoint::AfterDataFiles, Failpoint::BeforeSwap, Failpoint::AfterMetadataFile, Failpoint::AfterSwap];

    /// The steps of a Delta commit.
    pub const DELTA: [Failpoint; 3] = [Failpoint::AfterDataFiles, Failpoint::BeforeSwap, Failpoint::AfterSwap];

    /// The name `fail` knows it by.
    pub const fn name(self) -> &'static str {
        match self {
            Failpoint::AfterDataFiles => "barrier.after-data-files",
            Failpoint::BeforeSwap => "barrier.before-swap",
            Failpoint::AfterMetadataFile => "barrier.after-metadata-file",
            Failpoint::AfterSwap => "barrier.after-swap",
        }
    }

    pub fn named(name: &str) -> Option<Failpoint> {
        Failpoint::ALL.into_iter().find(|point| point.name() == name)
    }

    /// Whether this step fires now.
    pub fn fires(self) -> bool {
        fires(self.name())
    }
}

impl fmt::Display for Failpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failing storage, not a step: a write of a table file fails. Configured with a probability
/// by `stress`; Iceberg's storage decorator fires them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageFault {
    /// Nothing is written.
    Error,
    /// Half of the file is written, then the write fails: what a crash or a full disk leaves.
    Partial,
}

impl StorageFault {
    pub const fn name(self) -> &'static str {
        match self {
            StorageFault::Error => "barrier.storage-error",
            StorageFault::Partial => "barrier.storage-partial",
        }
    }

    /// The fault to inject into a write now, if any: a partial write before a failed one.
    pub fn injected() -> Option<StorageFault> {
        [StorageFault::Partial, StorageFault::Error].into_iter().find(|fault| fires(fault.name()))
    }
}

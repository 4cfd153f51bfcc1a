//! The bounds of the loops a sink owns (`delta`'s and `iceberg-requirement`'s): reload, check
//! again, commit again, after losing to another writer.

use std::time::Duration;

use crate::footprint::SourceFile;

/// This file, for the footprints of the arms whose loop it bounds.
pub const SOURCE: SourceFile = SourceFile { path: file!(), text: include_str!("retry.rs") };

/// Attempts before a sink gives up with [`crate::SinkError::Conflict`].
pub const MAX_ATTEMPTS: usize = 200;

/// Short and growing, capped at 50 ms: the next attempt needs only a fresh load, and a writer
/// that just lost has little to wait for.
pub fn backoff(attempt: usize) -> Duration {
    Duration::from_millis((1u64 << attempt.min(6)).min(50))
}

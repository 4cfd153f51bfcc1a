//! The seam: what every table format implements the same way, and what a caller acts on.
//!
//! [`CommitSink`] commits a batch as an `(app, epoch)` at most once; [`SinkError`] says what a
//! caller can do about a failure, with the format's own error as its source; [`Hooks`] are the
//! moments of a commit a harness observes and holds (the epoch check passed, the swap reached,
//! the commit made); [`Failpoint`]s are the steps a crash test stops a commit at, compiled in
//! only with the `failpoints` feature; a [`Footprint`] is what an implementation declares it adds
//! to its table library's write path, for the kill list to measure.
//!
//! Its own crate so that the formats (`barrier-delta`, `barrier-iceberg`) depend on the seam and
//! on nothing of each other, and everything above them (the harness, the lab, the benchmarks)
//! sees both through it.

pub mod data;
mod error;
pub mod failpoints;
mod footprint;
mod hooks;
mod ids;
pub mod retry;
mod sink;

pub use error::{ErrorKind, Located, Report, SinkError, Source};
pub use failpoints::Failpoint;
pub use footprint::{ExtensionPoint, Footprint, Measured, SourceFile};
pub use hooks::{CallCounts, HeldWindow, Hooks, Lane, Round};
pub use ids::{AppId, Epoch};
pub use sink::{CommitOutcome, CommitSink};

/// The `fail` crate, whose registry the failpoints are configured in (`fail::cfg`).
pub use fail;

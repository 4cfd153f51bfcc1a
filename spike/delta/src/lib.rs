//! `delta`, the control: [`CommitSink`](barrier_sink::CommitSink) on a Delta table, where the
//! protocol has an action for exactly this, `txn (appId, version)`.
//!
//! [`DeltaSink`] is the arm; [`DeltaTable`] is what a harness does to the table besides
//! committing (create it, read back every commit's epoch and batches, expire its history, list
//! the files it references). Its own crate because it is one of the two formats the seam is
//! implemented for, and it needs nothing of the other.

mod extension_points;
mod sink;
mod table;

pub use sink::DeltaSink;
pub use table::DeltaTable;

pub use extension_points::{EXTENSION_POINTS, TXN, WRITE_PATH_INTERNALS};

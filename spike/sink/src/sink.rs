//! The seam: one trait that every table format implements the same way.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use crate::error::SinkError;
use crate::ids::{AppId, Epoch};

/// What a commit did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitOutcome {
    /// The batch is now in the table, recorded as this epoch of this app.
    Committed,
    /// The table already records `committed` for this app, at or above the epoch offered, and
    /// this answer added nothing. A replay after a crash lands here; so does a commit that the
    /// network delivered twice, whose first delivery is the one the table records (the writer
    /// cannot tell its own lost delivery from another writer's commit, and need not).
    AlreadyCommitted { committed: Epoch },
}

/// A table that commits each `(app, epoch)` at most once, without a coordinator outside it.
///
/// # Guarantee
///
/// If [`CommitSink::commit`] returns `Committed`, the batch and the epoch became durable in one
/// atomic table commit; if it returns `AlreadyCommitted`, the table holds the epoch once (its
/// batch may be this call's, if the network delivered the commit twice); if it returns
/// [`SinkError::OutcomeUnknown`], the batch may or may not be in the table; any other error, this
/// call added no rows. Writers may race from any number of tasks or processes on the same table:
/// for a given app, a table never records the same or a lower epoch twice.
///
/// The guarantee is the implementation's claim; whether it holds is what the harness's shared
/// suite measures, per arm. The `iceberg-naive` arm documents the claim it cannot keep.
///
/// # Limits
///
/// An error can leave unreferenced files behind (data files and, for Iceberg, manifests and
/// metadata written before the commit failed). They are garbage, never rows: no table snapshot
/// references them. An unknown outcome (the catalog swapped but the answer was lost) is resolved
/// by replaying the same `(app, epoch)`, which is the point of the epoch.
#[async_trait]
pub trait CommitSink: Send + Sync {
    /// The newest epoch `app` has committed to the table, if any.
    async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError>;

    /// Commits `batch` as `epoch` of `app`, unless the table already records `epoch` or a later
    /// one for `app`.
    async fn commit(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<CommitOutcome, SinkError>;

    /// Rows in the table's current version, counted from the Parquet files it references.
    async fn row_count(&self) -> Result<u64, SinkError>;
}

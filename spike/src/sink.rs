//! The seam: one trait that every table format implements the same way.

use std::fmt;

use arrow_array::RecordBatch;
use async_trait::async_trait;

use crate::error::SinkError;

/// The application whose progress a table records. Never empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AppId(String);

impl AppId {
    /// Rejects an empty (or all-whitespace) id: it would make every writer one app.
    pub fn new(id: impl Into<String>) -> Result<Self, SinkError> {
        let id = id.into();
        if id.trim().is_empty() {
            return Err(SinkError::EmptyAppId);
        }
        Ok(Self(id))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AppId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A position in an app's stream of batches (a checkpoint id, an offset, a Delta txn version).
///
/// Epochs of one app only increase. They need not be dense: a gap (committing 5 after 3) is
/// accepted, because the stream is allowed to skip ids (Flink skips checkpoint ids that carried no
/// data; Delta's txn version is a watermark, not a counter). The range is that of Delta's
/// `version: Long`, so that every format can store every epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Epoch(i64);

impl Epoch {
    pub fn new(epoch: u64) -> Result<Self, SinkError> {
        i64::try_from(epoch)
            .map(Self)
            .map_err(|_| SinkError::EpochOutOfRange(epoch))
    }

    pub fn get(self) -> i64 {
        self.0
    }

    /// Reads an epoch back from a table, where it is stored as a signed decimal.
    pub(crate) fn from_stored(stored: i64) -> Result<Self, SinkError> {
        u64::try_from(stored)
            .map_err(|_| SinkError::Corrupt(format!("negative epoch {stored} in table")))
            .and_then(Self::new)
    }
}

impl fmt::Display for Epoch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

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
/// The guarantee is the implementation's claim; whether it holds is what the shared suite
/// (`crate::suite`) measures, per arm. The `iceberg-naive` arm documents the claim it cannot keep.
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
    async fn commit(
        &self,
        app: &AppId,
        epoch: Epoch,
        batch: RecordBatch,
    ) -> Result<CommitOutcome, SinkError>;

    /// Rows in the table's current version, counted from the Parquet files it references.
    async fn row_count(&self) -> Result<u64, SinkError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_app_id_is_rejected_before_any_sink_sees_it() {
        assert!(matches!(AppId::new(""), Err(SinkError::EmptyAppId)));
        assert!(matches!(AppId::new(" \t"), Err(SinkError::EmptyAppId)));
        assert_eq!(AppId::new("app-a").unwrap().as_str(), "app-a");
    }

    #[test]
    fn epochs_are_limited_to_what_every_format_stores() {
        assert_eq!(Epoch::new(0).unwrap().get(), 0);
        assert_eq!(Epoch::new(i64::MAX as u64).unwrap().get(), i64::MAX);
        assert!(matches!(
            Epoch::new(i64::MAX as u64 + 1),
            Err(SinkError::EpochOutOfRange(_))
        ));
        assert!(matches!(Epoch::from_stored(-1), Err(SinkError::Corrupt(_))));
    }
}

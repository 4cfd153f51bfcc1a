//! Errors every sink reports the same way, whatever the format underneath.

/// Why a commit did not happen, or (only [`SinkError::Injected`] at `barrier.after-swap`) why the
/// writer cannot tell that it did. Every other variant leaves the table without the batch; none
/// removes the files the attempt wrote (see [`crate::leftovers`]).
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    #[error("app id is empty")]
    EmptyAppId,
    #[error("epoch {0} is out of range (epochs are stored as a signed 64-bit integer)")]
    EpochOutOfRange(u64),
    #[error("table not found: {0}")]
    TableNotFound(String),
    #[error("batch schema does not match the table: {0}")]
    SchemaMismatch(String),
    /// The catalog could not be reached or refused the operation (a locked or missing catalog file).
    #[error("catalog unavailable: {0}")]
    CatalogUnavailable(String),
    /// Other writers kept winning; the batch was not committed and may be offered again.
    #[error("gave up after {attempts} conflicting attempts")]
    Conflict { attempts: usize },
    /// The table holds something this sink did not write (an unparsable epoch).
    #[error("table content is not what this sink writes: {0}")]
    Corrupt(String),
    /// A failpoint stopped the commit on purpose (crash tests). After `barrier.after-swap` the
    /// batch *is* committed: the unknown outcome a replay must resolve.
    #[error("injected failure at {0}")]
    Injected(String),
    #[error("iceberg: {0}")]
    Iceberg(String),
    #[error("delta: {0}")]
    Delta(String),
    #[error("parquet: {0}")]
    Parquet(String),
}

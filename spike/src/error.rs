//! Errors every sink reports the same way, whatever the format underneath.

/// Why a commit did not happen, or ([`SinkError::OutcomeUnknown`], and [`SinkError::Injected`] at
/// `barrier.after-swap`) why the writer cannot tell whether it did. Every other variant leaves the
/// table without the batch; none removes the files the attempt wrote (see [`crate::leftovers`]).
/// Offering the same `(app, epoch)` again resolves an unknown outcome: `AlreadyCommitted` if the
/// batch landed, `Committed` if it did not.
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
    /// The catalog could not be reached or refused the operation before the commit was sent (a
    /// locked or missing catalog file, a server that is down, wrong catalog credentials).
    #[error("catalog unavailable: {0}")]
    CatalogUnavailable(String),
    /// The commit was sent and no answer says whether it was applied: the connection broke, the
    /// request timed out, or the server (or a gateway) answered that the commit state is unknown.
    #[error("commit outcome unknown: {0}")]
    OutcomeUnknown(String),
    /// The table's storage failed or refused a read or write (a failing disk, wrong storage
    /// credentials) before the commit was sent.
    #[error("storage: {0}")]
    Storage(String),
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

impl SinkError {
    /// The variant's name: what progress lines and summaries print instead of the whole error.
    pub fn kind(&self) -> &'static str {
        match self {
            SinkError::EmptyAppId => "EmptyAppId",
            SinkError::EpochOutOfRange(_) => "EpochOutOfRange",
            SinkError::TableNotFound(_) => "TableNotFound",
            SinkError::SchemaMismatch(_) => "SchemaMismatch",
            SinkError::CatalogUnavailable(_) => "CatalogUnavailable",
            SinkError::OutcomeUnknown(_) => "OutcomeUnknown",
            SinkError::Storage(_) => "Storage",
            SinkError::Conflict { .. } => "Conflict",
            SinkError::Corrupt(_) => "Corrupt",
            SinkError::Injected(_) => "Injected",
            SinkError::Iceberg(_) => "Iceberg",
            SinkError::Delta(_) => "Delta",
            SinkError::Parquet(_) => "Parquet",
        }
    }
}

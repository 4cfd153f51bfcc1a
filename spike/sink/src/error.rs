//! Errors every sink reports the same way, whatever the format underneath.

use std::error::Error as StdError;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::failpoints::Failpoint;

/// The error a format's library (or a peer's process) returned, kept whole as the source of the
/// [`SinkError`] it amounts to.
pub type Source = Box<dyn StdError + Send + Sync + 'static>;

/// Why a commit did not happen, or ([`SinkError::OutcomeUnknown`], and [`SinkError::Injected`] at
/// [`Failpoint::AfterSwap`]) why the writer cannot tell whether it did. Every other variant leaves
/// the table without the batch; none removes the files the attempt wrote. Offering the same
/// `(app, epoch)` again resolves an unknown outcome: `AlreadyCommitted` if the batch landed,
/// `Committed` if it did not.
///
/// Classified by what the caller can do, not by where it happened; the format's own error is the
/// [`source`](StdError::source), and [`Report`] prints the whole chain.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    #[error("app id is empty")]
    EmptyAppId,
    #[error("epoch {0} is out of range (epochs are stored as a signed 64-bit integer)")]
    EpochOutOfRange(u64),
    #[error("table not found")]
    TableNotFound(#[source] Source),
    #[error("batch schema does not match the table")]
    SchemaMismatch(#[source] Source),
    /// The catalog could not be reached or refused the operation before the commit was sent (a
    /// locked or missing catalog file, a server that is down, wrong catalog credentials).
    #[error("catalog unavailable")]
    CatalogUnavailable(#[source] Source),
    /// The commit was sent and no answer says whether it was applied: the connection broke, the
    /// request timed out, or the server (or a gateway) answered that the commit state is unknown.
    #[error("commit outcome unknown")]
    OutcomeUnknown(#[source] Source),
    /// The table's storage failed or refused a read or write (a failing disk, wrong storage
    /// credentials) before the commit was sent.
    #[error("storage failed")]
    Storage(#[source] Source),
    /// Other writers kept winning; the batch was not committed and may be offered again.
    #[error("gave up after {attempts} conflicting attempts")]
    Conflict { attempts: usize },
    /// The epoch is claimed by another attempt that has not committed it: a sink that names its
    /// data files from `(app, epoch)` and creates them only if absent found another batch's file
    /// at its name (`iceberg-file-key`). Nothing was written; the other attempt is in flight or
    /// died. Offering the epoch again answers `AlreadyCommitted` once it commits; a dead
    /// attempt's file keeps the epoch claimed until it is removed or the same batch is offered.
    #[error("epoch claimed by another attempt's data file")]
    EpochClaimed(#[source] Source),
    /// The table holds something this sink did not write (an unparsable epoch).
    #[error("table content is not what this sink writes: {0}")]
    Corrupt(String),
    /// A failpoint stopped the commit on purpose (crash tests). After [`Failpoint::AfterSwap`] the
    /// batch *is* committed: the unknown outcome a replay must resolve.
    #[error("injected failure at {0}")]
    Injected(Failpoint),
    #[error("iceberg")]
    Iceberg(#[source] Source),
    #[error("delta")]
    Delta(#[source] Source),
    #[error("parquet")]
    Parquet(#[source] Source),
    /// A sink that commits through another process (a peer) lost it, or the process broke the
    /// protocol.
    #[error("peer process")]
    Peer(#[source] Source),
}

/// [`SinkError`]'s variants, without their payloads: what logs, summaries and the outcome check
/// count, and what a peer process names in its answers. Serialized as the variant's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ErrorKind {
    EmptyAppId,
    EpochOutOfRange,
    TableNotFound,
    SchemaMismatch,
    CatalogUnavailable,
    OutcomeUnknown,
    Storage,
    Conflict,
    EpochClaimed,
    Corrupt,
    Injected,
    Iceberg,
    Delta,
    Parquet,
    Peer,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl Failpoint {
    /// [`SinkError::Injected`] if this step fires now: `point.check()?` stops a commit there.
    pub fn check(self) -> Result<(), SinkError> {
        if self.fires() { Err(SinkError::Injected(self)) } else { Ok(()) }
    }
}

impl SinkError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            SinkError::EmptyAppId => ErrorKind::EmptyAppId,
            SinkError::EpochOutOfRange(_) => ErrorKind::EpochOutOfRange,
            SinkError::TableNotFound(_) => ErrorKind::TableNotFound,
            SinkError::SchemaMismatch(_) => ErrorKind::SchemaMismatch,
            SinkError::CatalogUnavailable(_) => ErrorKind::CatalogUnavailable,
            SinkError::OutcomeUnknown(_) => ErrorKind::OutcomeUnknown,
            SinkError::Storage(_) => ErrorKind::Storage,
            SinkError::Conflict { .. } => ErrorKind::Conflict,
            SinkError::EpochClaimed(_) => ErrorKind::EpochClaimed,
            SinkError::Corrupt(_) => ErrorKind::Corrupt,
            SinkError::Injected(_) => ErrorKind::Injected,
            SinkError::Iceberg(_) => ErrorKind::Iceberg,
            SinkError::Delta(_) => ErrorKind::Delta,
            SinkError::Parquet(_) => ErrorKind::Parquet,
            SinkError::Peer(_) => ErrorKind::Peer,
        }
    }

    /// The error and every source under it, on one line.
    pub fn report(&self) -> Report<'_> {
        Report(self)
    }
}

/// An error at a named place (a file, a URL, a directory): where, and the error itself.
#[derive(Debug, thiserror::Error)]
#[error("{location}")]
pub struct Located {
    pub location: String,
    #[source]
    pub source: Source,
}

impl Located {
    /// The error at `location`, as the source of a [`SinkError`].
    pub fn boxed(location: impl fmt::Display, source: impl Into<Source>) -> Source {
        Box::new(Located { location: location.to_string(), source: source.into() })
    }
}

/// An error and its sources on one line, `outer: inner: innermost`, for the places a person
/// reads it. iceberg's and opendal's errors print their own sources after `, source: `, so each
/// level is read up to that point, and a level already said (a wrapper repeating what it wraps)
/// is left out: walking the chain as well had printed one S3 failure six times. Line breaks
/// inside a message (a peer's, a backtrace's) become spaces.
pub struct Report<'a>(pub &'a (dyn StdError + 'static));

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut said = String::new();
        let mut next = Some(self.0);
        while let Some(error) = next {
            let text = error.to_string();
            let own = text.split(", source: ").next().unwrap_or_default();
            let own = own.split_whitespace().collect::<Vec<_>>().join(" ");
            if !own.is_empty() && !said.contains(&own) {
                if !said.is_empty() {
                    said.push_str(": ");
                }
                said.push_str(&own);
            }
            next = error.source();
        }
        f.write_str(&said)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_names_every_source() {
        let err = SinkError::CatalogUnavailable("connection refused".into());
        assert_eq!(err.to_string(), "catalog unavailable");
        assert_eq!(err.report().to_string(), "catalog unavailable: connection refused");
        assert_eq!(err.kind().to_string(), "CatalogUnavailable");
    }

    #[test]
    fn a_report_names_a_source_its_outer_error_printed_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("write failed, source: {0}")]
        struct PrintsItsSource(#[source] std::io::Error);
        let io = std::io::Error::other("HTTP 500");
        let err = SinkError::Storage(Box::new(PrintsItsSource(io)));
        assert_eq!(err.report().to_string(), "storage failed: write failed: HTTP 500");
    }

    #[test]
    fn a_report_is_one_line_and_says_a_repeated_level_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("create-only write, source: {0}")]
        struct Write(#[source] Box<dyn StdError + Send + Sync>);
        let io = std::io::Error::other("File name too long\nBacktrace: 0: main");
        let inner = Write(Box::new(io));
        let again = Write(Box::new(inner));
        let err = SinkError::Storage(Box::new(again));
        assert_eq!(
            err.report().to_string(),
            "storage failed: create-only write: File name too long Backtrace: 0: main"
        );
    }

    #[test]
    fn kinds_travel_as_their_names() {
        let kind: ErrorKind = serde_json::from_str("\"OutcomeUnknown\"").unwrap();
        assert_eq!(kind, ErrorKind::OutcomeUnknown);
        assert_eq!(serde_json::to_string(&ErrorKind::Storage).unwrap(), "\"Storage\"");
    }
}

//! What the library's errors mean to a sink. The storage and the commit catalog mark every error
//! they return with where it happened ([`StorageFailed`], [`CatalogCallFailed`]); the marks survive
//! the library's own error type as sources, and [`iceberg_error`] reads them back.

use std::error::Error as StdError;
use std::fmt;

use barrier_sink::{Failpoint, SinkError};

use super::create_only::KeyTaken;
use super::ice::{self, ErrorKind};

/// How an injected failure's message starts: the message is what survives the library's error
/// type on every path a failpoint's error takes.
const INJECTED: &str = "injected failure at ";

/// The error a failpoint returns from inside the library; [`iceberg_error`] turns it back into
/// [`SinkError::Injected`].
pub(super) fn injected(point: Failpoint) -> ice::Error {
    ice::Error::new(ErrorKind::Unexpected, format!("{INJECTED}{point}"))
}

/// Maps the library's errors onto the sink's, by what a caller can do about them. The storage and
/// the commit catalog mark the errors they return (`StorageFailed`, `CatalogCallFailed`): a
/// failed read or write is a storage error whichever call it happened in; otherwise a failed
/// swap leaves the outcome unknown and a failed refresh means the catalog was unavailable.
pub fn iceberg_error(err: ice::Error) -> SinkError {
    if matches!(err.kind(), ErrorKind::TableNotFound | ErrorKind::NamespaceNotFound) {
        return SinkError::TableNotFound(Box::new(err));
    }
    if let Some(point) = err.message().strip_prefix(INJECTED).and_then(Failpoint::named) {
        return SinkError::Injected(point);
    }
    if sources(&err).any(|e| e.is::<KeyTaken>()) {
        return SinkError::EpochClaimed(Box::new(err));
    }
    if sources(&err).any(|e| e.is::<StorageFailed>()) {
        return SinkError::Storage(Box::new(err));
    }
    let call = sources(&err).find_map(|e| e.downcast_ref::<CatalogCallFailed>()).map(|c| c.call);
    match call {
        Some(CatalogCall::Swap) => SinkError::OutcomeUnknown(Box::new(err)),
        Some(CatalogCall::Refresh) => SinkError::CatalogUnavailable(Box::new(err)),
        // iceberg-catalog-sql reports every database error (locked, unreadable file) this way.
        None if err.message().contains("sqlx error") => SinkError::CatalogUnavailable(Box::new(err)),
        None => SinkError::Iceberg(Box::new(err)),
    }
}

/// What the sink's own load of the table amounts to: no table, a storage failure, or a catalog
/// that could not be reached or refused it (a server that is down, wrong credentials, a lock).
pub(super) fn load_error(err: ice::Error) -> SinkError {
    match iceberg_error(err) {
        SinkError::Iceberg(source) => SinkError::CatalogUnavailable(source),
        other => other,
    }
}

/// `err` and every error it wraps, outermost first.
fn sources<'a>(err: &'a ice::Error) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    std::iter::successors(Some(err as &(dyn StdError + 'static)), |e: &&'a (dyn StdError + 'static)| (*e).source())
}

/// The source of every error this crate's storage returns: the read or write that failed.
#[derive(Debug)]
pub struct StorageFailed(ice::Error);

// Only the mark: what failed is its source, which `Report` prints once.
impl fmt::Display for StorageFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("storage failed")
    }
}

impl StdError for StorageFailed {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&self.0)
    }
}

/// Marks `err` as a failed read or write of the storage.
pub(super) fn failed_storage(err: ice::Error) -> ice::Error {
    ice::Error::new(err.kind(), err.message().to_string())
        .with_retryable(err.retryable())
        .with_source(StorageFailed(err))
}

/// Which call of a commit the catalog failed: the refresh before it (nothing was sent), or the
/// swap itself (the request was sent; unless the catalog answered that it did not apply it, the
/// outcome is unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogCall {
    Refresh,
    Swap,
}

/// The source of every error the catalog returned to a commit, naming the call.
#[derive(Debug)]
pub struct CatalogCallFailed {
    pub call: CatalogCall,
    error: ice::Error,
}

impl fmt::Display for CatalogCallFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "catalog {:?} failed: {}", self.call, self.error)
    }
}

impl StdError for CatalogCallFailed {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&self.error)
    }
}

/// Marks `error` as `call`'s. A swap the catalog rejected outright (a failed requirement, a
/// missing table) is left unmarked: its outcome is known.
pub(super) fn failed_call(call: CatalogCall, error: ice::Error) -> ice::Error {
    let known = matches!(error.kind(), ErrorKind::CatalogCommitConflicts | ErrorKind::TableNotFound);
    if call == CatalogCall::Swap && known {
        return error;
    }
    ice::Error::new(error.kind(), error.message().to_string())
        .with_retryable(error.retryable())
        .with_source(CatalogCallFailed { call, error })
}

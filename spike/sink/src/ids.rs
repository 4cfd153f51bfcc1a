//! The two identities every commit carries: whose progress, and how far.

use std::fmt;

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
        i64::try_from(epoch).map(Self).map_err(|_| SinkError::EpochOutOfRange(epoch))
    }

    pub fn get(self) -> i64 {
        self.0
    }

    /// Reads an epoch back from a table, where it is stored as a signed decimal: a negative one
    /// is not something a sink wrote.
    pub fn from_stored(stored: i64) -> Result<Self, SinkError> {
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
        assert!(matches!(Epoch::new(i64::MAX as u64 + 1), Err(SinkError::EpochOutOfRange(_))));
        assert!(matches!(Epoch::from_stored(-1), Err(SinkError::Corrupt(_))));
    }
}

//! What a writer was told, as the peers report it and the stress writers log it: one shape, so
//! that the outcome check reads Rust writers and peers alike.

use barrier_sink::{CommitOutcome, ErrorKind, SinkError};
use serde::{Deserialize, Serialize};

/// A commit's answer, by what it says, not by its details.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "told", rename_all = "kebab-case")]
pub enum Told {
    Committed,
    AlreadyCommitted {
        committed: u64,
    },
    /// A [`SinkError`], by kind.
    Error {
        kind: ErrorKind,
    },
}

impl Told {
    pub fn of(result: &Result<CommitOutcome, SinkError>) -> Self {
        match result {
            Ok(CommitOutcome::Committed) => Told::Committed,
            Ok(CommitOutcome::AlreadyCommitted { committed }) => {
                Told::AlreadyCommitted { committed: committed.get() as u64 }
            }
            Err(err) => Told::Error { kind: err.kind() },
        }
    }

    /// An answer after which the batch may be in the table or not.
    pub fn outcome_unknown(&self) -> bool {
        matches!(self, Told::Error { kind: ErrorKind::OutcomeUnknown })
    }
}

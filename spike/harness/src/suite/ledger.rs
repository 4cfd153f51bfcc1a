//! What a body holds the table to: every commit the sink reported, against the rows it holds.

use barrier_sink::{AppId, CommitOutcome, CommitSink, Epoch, SinkError};

use super::{Commit, Finding};
use crate::batch::BATCH_ROWS;
use crate::error::Error;
use crate::scenario::Scenario;

pub(super) fn app(name: &str) -> AppId {
    AppId::new(name).expect("suite app ids are not empty")
}

pub(super) fn epoch(n: u64) -> Epoch {
    Epoch::new(n).expect("suite epochs are in range")
}

/// Tracks what the sink reported, to hold the table to it.
#[derive(Default)]
pub(super) struct Ledger {
    committed: Vec<Commit>,
}

impl Ledger {
    pub(super) fn record(&mut self, app: &AppId, epoch: Epoch, outcome: CommitOutcome) -> CommitOutcome {
        if outcome == CommitOutcome::Committed {
            self.committed.push(Commit { app: app.clone(), epoch });
        }
        outcome
    }

    pub(super) fn commits(&self) -> usize {
        self.committed.len()
    }

    /// The finding, failed if the table's rows disagree with what the sink reported.
    pub(super) async fn finding(
        self,
        scenario: Scenario,
        sink: &dyn CommitSink,
        expected: impl Into<String>,
        observed: impl Into<String>,
        passed: bool,
    ) -> Result<Finding, Error> {
        let rows = sink.row_count().await?;
        let rows_expected = (self.commits() * BATCH_ROWS) as u64;
        let mut observed = observed.into();
        if rows != rows_expected {
            observed = format!("{observed}; MISREPORTED: table holds {rows} rows, sink reported {rows_expected}");
        }
        Ok(Finding {
            scenario,
            passed: passed && rows == rows_expected,
            not_applicable: None,
            expected: expected.into(),
            observed,
            committed: self.committed,
            rows,
            rows_expected,
            contention: None,
        })
    }
}

/// A short account of what a commit returned: the outcome, or the error's kind.
pub(super) fn brief(result: &Result<CommitOutcome, SinkError>) -> String {
    match result {
        Ok(CommitOutcome::Committed) => "Committed".into(),
        Ok(CommitOutcome::AlreadyCommitted { committed }) => format!("AlreadyCommitted{{{committed}}}"),
        Err(err) => err.kind().to_string(),
    }
}

/// A call's result as a person reads it, on one line: the value, or the error's kind and its
/// report (never its `Debug`, which carries a backtrace where one is captured).
pub(super) fn said<T: std::fmt::Debug>(result: &Result<T, SinkError>) -> String {
    match result {
        Ok(value) => format!("{value:?}"),
        Err(err) => format!("{} ({})", err.kind(), err.report()),
    }
}

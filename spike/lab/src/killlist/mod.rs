//! The kill list, decided from a `verdict` run and from the arms' own code: one cell per kill
//! condition and arm, each "triggered", "not triggered" or "not yet", with the names of the tests
//! that decide it.
//!
//! Conditions 1 to 3 are decided by what the suite's bodies observed in the run just made, on
//! every catalog of the arm: an arm is exactly-once when every body ran as recorded, the held
//! window held on every catalog, and no body saw an `(app, epoch)` committed twice. Condition 4
//! is decided by measuring the files the arm declares as its footprint, beside its code
//! ([`barrier_sink::Footprint`]; each format crate tests that the declaration agrees with the
//! code). The rules are in [`decide`]; nothing here names an outcome per arm. FINDINGS.md
//! carries [`render`]'s table between [`BEGIN`] and [`END`], and `verdict --check FINDINGS.md`
//! fails when the two differ.
//!
//! Limits: "not triggered" for condition 2 rests on the construction of the fixtures (a sink gets
//! a catalog and a warehouse directory, nothing else), and for condition 4 on the markers and
//! write-path internals each format lists; the stress runs and the benchmarks corroborate but are
//! not re-run.

mod decide;
mod table;

use std::fmt;

pub use decide::{Decision, answer, decide, footprint};
pub use table::{BEGIN, END, drift, recorded, render};

/// The four conditions under which the answer is "no" for Iceberg, as README.md states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    DestinationSpecific,
    ExternalStore,
    SpecGap,
    OwnsWritePath,
}

impl Kill {
    pub const ALL: [Kill; 4] = [Kill::DestinationSpecific, Kill::ExternalStore, Kill::SpecGap, Kill::OwnsWritePath];

    pub fn statement(self) -> &'static str {
        match self {
            Kill::DestinationSpecific => {
                "1. needs a destination-specific architecture, not the same `CommitSink` shape as Delta"
            }
            Kill::ExternalStore => {
                "2. needs an external transactional store to make the epoch check atomic with the commit"
            }
            Kill::SpecGap => "3. cannot express the commit at all, and the gap is in the specification",
            Kill::OwnsWritePath => "4. owns more than a trait's worth of the write path",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Triggered,
    NotTriggered,
    /// Condition 3's exemption: the gap is in the implementation, not in the specification.
    NotYet,
    /// A body errored, misreported or deviated from its recorded expectation: no evidence.
    Undecided,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Triggered => "triggered",
            Status::NotTriggered => "not triggered",
            Status::NotYet => "not yet",
            Status::Undecided => "UNDECIDED",
        })
    }
}

//! The generic test bodies: one per [`Scenario`], run against every arm on every catalog.
//!
//! Modelled on object_store's shared integration suite: each body takes a fresh [`Fixture`] and
//! exercises the table only through [`CommitSink`](barrier_sink::CommitSink), so the arms are
//! compared on exactly the same steps. A body returns a [`Finding`] instead of panicking so that
//! `verdict` can print the whole matrix; the tests assert `finding.passed`.
//!
//! Every body checks one invariant for every arm, whatever the arm claims: the rows the table
//! holds equal the batches the sink reported `Committed`. A sink may duplicate (that is what the
//! naive arm is here to show) but it may not misreport.

mod faults;
mod ledger;
mod races;
mod sequences;
mod stale;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use barrier_sink::{AppId, Epoch};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::fixture::Fixture;
use crate::scenario::Scenario;
use crate::target::Target;

/// Rounds `contention_probe` runs when the caller does not say.
pub const PROBE_ROUNDS: usize = 40;

const NOT_APPLICABLE: &str = "not applicable";

/// How often two racing writers both passed their check before either committed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Contention {
    pub rounds: usize,
    pub overlapped: usize,
    /// Rounds in which both writers committed the same epoch.
    pub duplicated: usize,
}

/// One commit a sink reported: `app:epoch` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Commit {
    pub app: AppId,
    pub epoch: Epoch,
}

impl fmt::Display for Commit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.app, self.epoch)
    }
}

impl Serialize for Commit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Commit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let bad = || serde::de::Error::custom(format!("not app:epoch: {text}"));
        let (app, epoch) = text.rsplit_once(':').ok_or_else(bad)?;
        let epoch = epoch.parse().ok().and_then(|n| Epoch::new(n).ok()).ok_or_else(bad)?;
        Ok(Commit { app: AppId::new(app).map_err(|_| bad())?, epoch })
    }
}

/// What one body observed on one target, and whether that is what the arm is expected to do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub scenario: Scenario,
    pub passed: bool,
    /// Why the scenario does not apply to the target, if it does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<Cow<'static, str>>,
    pub expected: String,
    pub observed: String,
    /// Every commit the sink reported `Committed`, in order.
    pub committed: Vec<Commit>,
    pub rows: u64,
    pub rows_expected: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<Contention>,
}

impl Finding {
    /// A finding of a scenario that does not apply, and why.
    fn not_applicable(scenario: Scenario, why: &'static str) -> Self {
        Self {
            scenario,
            passed: true,
            not_applicable: Some(Cow::Borrowed(why)),
            expected: NOT_APPLICABLE.into(),
            observed: format!("{NOT_APPLICABLE}: {why}"),
            committed: vec![],
            rows: 0,
            rows_expected: 0,
            contention: None,
        }
    }

    /// A body that could not run to its end: no evidence either way.
    pub fn failed(scenario: Scenario, err: &Error) -> Self {
        Self {
            scenario,
            passed: false,
            not_applicable: None,
            expected: "the scenario runs".into(),
            observed: format!("error: {}", err.report()),
            committed: vec![],
            rows: 0,
            rows_expected: 0,
            contention: None,
        }
    }

    /// Whether any `(app, epoch)` was committed twice.
    pub fn duplicated(&self) -> bool {
        let distinct: BTreeSet<&Commit> = self.committed.iter().collect();
        distinct.len() < self.committed.len() || self.contention.as_ref().is_some_and(|c| c.duplicated > 0)
    }

    /// The cell's mark in the matrix: `FAIL` (not as recorded), `dup` (a duplicate, which passed
    /// only as the body expected it: known, or made by an arm that claims nothing), `n/a`, `bad`
    /// (another failure the arm is `known` for, asserted) or `ok`.
    pub fn mark(&self, known: bool) -> &'static str {
        match (self.passed, self.duplicated()) {
            (false, _) => "FAIL",
            (true, true) => "dup",
            (true, false) if self.not_applicable.is_some() => "n/a",
            (true, false) if known => "bad",
            (true, false) => "ok",
        }
    }

    /// The outcome in a few words, for progress lines.
    pub fn brief(&self) -> String {
        if !self.passed {
            return format!("UNEXPECTED (expected {}; the finding in --json)", self.expected);
        }
        if self.not_applicable.is_some() {
            return NOT_APPLICABLE.to_string();
        }
        match &self.contention {
            Some(c) => {
                format!("as expected, {}/{} rounds overlapped, {} duplicated", c.overlapped, c.rounds, c.duplicated)
            }
            None if self.duplicated() => "as expected: the duplicate, asserted".to_string(),
            None => "as expected".to_string(),
        }
    }
}

/// Why `scenario` does not apply to `target`, if it does not: a peer cannot run it, or the
/// target's catalog has nothing for it (no outages to make, no server the fault proxy can sit in
/// front of).
pub fn not_applicable(scenario: Scenario, target: Target) -> Option<&'static str> {
    if let Some(why) = target.peer_spec().and_then(|peer| peer.not_applicable(scenario)) {
        return Some(why);
    }
    let catalog = target.catalog();
    match scenario {
        Scenario::CatalogUnavailable if catalog.is_none_or(|c| c.outages() == crate::catalogs::Outages::None) => {
            Some("the catalog has no outage a writer could meet (in-process, or Delta's local log)")
        }
        Scenario::LostResponse if catalog.is_none_or(|c| !c.speaks_rest()) => {
            Some("no catalog server the fault proxy can sit in front of")
        }
        _ => None,
    }
}

/// Runs `scenario` on `fx` (`probe_rounds`: the rounds of `contention_probe`); a scenario that
/// does not apply to the target reports "not applicable" and why.
pub async fn run(scenario: Scenario, fx: &Fixture, probe_rounds: usize) -> Result<Finding, Error> {
    if let Some(why) = not_applicable(scenario, fx.target) {
        return Ok(Finding::not_applicable(scenario, why));
    }
    let mut finding = body(scenario, fx, probe_rounds).await?;
    // A failure the arm is known for is what the body must observe: asserted, not skipped.
    if let Some(why) = fx.target.fails_in(scenario) {
        finding.expected = format!("the known failure ({why}), not: {}", finding.expected);
        finding.passed = !finding.passed;
    }
    Ok(finding)
}

async fn body(scenario: Scenario, fx: &Fixture, probe_rounds: usize) -> Result<Finding, Error> {
    match scenario {
        Scenario::ReplayWritesNothing => sequences::replay_writes_nothing(fx).await,
        Scenario::DistinctEpochsAccumulate => sequences::distinct_epochs_accumulate(fx).await,
        Scenario::WriterBehindCommitsOnce => sequences::writer_behind_commits_once(fx).await,
        Scenario::ConcurrentWritersCommitOnce => races::concurrent_writers_commit_once(fx).await,
        Scenario::ContentionProbe => races::contention_probe(fx, probe_rounds).await,
        Scenario::HeldWindow => races::held_window(fx).await,
        Scenario::HeldAtSwap => races::held_at_swap(fx).await,
        Scenario::MissingTable => sequences::missing_table(fx).await,
        Scenario::SchemaMismatch => sequences::schema_mismatch(fx).await,
        Scenario::CatalogUnavailable => faults::catalog_unavailable(fx).await,
        Scenario::AbortedCommitLosesNothing => faults::aborted_commit_loses_nothing(fx).await,
        Scenario::EpochsSurviveExpiry => sequences::epochs_survive_expiry(fx).await,
        Scenario::LostResponse => faults::lost_response(fx).await,
        Scenario::EpochsSurviveRewrite => stale::epochs_survive_rewrite(fx).await,
        Scenario::ZombieOtherBatch => stale::zombie_other_batch(fx).await,
    }
}

//! The outcome history of a stress run, and the check of every answer a writer was given against
//! the table the run left (in the manner of Jepsen's and Elle's histories, for a register per
//! epoch).
//!
//! Each writer logs two events per attempt: before it offers the batch, and once it has the
//! answer. Each batch carries an identity of its own in its rows (`payload`), so the table says
//! which attempt's batch it holds for each epoch. A writer killed mid-attempt leaves the first
//! event only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use barrier_harness::outcome::Told;
use barrier_sink::ErrorKind;
use derive_more::AddAssign;
use serde::{Deserialize, Serialize};

use super::tally::{Listed, Tally};

/// One line of a writer's log: an attempt begun (`told` absent) or answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event {
    pub writer: usize,
    pub app: String,
    pub epoch: u64,
    /// The batch's identity, as its rows carry it.
    pub batch: String,
    /// The attempt's identity, where several attempts offer one batch (`--same-batches`); else
    /// the batch's identity is the attempt's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<String>,
    /// Milliseconds since the Unix epoch, on the one machine every writer runs on.
    pub at_ms: i64,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub told: Option<Told>,
    /// Catalog loads and swap attempts the answer cost (Delta: table loads, log attempts).
    #[serde(default)]
    pub loads: u64,
    #[serde(default)]
    pub updates: u64,
}

/// Writer `id`'s log in a run's log directory.
pub fn log_file(logs: &Path, id: usize) -> PathBuf {
    logs.join(format!("writer-{id}.jsonl"))
}

/// The writer whose log a file named `name` is, if it is a writer's log.
pub fn log_writer(name: &str) -> Option<usize> {
    name.strip_prefix("writer-")?.strip_suffix(".jsonl")?.parse().ok()
}

/// The events of one writer's log. A line cut by a kill is not an attempt anyone learned the
/// outcome of: it is skipped.
pub fn events(log: &str) -> impl Iterator<Item = Event> + '_ {
    log.lines().filter_map(|line| serde_json::from_str(line).ok())
}

/// One attempt: its beginning, and its answer if the writer lived to get one.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub writer: usize,
    pub epoch: u64,
    pub batch: String,
    pub began_ms: i64,
    pub answer: Option<(i64, Told)>,
    pub updates: u64,
}

/// Pairs the events of every writer's log into attempts, by attempt identity.
pub fn attempts(events: impl IntoIterator<Item = Event>) -> Vec<Attempt> {
    let mut by_attempt: BTreeMap<String, Attempt> = BTreeMap::new();
    for event in events {
        let key = event.attempt.clone().unwrap_or_else(|| event.batch.clone());
        let attempt = by_attempt.entry(key).or_insert_with(|| Attempt {
            writer: event.writer,
            epoch: event.epoch,
            batch: event.batch.clone(),
            began_ms: event.at_ms,
            answer: None,
            updates: 0,
        });
        match event.told {
            None => attempt.began_ms = event.at_ms,
            Some(told) => {
                attempt.answer = Some((event.at_ms, told));
                attempt.updates = event.updates;
            }
        }
    }
    by_attempt.into_values().collect()
}

/// The window a duplicate came through, read from which attempt's batch each commit of the epoch
/// holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DuplicateWindow {
    /// The same batch twice: one attempt landed twice (the library rebased a commit onto its
    /// own first delivery: a resend's or a double delivery's conflict read as another writer's).
    Resend,
    /// Another batch of the same writer: it offered the epoch again after its earlier attempt had
    /// landed unseen (a restart, or a retry after an unknown outcome whose commit was still in
    /// flight).
    Restart,
    /// A batch of another writer: two writers both found the epoch free.
    SecondWriter,
}

impl DuplicateWindow {
    /// The name the audit's JSON and summary use.
    pub fn name(self) -> &'static str {
        match self {
            DuplicateWindow::Resend => "resend",
            DuplicateWindow::Restart => "restart",
            DuplicateWindow::SecondWriter => "second-writer",
        }
    }
}

impl Serialize for DuplicateWindow {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Each commit of an epoch after its first, by the window it came through (`table` as
/// [`check`] reads it). A commit is judged by its batches as a whole: one batch that an earlier
/// commit of the epoch holds makes it a resend, one writer in common a restart; a batch no
/// writer's log names has no writer, so it counts as a second writer's. A commit of several
/// batches is a violation [`check`] reports on its own.
pub fn duplicate_windows(attempts: &[Attempt], table: &[(u64, BTreeSet<String>)]) -> Tally<DuplicateWindow> {
    let writer_of: BTreeMap<&str, usize> = attempts.iter().map(|a| (a.batch.as_str(), a.writer)).collect();
    let mut earlier: BTreeMap<u64, Vec<&BTreeSet<String>>> = BTreeMap::new();
    let mut windows = Tally::default();
    for (epoch, batches) in table {
        let before = earlier.entry(*epoch).or_default();
        if !before.is_empty() {
            let writers = |b: &BTreeSet<String>| -> BTreeSet<usize> {
                b.iter().filter_map(|batch| writer_of.get(batch.as_str()).copied()).collect()
            };
            let window = if before.iter().any(|b| !b.is_disjoint(batches)) {
                DuplicateWindow::Resend
            } else if before.iter().any(|b| !writers(b).is_disjoint(&writers(batches))) {
                DuplicateWindow::Restart
            } else {
                DuplicateWindow::SecondWriter
            };
            windows.count(window);
        }
        before.push(batches);
    }
    windows
}

/// What the check found: counts, and every inconsistency between an answer and the table.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, AddAssign)]
pub struct Check {
    pub attempts: usize,
    pub committed: usize,
    pub already_committed: usize,
    /// Errors, by kind.
    pub errors: Tally<ErrorKind>,
    /// Attempts whose writer died before the answer.
    pub died: usize,
    /// Epochs the table holds with a batch no writer was told was committed, whose writer died
    /// during the attempt or was told the outcome was unknown: resolved by the table.
    pub unknown_resolved: usize,
    pub violations: Listed<String>,
}

/// Checks every answer in `attempts` against `table` (each commit of the app, oldest first: its
/// epoch and the batch identities of its rows). A violation is:
/// - a commit whose rows are not one batch;
/// - `Committed` for a batch that is not the one the table holds for that epoch;
/// - for an arm that claims exactly-once, two writers told `Committed` for one epoch;
/// - an epoch held by a batch no writer offered, or whose writer was told anything but
///   `Committed` or an unknown outcome (or died before any answer);
/// - `AlreadyCommitted { committed }` below the epoch offered, naming an epoch the table never
///   held, or below an epoch some writer had already been told was committed when the attempt
///   began (a stale answer).
pub fn check(attempts: &[Attempt], table: &[(u64, BTreeSet<String>)], claims_exactly_once: bool) -> Check {
    let mut out = Check { attempts: attempts.len(), ..Check::default() };
    let mut held: BTreeMap<u64, Vec<&str>> = BTreeMap::new();
    for (epoch, batches) in table {
        if batches.len() != 1 {
            out.violations.push(format!("epoch {epoch}: a commit holds {} batches {batches:?}", batches.len()));
        }
        held.entry(*epoch).or_default().extend(batches.iter().map(String::as_str));
    }
    // Several attempts offer one batch where a run gives every attempt at an epoch the same rows
    // (`--same-batches`); otherwise each batch is one attempt's.
    let mut by_batch: BTreeMap<&str, Vec<&Attempt>> = BTreeMap::new();
    for attempt in attempts {
        by_batch.entry(attempt.batch.as_str()).or_default().push(attempt);
    }
    let mut told_committed: BTreeMap<u64, usize> = BTreeMap::new();
    // When each epoch was first acknowledged as committed, for the staleness rule.
    let mut acknowledged: Vec<(i64, u64)> = vec![];
    for attempt in attempts {
        match &attempt.answer {
            None => out.died += 1,
            Some((at, Told::Committed)) => {
                out.committed += 1;
                *told_committed.entry(attempt.epoch).or_default() += 1;
                acknowledged.push((*at, attempt.epoch));
                if !held.get(&attempt.epoch).is_some_and(|b| b.contains(&attempt.batch.as_str())) {
                    out.violations.push(format!(
                        "writer {} was told Committed for epoch {} (batch {}), which the table does not hold",
                        attempt.writer, attempt.epoch, attempt.batch
                    ));
                }
            }
            Some((_, Told::AlreadyCommitted { .. })) => out.already_committed += 1,
            Some((_, Told::Error { kind })) => out.errors.count(*kind),
        }
    }
    if claims_exactly_once {
        for (epoch, n) in told_committed.iter().filter(|(_, n)| **n > 1) {
            out.violations.push(format!("epoch {epoch}: {n} writers were told Committed"));
        }
    }
    for (epoch, batches) in &held {
        for batch in batches {
            let Some(offers) = by_batch.get(batch) else {
                out.violations.push(format!("epoch {epoch} holds batch {batch}, which no writer offered"));
                continue;
            };
            let answers: Vec<&Option<(i64, Told)>> = offers.iter().map(|a| &a.answer).collect();
            if answers.iter().any(|a| matches!(a, Some((_, Told::Committed)))) {
                continue;
            }
            match answers.iter().find(|a| a.as_ref().is_none_or(|(_, told)| told.outcome_unknown())) {
                Some(_) => out.unknown_resolved += 1,
                None => out.violations.push(format!(
                    "epoch {epoch} holds batch {batch}, whose writers were told {:?}",
                    answers.iter().filter_map(|a| a.as_ref().map(|(_, told)| told)).collect::<Vec<_>>()
                )),
            }
        }
    }
    acknowledged.sort();
    for attempt in attempts {
        let Some((_, Told::AlreadyCommitted { committed })) = &attempt.answer else { continue };
        let known = acknowledged.iter().take_while(|(at, _)| *at < attempt.began_ms).map(|(_, epoch)| *epoch).max();
        let stale = known.is_some_and(|known| *committed < known);
        if *committed < attempt.epoch || !held.contains_key(committed) || stale {
            out.violations.push(format!(
                "writer {} offered epoch {} and was told AlreadyCommitted {{ committed: {committed} }} \
                 (the table holds it: {}; already acknowledged then: {known:?})",
                attempt.writer,
                attempt.epoch,
                held.contains_key(committed),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(writer: usize, epoch: u64, batch: &str, began: i64, answer: Option<(i64, Told)>) -> Attempt {
        Attempt { writer, epoch, batch: batch.into(), began_ms: began, answer, updates: 1 }
    }

    fn table(rows: &[(u64, &str)]) -> Vec<(u64, BTreeSet<String>)> {
        rows.iter().map(|(e, b)| (*e, BTreeSet::from([b.to_string()]))).collect()
    }

    #[test]
    fn each_duplicate_is_attributed_to_its_window() {
        let attempts = [
            attempt(0, 1, "w0-a", 0, Some((1, Told::Committed))),
            attempt(0, 1, "w0-b", 2, Some((3, Told::Committed))),
            attempt(1, 1, "w1-a", 2, Some((3, Told::Committed))),
            attempt(0, 2, "w0-c", 4, Some((5, Told::Committed))),
        ];
        let table = table(&[(1, "w0-a"), (1, "w0-a"), (1, "w0-b"), (1, "w1-a"), (2, "w0-c")]);
        let windows = duplicate_windows(&attempts, &table);
        assert_eq!(windows.get(&DuplicateWindow::Resend), 1);
        assert_eq!(windows.get(&DuplicateWindow::Restart), 1);
        assert_eq!(windows.get(&DuplicateWindow::SecondWriter), 1);
        assert_eq!(windows.total(), 3);
    }

    #[test]
    fn a_consistent_history_has_no_violation_and_resolves_unknown_outcomes() {
        let attempts = vec![
            attempt(0, 1, "a1", 0, Some((10, Told::Committed))),
            attempt(1, 1, "b1", 5, Some((12, Told::AlreadyCommitted { committed: 1 }))),
            attempt(0, 2, "a2", 20, None),
            attempt(1, 2, "b2", 30, Some((40, Told::AlreadyCommitted { committed: 2 }))),
            attempt(1, 3, "b3", 50, Some((60, Told::Error { kind: ErrorKind::OutcomeUnknown }))),
            attempt(0, 3, "a3", 70, Some((80, Told::AlreadyCommitted { committed: 3 }))),
        ];
        let found = check(&attempts, &table(&[(1, "a1"), (2, "a2"), (3, "b3")]), true);
        assert!(found.violations.is_empty(), "{:?}", found.violations);
        assert_eq!((found.committed, found.already_committed, found.died, found.unknown_resolved), (1, 3, 1, 2));
        assert_eq!(found.errors.get(&ErrorKind::OutcomeUnknown), 1);
    }

    #[test]
    fn every_kind_of_inconsistency_is_a_violation() {
        let attempts = vec![
            // Told Committed, but the table holds another batch for epoch 1.
            attempt(0, 1, "a1", 0, Some((10, Told::Committed))),
            // Two writers told Committed for epoch 2.
            attempt(0, 2, "a2", 20, Some((30, Told::Committed))),
            attempt(1, 2, "b2", 21, Some((31, Told::Committed))),
            // Epoch 3 held by a batch whose writer was told the commit failed.
            attempt(1, 3, "b3", 40, Some((50, Told::Error { kind: ErrorKind::Storage }))),
            // Stale: began after epoch 2 was acknowledged, told only 1 was committed.
            attempt(2, 1, "c1", 40, Some((45, Told::AlreadyCommitted { committed: 1 }))),
            // Below the epoch offered.
            attempt(2, 4, "c4", 60, Some((65, Told::AlreadyCommitted { committed: 3 }))),
        ];
        let held = table(&[(1, "x1"), (2, "a2"), (2, "b2"), (3, "b3"), (4, "zz")]);
        let found = check(&attempts, &held, true);
        let has = |needle: &str| found.violations.iter().any(|v| v.contains(needle));
        assert!(has("writer 0 was told Committed for epoch 1"), "{:?}", found.violations);
        assert!(has("epoch 2: 2 writers were told Committed"));
        assert!(has("epoch 3 holds batch b3, whose writers were told [Error"));
        assert!(has("epoch 1 holds batch x1, which no writer offered"));
        assert!(has("epoch 4 holds batch zz, which no writer offered"));
        assert!(has("writer 2 offered epoch 1 and was told AlreadyCommitted { committed: 1 }"));
        assert!(has("writer 2 offered epoch 4 and was told AlreadyCommitted { committed: 3 }"));
        // The naive arm is not held to exactly-once, but still to the rest.
        let naive = check(&attempts, &held, false);
        assert!(!naive.violations.iter().any(|v| v.contains("writers were told Committed")));
        assert_eq!(naive.violations.len(), found.violations.len() - 1);
    }

    #[test]
    fn one_batch_offered_by_several_attempts_is_held_by_the_one_told_committed() {
        let attempts = vec![
            attempt(0, 1, "e1", 0, Some((10, Told::AlreadyCommitted { committed: 1 }))),
            attempt(1, 1, "e1", 0, Some((9, Told::Committed))),
            attempt(2, 2, "e2", 20, None),
            attempt(0, 3, "e3", 30, Some((40, Told::AlreadyCommitted { committed: 3 }))),
        ];
        let found = check(&attempts, &table(&[(1, "e1"), (2, "e2"), (3, "e3")]), true);
        assert_eq!(found.unknown_resolved, 1);
        assert_eq!(found.violations.len(), 1, "{:?}", found.violations);
        assert!(found.violations.0[0].contains("epoch 3 holds batch e3, whose writers were told [AlreadyCommitted"));
    }

    #[test]
    fn events_pair_into_attempts_by_batch() {
        let event = |batch: &str, at, told| Event {
            writer: 0,
            app: "a".into(),
            epoch: 1,
            batch: batch.into(),
            attempt: None,
            at_ms: at,
            told,
            loads: 0,
            updates: 0,
        };
        let paired = attempts(vec![event("x", 1, None), event("y", 2, None), event("x", 3, Some(Told::Committed))]);
        assert_eq!(paired.len(), 2);
        assert_eq!(paired[0].answer, Some((3, Told::Committed)));
        assert_eq!(paired[1].answer, None);
        let line = serde_json::to_string(&event("x", 3, Some(Told::AlreadyCommitted { committed: 4 }))).unwrap();
        assert!(line.contains(r#""told":"already-committed","committed":4"#), "{line}");
    }
}

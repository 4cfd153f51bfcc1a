//! Turns in a mixed race (`stress --turns`): which side, the Rust writers or the peers, tries an
//! epoch first, so that neither implementation's speed decides whether the race mixes at all.
//!
//! Without turns the faster side can take every epoch: on a loaded 2-core machine three
//! debug-build `delta` writers lost all 40 epochs to one `deltalake-python` peer (a release
//! build), and a run that proves nothing about Rust writers among peers passed as a mixed race.
//! With turns every epoch ≡ 2 (mod 3) is the Rust writers' first, every epoch ≡ 0 the peers':
//! the other side tries it only once an attempt of the first side at it, or at a later epoch, has
//! ended (answered, whatever the answer; a writer killed mid-attempt does not end it, its restart
//! does). Epochs ≡ 1 are free races, where the two implementations contend on the same epoch.
//! The wait is a barrier, not a priority: if the first side's attempt fails, both sides race.
//! On the peers' epochs the peers take turns too, so that one fast implementation cannot take
//! every peer epoch: epoch `e` is led by peer `W + (e / 3) % P` (W Rust writers, P peers), whose
//! answer the other peers wait for. The peers' `stress-worker --turns W --peers P`
//! (`docs/peer-protocol.md`) is their half of the rule.

use std::path::Path;
use std::time::Duration;

use super::history::{self, Attempt};

/// The two sides of a mixed race; writer ids below the run's Rust writer count are Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Rust,
    Peers,
}

/// The side that tries `epoch` first, or `None` for a free race.
pub fn first(epoch: u64) -> Option<Side> {
    match epoch % 3 {
        2 => Some(Side::Rust),
        0 => Some(Side::Peers),
        _ => None,
    }
}

/// Waits until `side` may try `epoch` in the run whose writer logs are in `logs`, with `writers`
/// Rust writers. Returns at once on a free epoch or on the side's own turn.
pub async fn wait(logs: &Path, writers: usize, side: Side, epoch: u64) {
    let Some(other) = first(epoch).filter(|s| *s != side) else { return };
    while !ended(logs, writers, other, epoch) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Whether a writer of `side` has logged the answer of an attempt at `epoch` or a later one.
fn ended(logs: &Path, writers: usize, side: Side, epoch: u64) -> bool {
    let Ok(entries) = std::fs::read_dir(logs) else { return false };
    entries.flatten().any(|entry| {
        let of_side = entry
            .file_name()
            .to_str()
            .and_then(history::log_writer)
            .is_some_and(|id| (id < writers) == (side == Side::Rust));
        of_side
            && std::fs::read_to_string(entry.path())
                .is_ok_and(|text| history::events(&text).any(|e| e.told.is_some() && e.epoch >= epoch))
    })
}

/// Epochs in which an answered attempt of a Rust writer (id below `writers`) and one of a peer
/// were in flight at the same moment: how often the two implementations really contended,
/// turns or not.
pub fn contended_epochs(attempts: &[Attempt], writers: usize) -> usize {
    let span = |a: &Attempt| a.answer.as_ref().map(|(at, _)| (a.began_ms, *at));
    let mut epochs: Vec<u64> = attempts
        .iter()
        .filter(|rust| rust.writer < writers)
        .filter_map(|rust| {
            let (began, ended) = span(rust)?;
            let peers = attempts.iter().filter(|p| p.writer >= writers && p.epoch == rust.epoch);
            peers.filter_map(span).any(|(b, e)| b <= ended && began <= e).then_some(rust.epoch)
        })
        .collect();
    epochs.sort();
    epochs.dedup();
    epochs.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(dir: &Path, id: usize, lines: &[&str]) {
        std::fs::write(history::log_file(dir, id), lines.join("\n")).unwrap();
    }

    const BEGUN: &str = r#"{"writer":0,"app":"a","epoch":2,"batch":"b","at_ms":1}"#;
    const ANSWERED: &str = r#"{"writer":0,"app":"a","epoch":2,"batch":"b","at_ms":2,"told":"committed"}"#;

    fn attempt(writer: usize, epoch: u64, began_ms: i64, answered: Option<i64>) -> Attempt {
        let answer = answered.map(|at| (at, history::Told::Committed));
        Attempt { writer, epoch, batch: format!("w{writer}-e{epoch}-{began_ms}"), began_ms, answer, updates: 1 }
    }

    #[test]
    fn only_overlapping_answered_attempts_of_both_sides_contend() {
        // Writers 0 and 1 are Rust, 2 a peer.
        let attempts = [
            attempt(0, 1, 10, Some(20)),
            attempt(2, 1, 15, Some(30)), // overlaps writer 0 at epoch 1
            attempt(1, 1, 12, Some(18)), // a second overlap at the same epoch counts once
            attempt(0, 2, 40, Some(50)),
            attempt(2, 2, 51, Some(60)), // after the Rust attempt ended
            attempt(1, 3, 70, None),     // killed: no span
            attempt(2, 3, 71, Some(80)),
            attempt(0, 4, 90, Some(95)),
            attempt(1, 4, 91, Some(99)), // two Rust writers: not a mix
        ];
        assert_eq!(contended_epochs(&attempts, 2), 1);
    }

    #[test]
    fn every_side_goes_first_on_a_third_of_the_epochs() {
        let firsts: Vec<_> = (1..=6).map(first).collect();
        assert_eq!(firsts, [None, Some(Side::Rust), Some(Side::Peers), None, Some(Side::Rust), Some(Side::Peers)]);
    }

    #[test]
    fn only_an_answered_attempt_of_the_other_side_ends_its_turn() {
        let dir = tempfile::tempdir().unwrap();
        // Writer 1 is a peer in a run of one Rust writer: its answer is not the Rust side's.
        log(dir.path(), 1, &[ANSWERED]);
        log(dir.path(), 0, &[BEGUN, r#"{"writer":0,"app":"a","epoch":2,"batch":"c","at"#]);
        assert!(!ended(dir.path(), 1, Side::Rust, 2), "begun and cut lines end nothing");
        assert!(ended(dir.path(), 1, Side::Peers, 2));
        assert!(!ended(dir.path(), 1, Side::Peers, 3), "an answer at an earlier epoch");
        log(dir.path(), 0, &[BEGUN, ANSWERED]);
        assert!(ended(dir.path(), 1, Side::Rust, 2));
    }
}

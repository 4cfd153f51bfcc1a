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
//! `interop/peer.py` (`stress-worker --turns`) is the peers' half of the same rule.

use std::path::Path;
use std::time::Duration;

use super::history::Event;

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

/// Whether a writer of `side` has logged the answer of an attempt at `epoch` or a later one. A
/// line cut by a kill does not parse and counts for nothing.
fn ended(logs: &Path, writers: usize, side: Side, epoch: u64) -> bool {
    let Ok(entries) = std::fs::read_dir(logs) else { return false };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let Some(id) = name.to_str().and_then(|n| n.strip_prefix("writer-")?.strip_suffix(".jsonl")?.parse::<usize>().ok()) else {
            return false;
        };
        if (id < writers) != (side == Side::Rust) {
            return false;
        }
        std::fs::read_to_string(entry.path()).is_ok_and(|text| {
            text.lines()
                .filter_map(|l| serde_json::from_str::<Event>(l).ok())
                .any(|e| e.told.is_some() && e.epoch >= epoch)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(dir: &Path, id: usize, lines: &[&str]) {
        std::fs::write(dir.join(format!("writer-{id}.jsonl")), lines.join("\n")).unwrap();
    }

    const BEGUN: &str = r#"{"writer":0,"app":"a","epoch":2,"batch":"b","at_ms":1}"#;
    const ANSWERED: &str = r#"{"writer":0,"app":"a","epoch":2,"batch":"b","at_ms":2,"told":"committed"}"#;

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

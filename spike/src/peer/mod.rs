//! The peer arms: other implementations of the same conditional commit, measured in the same
//! scenarios, on the same tables and catalogs, as this project's arms.
//!
//! Each peer is a Python process (`interop/peer.py`, run with the venv `scripts/interop-venv`
//! builds from `interop/requirements.txt`): `pyiceberg-naive` and `pyiceberg-owned-loop` on
//! pyiceberg, `deltalake-python` on the `deltalake` package (delta-rs). They read and write the
//! same summary keys and watermark property as the Iceberg arms, on tables the Rust fixtures
//! create (the stock build's for Iceberg, [`crate::delta::DeltaFixture`] for Delta). In the
//! suite a peer is a [`CommitSink`](crate::sink::CommitSink) like any arm ([`PeerSink`]); in
//! `stress` peer processes race Rust writers on one table (`crate::stress`, `--peer`).
//!
//! Peers are measured beside the arms, not in `verdict` or the kill list: the question is what
//! iceberg-rust lets a caller build, `verdict` must run with nothing but a Rust toolchain, and a
//! peer's result is a comparison, not a kill condition. `scripts/test` builds the venv first.
//!
//! Limits: a peer's check runs in Python and is observed through the protocol (its
//! `check-passed` and `swap-reached` events), so the held windows hold it exactly where the
//! Rust arms are held; its failpoints do not exist (a peer dies by SIGKILL in the mixed race
//! instead), and it reaches a catalog directly, never through the fault proxy.

mod sink;

use std::path::PathBuf;

pub use sink::{PeerSink, Pool};

use crate::catalogs::CatalogKind;

/// The peer arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Peer {
    /// pyiceberg: load, check, append with the library's retry as the table configures it.
    PyicebergNaive,
    /// pyiceberg: the library's retry off for its own commits; on `CommitFailedException` it
    /// reloads, checks again and retries (the Python twin of `iceberg-requirement`).
    PyicebergOwnedLoop,
    /// deltalake: `write_deltalake` with a `txn` (`CommitProperties(app_transactions=...)`) on
    /// the table the version was read from; on `CommitFailedError` reload and check again.
    DeltalakePython,
}

/// The file the peers run from.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../interop/peer.py");

/// The pinned versions the venv installs: the one place they are written.
const REQUIREMENTS: &str = include_str!("../../../interop/requirements.txt");

impl Peer {
    pub const ALL: [Peer; 3] = [Peer::PyicebergNaive, Peer::PyicebergOwnedLoop, Peer::DeltalakePython];

    pub fn name(self) -> &'static str {
        match self {
            Peer::PyicebergNaive => "pyiceberg-naive",
            Peer::PyicebergOwnedLoop => "pyiceberg-owned-loop",
            Peer::DeltalakePython => "deltalake-python",
        }
    }

    pub fn named(name: &str) -> Option<Peer> {
        Peer::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether it writes Iceberg (otherwise Delta).
    pub fn iceberg(self) -> bool {
        !matches!(self, Peer::DeltalakePython)
    }

    /// The Python package it commits with.
    pub fn library(self) -> &'static str {
        if self.iceberg() { "pyiceberg" } else { "deltalake" }
    }

    /// The library's version, as `interop/requirements.txt` pins it.
    pub fn version(self) -> &'static str {
        REQUIREMENTS
            .lines()
            .filter(|line| line.starts_with(self.library()))
            .find_map(|line| line.split_once("==").map(|(_, version)| version.trim()))
            .expect("interop/requirements.txt pins every peer's library")
    }

    pub fn claims_exactly_once(self) -> bool {
        !matches!(self, Peer::PyicebergNaive)
    }

    /// The catalogs another process's pyiceberg can reach a table on (`memory` is one
    /// process's; PostgreSQL would need a driver the venv does not install). Empty for Delta.
    pub fn catalogs(self) -> &'static [CatalogKind] {
        if self.iceberg() { &[CatalogKind::Sqlite, CatalogKind::Rest] } else { &[] }
    }

    /// Why a scenario of the suite cannot run on this peer, if it cannot. Every other scenario
    /// runs as it runs on the Rust arms.
    pub fn not_applicable(self, scenario: &str) -> Option<&'static str> {
        match scenario {
            "catalog_unavailable" => {
                Some("its outages are made on a Rust writer's own catalog connection (a lock it takes, the fault proxy, its credentials)")
            }
            "aborted_commit_loses_nothing" => {
                Some("its failpoints are in the Rust write path; a peer dies by SIGKILL in the mixed race instead")
            }
            "lost_response" => Some("the fault proxy sits in front of the Rust writers' REST client only"),
            "held_at_swap" if !self.iceberg() => {
                Some("delta-rs attempts the log's next version inside its Rust commit, which no Python hook reaches")
            }
            _ => None,
        }
    }
}

/// The Python that runs the peers: `$BARRIER_PEER_PYTHON` (scripts/test exports the one
/// `scripts/interop-venv` built), else this checkout's `target/interop-venv`. An error says why
/// there is none (`$BARRIER_PEER_PYTHON_UNAVAILABLE`, which scripts/test sets when the venv
/// could not be built, or how to build it).
pub fn python() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os("BARRIER_PEER_PYTHON") {
        return Ok(python.into());
    }
    if let Ok(why) = std::env::var("BARRIER_PEER_PYTHON_UNAVAILABLE") {
        return Err(why);
    }
    let venv = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/interop-venv/bin/python"));
    if venv.exists() {
        Ok(venv)
    } else {
        Err("no Python for the peers: BARRIER_PEER_PYTHON is not set and target/interop-venv is missing (scripts/interop-venv builds it; scripts/test does)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_peer_names_its_pinned_library() {
        assert_eq!(Peer::PyicebergNaive.version(), "0.12.0");
        assert_eq!(Peer::DeltalakePython.version(), "1.6.6");
        for peer in Peer::ALL {
            assert_eq!(Peer::named(peer.name()), Some(peer));
        }
    }

    #[test]
    fn scenarios_a_peer_cannot_run_are_named_with_the_reason() {
        for peer in Peer::ALL {
            for scenario in ["catalog_unavailable", "aborted_commit_loses_nothing", "lost_response"] {
                assert!(peer.not_applicable(scenario).is_some(), "{} {scenario}", peer.name());
            }
            for scenario in ["replay_writes_nothing", "held_window", "contention_probe", "epochs_survive_expiry"] {
                assert_eq!(peer.not_applicable(scenario), None, "{} {scenario}", peer.name());
            }
        }
        assert!(Peer::DeltalakePython.not_applicable("held_at_swap").is_some());
        assert_eq!(Peer::PyicebergOwnedLoop.not_applicable("held_at_swap"), None);
    }
}

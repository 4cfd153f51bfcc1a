//! What a stress run is asked to do, and the names its command line gives arms and catalogs.

use std::time::Duration;

use barrier_harness::{Arm, CatalogKind, Peer};
use barrier_sink::AppId;

#[derive(Clone, Debug)]
pub struct StressOptions {
    pub writers: usize,
    pub epochs: u64,
    /// SIGKILLs the parent sends, in all, at random moments.
    pub kills: usize,
    /// Probability that a writer aborts at each failpoint it passes.
    pub fault_rate: f64,
    /// Probability that a write of a table file fails (Iceberg; a quarter of those leave half
    /// the file).
    pub storage_fault_rate: f64,
    /// Times the catalog server is killed with SIGKILL and brought back (`postgres`, `rest`).
    pub server_kills: usize,
    /// Probability that the fault proxy applies a fault to a commit request (`rest`).
    pub proxy_fault_rate: f64,
    pub deadline: Duration,
    pub seed: u64,
    /// Peer writer processes, one per entry, racing the `writers` Rust ones ([`peers`]).
    pub peers: Vec<Peer>,
    /// With peers: the two sides take turns at trying epochs first ([`turns`]).
    pub turns: bool,
    /// SIGSTOPs the parent sends, in all, at random moments; each writer is resumed 0.2 to 5 s
    /// later (`super::pauses`).
    pub pauses: usize,
    /// Probability that a writer stops itself (SIGSTOP) right after its epoch check passes, to
    /// be resumed by the parent 0.2 to 5 s later: a paused process between its check and its swap.
    pub pause_after_check: f64,
    /// Every attempt at an epoch offers the same rows, as a source that replays deterministically
    /// does (the default gives each attempt a batch of its own, so that the outcome check can
    /// tell whose batch the table holds; with this it can still tell how many).
    pub same_batches: bool,
}

/// The HTTP timeout of writers behind the fault proxy: one of its faults holds a commit until
/// the writer gives up, which should not take long.
pub(super) const PROXIED_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) fn app() -> AppId {
    AppId::new("stress").expect("not empty")
}

/// The arm named `label` (`iceberg-naive@patched` for the patched build's naive arm), for a
/// command line.
pub fn parse_arm(label: &str) -> Result<Arm, String> {
    Arm::labelled(label).ok_or_else(|| format!("unknown arm {label}"))
}

/// A catalog several processes can share, for a command line.
pub fn parse_catalog(name: &str) -> Result<CatalogKind, String> {
    match CatalogKind::named(name) {
        Some(kind) if kind.shared() => Ok(kind),
        _ => {
            let shared: Vec<&str> = CatalogKind::ALL.iter().filter(|c| c.shared()).map(|c| c.name()).collect();
            Err(format!("{name}: one of {} (a catalog several processes share)", shared.join(", ")))
        }
    }
}

//! Observation and control points that every arm calls at the same moments of a commit.
//!
//! A sink calls [`Hooks::epoch_check_passed`] right after its epoch check finds the epoch free
//! (wherever that check really runs: in the sink, inside the decorated catalog's load, inside the
//! transaction action), [`Hooks::swap_reached`] right before the catalog's compare-and-swap is
//! called (Delta: the log's next version is attempted), and [`Hooks::committed`] once its commit is
//! durable. Tests use the first two to hold a writer in a window ([`HeldWindow`]): between its
//! check and its commit, or with every check passed and only the catalog's own check left; and
//! the first and last to measure whether two writers really overlapped ([`Lane`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tokio::sync::Notify;

/// What a sink reports to and waits for. The default observes nothing and holds nothing.
#[derive(Clone, Default)]
pub struct Hooks {
    window: Option<Arc<HeldWindow>>,
    swap_window: Option<Arc<HeldWindow>>,
    lane: Option<Arc<Lane>>,
    after_check: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl Hooks {
    pub fn with_window(mut self, window: Arc<HeldWindow>) -> Self {
        self.window = Some(window);
        self
    }

    /// Holds the writer right before the catalog's compare-and-swap.
    pub fn with_swap_window(mut self, window: Arc<HeldWindow>) -> Self {
        self.swap_window = Some(window);
        self
    }

    /// The window right before the swap, if the writer is to be held there.
    pub fn swap_window(&self) -> Option<Arc<HeldWindow>> {
        self.swap_window.clone()
    }

    /// Called by a sink right before the catalog's compare-and-swap.
    pub async fn swap_reached(&self) {
        if let Some(window) = &self.swap_window {
            window.hold().await;
        }
    }

    /// Runs `action` each time the epoch check passes, before any window holds the writer
    /// (`stress` stops a writer there now and then: a paused process between check and swap).
    pub fn with_after_check(mut self, action: Arc<dyn Fn() + Send + Sync>) -> Self {
        self.after_check = Some(action);
        self
    }

    pub fn with_lane(mut self, lane: Arc<Lane>) -> Self {
        self.lane = Some(lane);
        self
    }

    /// Called by a sink right after its epoch check found the epoch free.
    pub async fn epoch_check_passed(&self) {
        if let Some(lane) = &self.lane {
            lane.record_check();
        }
        if let Some(action) = &self.after_check {
            action();
        }
        if let Some(window) = &self.window {
            window.hold().await;
        }
    }

    /// Called by a sink once its commit is durable.
    pub fn committed(&self) {
        if let Some(lane) = &self.lane {
            lane.record_commit();
        }
    }
}

/// Holds the first writer that reaches it until the test releases it; later passes go through.
///
/// One-shot on purpose: an arm whose check runs inside a retry loop passes the window again on
/// the retry, and that second pass must see the table as it is, not wait.
#[derive(Default)]
pub struct HeldWindow {
    armed: AtomicBool,
    reached: Notify,
    released: Notify,
}

impl HeldWindow {
    pub fn new() -> Arc<Self> {
        let window = Self::default();
        window.armed.store(true, Ordering::SeqCst);
        Arc::new(window)
    }

    async fn hold(&self) {
        if self.armed.swap(false, Ordering::SeqCst) {
            // Registered before signalling, so a release that follows `reached` cannot be missed.
            let released = self.released.notified();
            self.reached.notify_one();
            released.await;
        }
    }

    /// Resolves once a writer is held in the window.
    pub async fn reached(&self) {
        self.reached.notified().await;
    }

    /// Lets the held writer go on.
    pub fn release(&self) {
        self.released.notify_one();
    }
}

/// Round trips: Iceberg catalog loads and updates (a counting `CommitCatalog`), Delta table loads
/// and attempts at the log's next version (`DeltaSink::counting`). Benchmarks report them next to
/// the times: a check that costs a round trip shows up here before it shows up in a median.
#[derive(Debug, Default)]
pub struct CallCounts {
    loads: AtomicU64,
    updates: AtomicU64,
}

impl CallCounts {
    /// Counts a load of the table (Iceberg: the catalog's `load_table`).
    pub fn load(&self) {
        self.loads.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an attempt at the swap (Iceberg: the catalog's `update_table`).
    pub fn update(&self) {
        self.updates.fetch_add(1, Ordering::Relaxed);
    }

    /// The loads and updates counted since the last call, and zeroes them.
    pub fn take(&self) -> (u64, u64) {
        (self.loads.swap(0, Ordering::SeqCst), self.updates.swap(0, Ordering::SeqCst))
    }
}

/// A shared logical clock for one race round, so that lanes can be ordered.
#[derive(Default)]
pub struct Round {
    clock: AtomicU64,
}

impl Round {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    pub fn lane(self: &Arc<Self>) -> Arc<Lane> {
        Arc::new(Lane {
            round: Arc::clone(self),
            first_check: AtomicU64::new(u64::MAX),
            commit: AtomicU64::new(u64::MAX),
        })
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::SeqCst)
    }
}

/// One writer's view of a round: when it first passed its check, when it committed.
pub struct Lane {
    round: Arc<Round>,
    first_check: AtomicU64,
    commit: AtomicU64,
}

impl Lane {
    fn record_check(&self) {
        let now = self.round.tick();
        let _ = self.first_check.compare_exchange(u64::MAX, now, Ordering::SeqCst, Ordering::SeqCst);
    }

    fn record_commit(&self) {
        self.commit.store(self.round.tick(), Ordering::SeqCst);
    }

    /// Whether every lane passed its check before any lane committed: the state in which a
    /// duplicate can be born, and the only one in which a concurrency test tests anything.
    pub fn overlapped(lanes: &[Arc<Lane>]) -> bool {
        let last_check = lanes.iter().map(|l| l.first_check.load(Ordering::SeqCst)).max();
        let first_commit = lanes.iter().map(|l| l.commit.load(Ordering::SeqCst)).min();
        match (last_check, first_commit) {
            (Some(check), Some(commit)) => check != u64::MAX && check < commit,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_means_every_check_before_the_first_commit() {
        let round = Round::new();
        let (a, b) = (round.lane(), round.lane());
        a.record_check();
        b.record_check();
        a.record_commit();
        assert!(Lane::overlapped(&[Arc::clone(&a), Arc::clone(&b)]));

        let round = Round::new();
        let (a, b) = (round.lane(), round.lane());
        a.record_check();
        a.record_commit();
        b.record_check();
        assert!(!Lane::overlapped(&[a, b]));
    }

    #[test]
    fn a_writer_that_never_checked_did_not_overlap() {
        let round = Round::new();
        let (a, b) = (round.lane(), round.lane());
        a.record_check();
        a.record_commit();
        assert!(!Lane::overlapped(&[a, b]));
    }
}

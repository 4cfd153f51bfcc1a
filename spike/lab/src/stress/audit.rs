//! What a stress run found: what its parent counted, what the table holds, and how every answer
//! a writer was given compares with the table.

use std::collections::BTreeMap;
use std::ops::AddAssign;
use std::path::Path;

use barrier_harness::leftovers::{self, LeftBehind};
use barrier_harness::proxy::Fault;
use barrier_harness::run::RunInfo;
use barrier_harness::{Error, Fixture, Target};
use barrier_sink::{ErrorKind, Failpoint};
use derive_more::AddAssign;
use serde::Serialize;

use super::history::{self, Check, DuplicateWindow, Told, attempts, check, duplicate_windows};
use super::options::{StressOptions, app};
use super::tally::{Listed, Tally, Union};
use super::{pauses, turns};

/// What the run's parent counted of its writers and the faults it injected.
#[derive(Clone, Debug, Default, Serialize, AddAssign)]
pub struct Counted {
    /// Rounds of a soak (fresh tables); 1 for a single run.
    pub rounds: usize,
    pub attempts: usize,
    /// The peers' share of the attempts, and of the answers `Committed`: the proof that they
    /// really took part.
    pub peer_attempts: usize,
    pub peer_committed: usize,
    /// The peers' answers `Committed`, by peer: which implementations really won epochs.
    pub peer_committed_by: Tally<String>,
    /// Epochs a Rust writer and a peer were attempting at the same moment (two answered
    /// attempts whose spans overlap): how often the two implementations really contended.
    pub mixed_epochs: usize,
    /// Swaps attempted but not won: Iceberg catalog `update_table` calls, Delta attempts at the
    /// log's next version. The writers really contended at least this often (an attempt whose
    /// process died before it logged is not counted).
    pub lost_swaps: u64,
    pub kills: usize,
    /// Writers that died on their own: a failpoint's abort.
    pub crashes: usize,
    /// Aborts per failpoint, as the aborting writers recorded them. A writer SIGKILLed between
    /// recording and aborting is in both this and `kills`, so the sum can exceed `crashes`.
    pub crashes_at: Tally<Failpoint>,
    /// Failpoints of the target no writer died at: a run with any is not evidence of that step.
    pub unreached_failpoints: Union<Failpoint>,
    /// Writers that gave up after too many errors in a row (restarted like the others).
    pub error_exits: usize,
    /// Writers that stopped as stalled: told for 15 s without a break that another attempt
    /// claims their epoch (`EpochClaimed`), and not restarted. Only an arm whose hazards say it
    /// stalls may have any.
    pub stalled_writers: usize,
    pub restarts: usize,
    /// Times the catalog server was killed and brought back.
    pub server_restarts: usize,
    /// SIGSTOPs the parent sent at random moments ([`super::pauses`]).
    pub pauses: usize,
    /// Times a writer stopped itself right after its epoch check passed: a pause that surely
    /// landed between a writer's check and its swap.
    pub pauses_after_check: usize,
    /// Faults the proxy applied to commit requests.
    pub proxy_faults: Tally<Fault>,
    pub seconds: f64,
}

/// What the table holds at the end of the run.
#[derive(Clone, Debug, Default, Serialize, AddAssign)]
pub struct Held {
    /// Epochs the table records more than once, and how many extra times in all.
    pub duplicated_epochs: usize,
    pub duplicates: usize,
    /// The duplicates by the window each came through.
    pub duplicates_by_window: Tally<DuplicateWindow>,
    pub lost_epochs: Listed<u64>,
    pub rows: u64,
    pub rows_expected: u64,
    /// Files no version of the table references (see [`leftovers`]). For Iceberg this also
    /// counts metadata files of real versions that fell out of the metadata log
    /// (`write.metadata.previous-versions-max`, 100), which only runs of more versions reach.
    pub left_behind: Listed<LeftBehind>,
}

/// What the audit found in one arm's table, and how every answer compared with it.
#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    pub arm: &'static str,
    /// `stock` or `patched` for Iceberg arms, the Delta crate for Delta's.
    pub build: &'static str,
    pub catalog: &'static str,
    /// The peer writers that raced the arm's, one entry per process.
    pub peers: Vec<&'static str>,
    /// Whether the Rust writers and the peers took turns at trying epochs first ([`turns`]).
    pub turns: bool,
    /// Whether every writer claims exactly-once: the arm and every peer.
    pub claims_exactly_once: bool,
    /// Why the arm can stall, if it can (`Hazards::stalls`): then its stuck writers stop and
    /// the epochs they never committed are not counted against it, its duplicates and
    /// violations are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalls: Option<&'static str>,
    /// Whether every attempt at an epoch offered the same rows (`--same-batches`).
    pub same_batches: bool,
    pub epochs: u64,
    #[serde(flatten)]
    pub counted: Counted,
    #[serde(flatten)]
    pub held: Held,
    /// Every answer checked against the table ([`history::check`]); injected storage failures
    /// are the `Storage` errors.
    pub outcomes: Check,
    pub finished: bool,
    pub run: RunInfo,
}

impl AddAssign for Audit {
    /// A later round of the same target.
    fn add_assign(&mut self, round: Audit) {
        self.counted += round.counted;
        self.held += round.held;
        self.outcomes += round.outcomes;
        self.finished &= round.finished;
    }
}

impl Audit {
    /// Whether the arm kept its claim, in a run that crashed a writer at every step of a commit
    /// and lost nothing: no duplicate, and no writer given an answer the table contradicts. An
    /// arm that claims nothing (`iceberg-naive`) only has to finish and lose nothing; its
    /// duplicates and violations are reported.
    pub fn as_expected(&self) -> bool {
        let Held { duplicates, rows, rows_expected, lost_epochs, .. } = &self.held;
        let stalled = self.counted.stalled_writers > 0;
        // Only where replays differ: with the same batches an arm that stalls must not.
        let expected_stall = stalled && self.stalls.is_some() && !self.same_batches;
        // A stalled run lost the epochs from the stall on, and reached no step beyond it.
        let (progressed, reached, rows_expected) = if expected_stall {
            (true, true, rows_expected - lost_epochs.len() as u64 * barrier_harness::batch::BATCH_ROWS as u64)
        } else {
            (!stalled && lost_epochs.is_empty(), self.counted.unreached_failpoints.0.is_empty(), *rows_expected)
        };
        self.finished
            && reached
            && progressed
            && (!self.claims_exactly_once
                || (*duplicates == 0 && *rows == rows_expected && self.outcomes.violations.is_empty()))
    }

    pub fn duplicates_per_thousand_attempts(&self) -> f64 {
        match self.counted.attempts {
            0 => 0.0,
            attempts => self.held.duplicates as f64 * 1000.0 / attempts as f64,
        }
    }

    /// The audit as `--json` and the soak's journal print it, with the rate of duplicates.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(self).expect("an audit serializes");
        json["duplicates_per_thousand_attempts"] = self.duplicates_per_thousand_attempts().into();
        json
    }

    /// The audit's one line, for progress and summaries.
    pub fn summary(&self) -> String {
        let (c, h) = (&self.counted, &self.held);
        let peers = if self.peers.is_empty() {
            String::new()
        } else {
            format!(
                "with peers {} ({} attempts, {} committed{}, {} epochs contended with a Rust writer{}): ",
                self.peers.join(", "),
                c.peer_attempts,
                c.peer_committed,
                c.peer_committed_by.0.iter().map(|(peer, n)| format!(", {n} by {peer}")).collect::<String>(),
                c.mixed_epochs,
                if self.turns { ", taking turns" } else { "" },
            )
        };
        let crashes_at: Vec<String> = c.crashes_at.0.iter().map(|(at, n)| format!("{at} {n}")).collect();
        format!(
            "{peers}{} attempts, {} lost swaps, {} kills, {} crashes ({}), {} pauses ({} right after a check), {} server restarts, {} proxy faults, {} storage faults, \
             {} unknown outcomes resolved, {} duplicates ({:.1} per 1000 attempts{}), {} lost{}, {} violations, rows {}/{}, left behind: {}",
            c.attempts,
            c.lost_swaps,
            c.kills,
            c.crashes,
            crashes_at.join(", "),
            c.pauses + c.pauses_after_check,
            c.pauses_after_check,
            c.server_restarts,
            c.proxy_faults.total(),
            self.outcomes.errors.get(&ErrorKind::Storage),
            self.outcomes.unknown_resolved,
            h.duplicates,
            self.duplicates_per_thousand_attempts(),
            windows(&h.duplicates_by_window),
            h.lost_epochs.len(),
            if c.stalled_writers > 0 { format!(" ({} writers stalled)", c.stalled_writers) } else { String::new() },
            self.outcomes.violations.len(),
            h.rows,
            h.rows_expected,
            leftovers::summary(&h.left_behind.0),
        )
    }
}

/// The duplicates by window, as the summary prints them: empty without any.
fn windows(by: &Tally<DuplicateWindow>) -> String {
    let windows: Vec<String> = by.0.iter().map(|(window, n)| format!("{} {n}", window.name())).collect();
    if windows.is_empty() { String::new() } else { format!("; {}", windows.join(", ")) }
}

/// Reads the writers' logs in `logs` and the table, checks one against the other, and counts
/// what the logs say of the writers: all of the audit but what the parent counted itself.
pub(super) async fn read(
    fixture: &Fixture,
    logs: &Path,
    options: &StressOptions,
    finished: bool,
    counted: Counted,
) -> Result<Audit, Error> {
    let mut events = vec![];
    let mut crashes_at = Tally::default();
    let mut stalled_writers = 0;
    for entry in std::fs::read_dir(logs).map_err(Error::io("logs"))? {
        let path = entry.map_err(Error::io("logs"))?.path();
        let text = std::fs::read_to_string(&path).map_err(Error::io(path.display().to_string()))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with("crashes-") {
            text.lines().filter_map(Failpoint::named).for_each(|at| crashes_at.count(at));
        } else if name.starts_with("stalls-") {
            stalled_writers += text.lines().count();
        } else {
            events.extend(history::events(&text));
        }
    }
    let attempts = attempts(events);
    let table: Vec<(u64, _)> = fixture
        .epoch_batches(&app())
        .await?
        .into_iter()
        .map(|(epoch, batches)| (epoch.get() as u64, batches))
        .collect();
    let target: Target = fixture.target;
    let claims = target.claims_exactly_once() && options.peers.iter().all(|p| p.spec().claims_exactly_once);
    let outcomes = check(&attempts, &table, claims);
    let of_peers: Vec<_> = attempts.iter().filter(|a| a.writer >= options.writers).collect();
    let committed: Vec<_> = of_peers.iter().filter(|a| matches!(a.answer, Some((_, Told::Committed)))).collect();
    let mut peer_committed_by = Tally::default();
    for attempt in &committed {
        peer_committed_by.count(options.peers[attempt.writer - options.writers].name().to_string());
    }
    let mut per_epoch: BTreeMap<u64, usize> = BTreeMap::new();
    for (epoch, _) in &table {
        *per_epoch.entry(*epoch).or_default() += 1;
    }
    let updates: u64 = attempts.iter().map(|a| a.updates).sum();
    let counted = Counted {
        rounds: 1,
        attempts: attempts.len(),
        peer_attempts: of_peers.len(),
        peer_committed: committed.len(),
        peer_committed_by,
        mixed_epochs: turns::contended_epochs(&attempts, options.writers),
        lost_swaps: updates.saturating_sub(outcomes.committed as u64),
        unreached_failpoints: Union(target.failpoints().iter().copied().filter(|p| crashes_at.get(p) == 0).collect()),
        crashes_at,
        pauses_after_check: pauses::after_check(logs),
        stalled_writers,
        ..counted
    };
    let held = Held {
        duplicated_epochs: per_epoch.values().filter(|n| **n > 1).count(),
        duplicates: per_epoch.values().map(|n| n - 1).sum(),
        duplicates_by_window: duplicate_windows(&attempts, &table),
        lost_epochs: Listed((1..=options.epochs).filter(|e| !per_epoch.contains_key(e)).collect()),
        rows: fixture.writer(Default::default()).await?.row_count().await?,
        rows_expected: options.epochs * barrier_harness::batch::BATCH_ROWS as u64,
        left_behind: Listed(fixture.left_behind().await?),
    };
    Ok(Audit {
        arm: target.name(),
        build: target.build_name(),
        catalog: target.catalog_name(),
        peers: options.peers.iter().map(|p| p.name()).collect(),
        turns: options.turns && !options.peers.is_empty(),
        claims_exactly_once: claims,
        stalls: target.stalls(),
        same_batches: options.same_batches,
        epochs: options.epochs,
        counted,
        held,
        outcomes,
        finished,
        run: RunInfo::now(),
    })
}

//! Many writer processes, killed and crashed at random, replaying overlapping epochs of one app
//! against one table, while the catalog server, the network and the storage fail too; then an
//! audit of what the table holds and a check of every answer a writer was given against it.
//!
//! The parent ([`run`]) creates the table, starts `writers` OS processes of the `stress` binary
//! ([`worker`]), SIGKILLs some of them at random moments and restarts every writer that died,
//! until each has walked the epochs up to the last one. Each worker arms the failpoints of a
//! commit (`Target::failpoints`) to abort the process the first time it passes each step and
//! then with probability `fault_rate` at every pass, and restarts from the table's committed
//! epoch, replaying it: exactly what a crashed sink does. On request the parent also kills the
//! catalog server with SIGKILL and brings it back (`server_kills`), puts the fault proxy between
//! the writers and a REST server with faults at random (`proxy_fault_rate`), and the writers'
//! storage fails writes at random (`storage_fault_rate`). With `peers`, writers of other
//! implementations join the race on the same table ([`peers`]). [`soak`] repeats runs on fresh
//! tables until a number of attempts is reached. Bounded in processes, restarts and time; it
//! stops by itself.

mod faults;
pub mod history;
mod peers;
mod turns;
mod worker;

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

pub use self::faults::PROXY_FAULTS;
use self::faults::{ServerFaults, proxy_for};
use self::history::{Check, attempts, check};
pub use self::worker::{Route, worker};
use crate::arms::{Arm, CatalogKind, Target};
use crate::error::SinkError;
use crate::fixture::Fixture;
use crate::leftovers::LeftBehind;
use crate::peer::Peer;
use crate::progress::Progress;
use crate::rng::XorShift;
use crate::run::RunInfo;
use crate::sink::AppId;
use crate::suite::BATCH_ROWS;

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
}

/// The HTTP timeout of writers behind the fault proxy: one of its faults holds a commit until
/// the writer gives up, which should not take long.
const PROXIED_TIMEOUT: Duration = Duration::from_secs(5);

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
    pub epochs: u64,
    /// Rounds of a soak (fresh tables); 1 for a single run.
    pub rounds: usize,
    pub attempts: usize,
    /// The peers' share of the attempts, and of the answers `Committed`: the proof that they
    /// really took part.
    pub peer_attempts: usize,
    pub peer_committed: usize,
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
    pub crashes_at: BTreeMap<String, usize>,
    /// Failpoints of the target no writer died at: a run with any is not evidence of that step.
    pub unreached_failpoints: Vec<&'static str>,
    /// Writers that gave up after too many errors in a row (restarted like the others).
    pub error_exits: usize,
    pub restarts: usize,
    /// Times the catalog server was killed and brought back.
    pub server_restarts: usize,
    /// Faults the proxy applied to commit requests, by kind.
    pub proxy_faults: BTreeMap<String, usize>,
    /// Every answer checked against the table (`history::check`); injected storage failures are
    /// the `Storage` errors.
    pub outcomes: Check,
    /// Epochs the table records more than once, and how many extra times in all.
    pub duplicated_epochs: usize,
    pub duplicates: usize,
    pub duplicates_per_thousand_attempts: f64,
    pub lost_epochs: Vec<u64>,
    pub rows: u64,
    pub rows_expected: u64,
    /// Files no version of the table references (see [`crate::leftovers`]). For Iceberg this
    /// also counts metadata files of real versions that fell out of the metadata log
    /// (`write.metadata.previous-versions-max`, 100), which only runs of more versions reach.
    pub left_behind: Vec<LeftBehind>,
    pub finished: bool,
    pub seconds: f64,
    pub run: RunInfo,
}

impl Audit {
    /// Whether the arm kept its claim, in a run that crashed a writer at every step of a commit
    /// and lost nothing: no duplicate, and no writer given an answer the table contradicts. An
    /// arm that claims nothing (`iceberg-naive`) only has to finish and lose nothing; its
    /// duplicates and violations are reported.
    pub fn as_expected(&self) -> bool {
        self.finished
            && self.unreached_failpoints.is_empty()
            && self.lost_epochs.is_empty()
            && (!self.claims_exactly_once
                || (self.duplicates == 0 && self.rows == self.rows_expected && self.outcomes.violations.is_empty()))
    }

    /// Adds a later round of the same target.
    fn add(&mut self, round: Audit) {
        let attempts = self.attempts + round.attempts;
        self.duplicates_per_thousand_attempts = if attempts == 0 {
            0.0
        } else {
            (self.duplicates + round.duplicates) as f64 * 1000.0 / attempts as f64
        };
        self.rounds += round.rounds;
        self.attempts = attempts;
        self.peer_attempts += round.peer_attempts;
        self.peer_committed += round.peer_committed;
        self.mixed_epochs += round.mixed_epochs;
        self.lost_swaps += round.lost_swaps;
        self.kills += round.kills;
        self.crashes += round.crashes;
        for (at, n) in round.crashes_at {
            *self.crashes_at.entry(at).or_default() += n;
        }
        self.unreached_failpoints.extend(round.unreached_failpoints);
        self.unreached_failpoints.sort();
        self.unreached_failpoints.dedup();
        self.error_exits += round.error_exits;
        self.restarts += round.restarts;
        self.server_restarts += round.server_restarts;
        for (fault, n) in round.proxy_faults {
            *self.proxy_faults.entry(fault).or_default() += n;
        }
        self.outcomes.add(&round.outcomes);
        self.duplicated_epochs += round.duplicated_epochs;
        self.duplicates += round.duplicates;
        self.lost_epochs.extend(round.lost_epochs);
        self.rows += round.rows;
        self.rows_expected += round.rows_expected;
        self.left_behind.extend(round.left_behind);
        self.left_behind.sort();
        self.finished &= round.finished;
        self.seconds += round.seconds;
    }

    /// The audit's one line, for progress and summaries.
    pub fn summary(&self) -> String {
        let peers = if self.peers.is_empty() {
            String::new()
        } else {
            format!(
                "with peers {} ({} attempts, {} committed, {} epochs contended with a Rust writer{}): ",
                self.peers.join(", "),
                self.peer_attempts,
                self.peer_committed,
                self.mixed_epochs,
                if self.turns { ", taking turns" } else { "" },
            )
        };
        format!(
            "{peers}{} attempts, {} lost swaps, {} kills, {} crashes ({}), {} server restarts, {} proxy faults, {} storage faults, \
             {} unknown outcomes resolved, {} duplicates ({:.1} per 1000 attempts), {} lost, {} violations, rows {}/{}, left behind: {}",
            self.attempts,
            self.lost_swaps,
            self.kills,
            self.crashes,
            self.crashes_at.iter().map(|(at, n)| format!("{at} {n}")).collect::<Vec<_>>().join(", "),
            self.server_restarts,
            self.proxy_faults.values().sum::<usize>(),
            self.outcomes.errors.get("Storage").copied().unwrap_or(0),
            self.outcomes.unknown_resolved,
            self.duplicates,
            self.duplicates_per_thousand_attempts,
            self.lost_epochs.len(),
            self.outcomes.violations.len(),
            self.rows,
            self.rows_expected,
            crate::leftovers::summary(&self.left_behind),
        )
    }
}

fn app() -> AppId {
    AppId::new("stress").expect("not empty")
}

/// The target a stress run uses for `arm`: Iceberg on `catalog` (a catalog several processes
/// share: `sqlite`, `postgres` or `rest`), Delta on the local filesystem.
pub fn target(arm: Arm, catalog: CatalogKind) -> Target {
    Target {
        arm,
        catalog: arm.build().map(|_| catalog),
    }
}

fn harness(what: &str) -> impl Fn(std::io::Error) -> SinkError + '_ {
    move |e| SinkError::Corrupt(format!("{what}: {e}"))
}

/// Runs `target` under `options` in `dir`, spawning workers from the executable `exe`.
pub async fn run(target: Target, dir: &Path, exe: &Path, options: &StressOptions) -> Result<Audit, SinkError> {
    let started = Instant::now();
    if let Some(why) = peers::unfit(target, &options.peers) {
        return Err(SinkError::Corrupt(format!("--peer: {why}")));
    }
    let fixture = Fixture::create(target, dir).await?;
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(harness("logs"))?;
    let location = fixture.location().await?;
    let proxy = proxy_for(target, options).await?;
    let route = Route {
        catalog_uri: proxy.as_ref().map(|p| p.url()),
        timeout: proxy.as_ref().map(|_| PROXIED_TIMEOUT),
    };
    let mut server = ServerFaults::for_target(target, options)?;
    let spawn = |id: usize| -> std::io::Result<Child> {
        if let Some(peer) = id.checked_sub(options.writers).map(|i| options.peers[i]) {
            return peers::command(peer, &location, options, id, dir)?.spawn();
        }
        let mut command = Command::new(exe);
        command
            .arg("worker")
            .args(["--arm", &crate::arms::arm_label(target.arm), "--catalog", target.catalog.unwrap_or(CatalogKind::Sqlite).name(), "--dir"])
            .arg(dir)
            .args(["--epochs", &options.epochs.to_string()])
            .args(["--fault-rate", &options.fault_rate.to_string()])
            .args(["--storage-faults", &options.storage_fault_rate.to_string()])
            .args(["--id", &id.to_string()]);
        if options.turns {
            command.args(["--turns", "--writers", &options.writers.to_string()]);
        }
        if let Some(uri) = &route.catalog_uri {
            command.args(["--catalog-uri", uri]);
        }
        if let Some(timeout) = route.timeout {
            command.args(["--timeout-ms", &timeout.as_millis().to_string()]);
        }
        command.stdout(Stdio::null()).stderr(Stdio::null()).spawn()
    };
    let mut rng = XorShift::new(options.seed);
    // Peers first, the Rust writers once the peers are ready, and the peers begin once the Rust
    // writers have: a race one side had run through before the other arrived would mix nothing.
    let peer_ids = options.writers..options.writers + options.peers.len();
    let mut children: Vec<Option<Child>> = (0..peer_ids.end).map(|_| None).collect();
    for id in peer_ids.clone() {
        children[id] = Some(spawn(id).map_err(harness("spawn writer"))?);
    }
    peers::wait_ready(dir, peer_ids, options.deadline).await?;
    for id in 0..options.writers {
        children[id] = Some(spawn(id).map_err(harness("spawn writer"))?);
    }
    peers::start(dir, 0..options.writers, options.deadline).await?;
    let (mut kills, mut crashes, mut error_exits, mut restarts) = (0, 0, 0, 0);
    let max_restarts = children.len() * (options.epochs as usize + options.kills + 4) + options.server_kills * children.len() * 4;
    // From now, not from the start: waiting for peers to get ready must not bring the first kill forward.
    let mut next_kill = started.elapsed() + Duration::from_millis(20 + rng.below(150));
    while children.iter().any(Option::is_some) && started.elapsed() < options.deadline {
        for id in 0..children.len() {
            let Some(child) = children[id].as_mut() else { continue };
            let Some(status) = child.try_wait().map_err(harness("wait"))? else {
                continue;
            };
            children[id] = None;
            if status.success() {
                continue;
            }
            // A failpoint aborts (a signal); a writer that gave up on errors exits with a code.
            if status.signal().is_some() {
                crashes += 1;
            } else {
                error_exits += 1;
            }
            if restarts < max_restarts {
                restarts += 1;
                children[id] = Some(spawn(id).map_err(harness("spawn writer"))?);
            }
        }
        if kills < options.kills && started.elapsed() >= next_kill {
            let running: Vec<usize> = (0..children.len()).filter(|i| children[*i].is_some()).collect();
            if !running.is_empty() {
                let victim = running[rng.below(running.len() as u64) as usize];
                // One that already exited is reaped (and counted) by the loop above, not killed.
                let alive = children[victim].as_mut().is_some_and(|c| matches!(c.try_wait(), Ok(None)));
                if let Some(child) = children[victim].as_mut().filter(|_| alive) {
                    // SIGKILL: no destructor, no flush, mid-step wherever it is.
                    let _ = child.kill();
                    let _ = child.wait();
                    // Counted as a kill, not a crash: crashes are the deaths the writer caused itself.
                    kills += 1;
                    children[victim] = None;
                    restarts += 1;
                    children[victim] = Some(spawn(victim).map_err(harness("spawn writer"))?);
                }
            }
            next_kill = started.elapsed() + Duration::from_millis(20 + rng.below(150));
        }
        if let Some(server) = server.as_mut() {
            server.maybe_kill(started.elapsed(), &mut rng).await?;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let finished = children.iter().all(Option::is_none);
    for child in children.iter_mut().flatten() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let server_restarts = server.as_ref().map_or(0, ServerFaults::restarts);
    let mut audit = audit(&fixture, &logs, options, finished).await?;
    audit.kills = kills;
    audit.crashes = crashes;
    audit.error_exits = error_exits;
    audit.restarts = restarts;
    audit.server_restarts = server_restarts;
    audit.proxy_faults = proxy.map(|p| p.applied().into_iter().map(|(k, v)| (k.to_string(), v)).collect()).unwrap_or_default();
    audit.seconds = started.elapsed().as_secs_f64();
    Ok(audit)
}

/// Reads the writers' logs and the table, and checks one against the other.
async fn audit(fixture: &Fixture, logs: &Path, options: &StressOptions, finished: bool) -> Result<Audit, SinkError> {
    let mut events = vec![];
    let mut crashes_at: BTreeMap<String, usize> = BTreeMap::new();
    for entry in std::fs::read_dir(logs).map_err(harness("logs"))? {
        let path = entry.map_err(harness("logs"))?.path();
        let text = std::fs::read_to_string(&path).map_err(harness("log"))?;
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("crashes-")) {
            for at in text.lines() {
                *crashes_at.entry(at.to_string()).or_default() += 1;
            }
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
    let target = fixture.target;
    let claims = target.arm.claims_exactly_once() && options.peers.iter().all(|p| p.claims_exactly_once());
    let outcomes = check(&attempts, &table, claims);
    let of_peers: Vec<_> = attempts.iter().filter(|a| a.writer >= options.writers).collect();
    let mut per_epoch: BTreeMap<u64, usize> = BTreeMap::new();
    for (epoch, _) in &table {
        *per_epoch.entry(*epoch).or_default() += 1;
    }
    let duplicates: usize = per_epoch.values().map(|n| n - 1).sum();
    let updates: u64 = attempts.iter().map(|a| a.updates).sum();
    Ok(Audit {
        arm: target.arm.name(),
        build: target.build_name(),
        catalog: target.catalog_name(),
        peers: options.peers.iter().map(|p| p.name()).collect(),
        claims_exactly_once: claims,
        epochs: options.epochs,
        rounds: 1,
        attempts: attempts.len(),
        peer_attempts: of_peers.len(),
        peer_committed: of_peers.iter().filter(|a| matches!(a.answer, Some((_, history::Told::Committed)))).count(),
        mixed_epochs: turns::contended_epochs(&attempts, options.writers),
        turns: options.turns && !options.peers.is_empty(),
        lost_swaps: updates.saturating_sub(outcomes.committed as u64),
        kills: 0,
        crashes: 0,
        unreached_failpoints: target
            .failpoints()
            .iter()
            .copied()
            .filter(|p| !crashes_at.contains_key(*p))
            .collect(),
        crashes_at,
        error_exits: 0,
        restarts: 0,
        server_restarts: 0,
        proxy_faults: BTreeMap::new(),
        duplicated_epochs: per_epoch.values().filter(|n| **n > 1).count(),
        duplicates,
        duplicates_per_thousand_attempts: if attempts.is_empty() {
            0.0
        } else {
            duplicates as f64 * 1000.0 / attempts.len() as f64
        },
        lost_epochs: (1..=options.epochs).filter(|e| !per_epoch.contains_key(e)).collect(),
        rows: fixture.writer(Default::default()).await?.row_count().await?,
        rows_expected: options.epochs * BATCH_ROWS as u64,
        left_behind: fixture.left_behind().await?,
        outcomes,
        finished,
        seconds: 0.0,
        run: RunInfo::now(),
    })
}

/// Runs `target` again and again, each round on a fresh table under `dir/round-N`, until the
/// rounds have made `attempts` attempts or one round is not as expected. Appends one JSON line
/// per round to `dir/soak.jsonl` (the options first) and reports each round's attempts to
/// `progress`.
pub async fn soak(
    target: Target,
    dir: &Path,
    exe: &Path,
    options: &StressOptions,
    attempts: usize,
    progress: &mut Progress,
) -> Result<Audit, SinkError> {
    std::fs::create_dir_all(dir).map_err(harness("soak dir"))?;
    let mut journal = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("soak.jsonl"))
        .map_err(harness("soak.jsonl"))?;
    let header = serde_json::json!({ "target": target.to_string(), "attempts": attempts, "options": format!("{options:?}") });
    writeln!(journal, "{header}").map_err(harness("soak.jsonl"))?;
    let mut total: Option<Audit> = None;
    for round in 1.. {
        let options = StressOptions { seed: options.seed.wrapping_add(round as u64), ..options.clone() };
        progress.begin(&format!("{target} round {round}"));
        let audit = run(target, &dir.join(format!("round-{round}")), exe, &options).await?;
        let mut line = serde_json::to_value(&audit).expect("serializes");
        line["round"] = round.into();
        line["left_behind"] = crate::leftovers::summary(&audit.left_behind).into();
        writeln!(journal, "{line}").map_err(harness("soak.jsonl"))?;
        let expected = audit.as_expected();
        let made = audit.attempts;
        let total = match total.as_mut() {
            Some(total) => {
                total.add(audit);
                total
            }
            None => total.insert(audit),
        };
        progress.finish(
            made as u64,
            &format!(
                "{target} round {round}: {}/{attempts} attempts, {} duplicates, {} lost, {} violations{}",
                total.attempts,
                total.duplicates,
                total.lost_epochs.len(),
                total.outcomes.violations.len(),
                if expected { "" } else { "; round NOT as expected" },
            ),
        );
        if !expected || total.attempts >= attempts {
            break;
        }
    }
    Ok(total.expect("at least one round"))
}

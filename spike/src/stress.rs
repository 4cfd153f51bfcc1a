//! Many writer processes, killed and crashed at random, replaying overlapping epochs of one app
//! against one table; then an audit of what the table holds.
//!
//! The parent ([`run`]) creates the table, starts `writers` OS processes of the `stress` binary
//! ([`worker`]), SIGKILLs some of them at random moments and restarts every writer that died,
//! until each has walked the epochs up to the last one. Each worker arms the failpoints of a
//! commit (`Arm::failpoints`) to abort the process the first time it passes each step and then
//! with probability `fault_rate` at every pass, and restarts from the table's committed epoch,
//! replaying it: exactly what a crashed sink does.
//! Bounded in processes, restarts and time; it stops by itself.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::arms::{Arm, CatalogKind, Target};
use crate::fixture::Fixture;
use crate::batch::batch;
use crate::error::SinkError;
use crate::hooks::CallCounts;
use crate::sink::{AppId, CommitOutcome, Epoch};
use crate::leftovers::LeftBehind;
use crate::suite::BATCH_ROWS;

#[derive(Clone, Debug)]
pub struct StressOptions {
    pub writers: usize,
    pub epochs: u64,
    /// SIGKILLs the parent sends, in all, at random moments.
    pub kills: usize,
    /// Probability that a writer aborts at each failpoint it passes.
    pub fault_rate: f64,
    pub deadline: Duration,
    pub seed: u64,
}

/// One line a worker appends to its log per attempt.
#[derive(Debug, Serialize, Deserialize)]
struct Attempt {
    epoch: u64,
    outcome: String,
    loads: u64,
    updates: u64,
}

/// What the audit found in one arm's table.
#[derive(Debug, Serialize)]
pub struct Audit {
    pub arm: &'static str,
    pub catalog: &'static str,
    pub claims_exactly_once: bool,
    pub epochs: u64,
    pub attempts: usize,
    pub committed_outcomes: usize,
    pub already_committed_outcomes: usize,
    pub errors: usize,
    /// Swaps attempted but not won: Iceberg catalog `update_table` calls, Delta attempts at the
    /// log's next version. The writers really contended at least this often (an attempt whose
    /// process died before it logged is not counted).
    pub lost_swaps: u64,
    pub kills: usize,
    /// Writers that died on their own: a failpoint's abort, or (not expected) an error exit.
    pub crashes: usize,
    /// Aborts per failpoint, as the aborting writers recorded them. A writer SIGKILLed between
    /// recording and aborting is in both this and `kills`, so the sum can exceed `crashes`.
    pub crashes_at: BTreeMap<String, usize>,
    /// Failpoints of the arm no writer died at: a run with any is not evidence of that step.
    pub unreached_failpoints: Vec<&'static str>,
    pub restarts: usize,
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
}

impl Audit {
    /// Whether the arm kept its claim (an arm that claims nothing only has to finish), in a run
    /// that crashed a writer at every step of a commit.
    pub fn as_expected(&self) -> bool {
        self.finished
            && self.unreached_failpoints.is_empty()
            && self.lost_epochs.is_empty()
            && (!self.claims_exactly_once || (self.duplicates == 0 && self.rows == self.rows_expected))
    }
}

/// A small deterministic generator, so a run can be repeated from its seed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn app() -> AppId {
    AppId::new("stress").expect("not empty")
}

/// The target a stress run uses for `arm`: Iceberg on `catalog` (a catalog several processes
/// share: `sqlite` or `postgres`), Delta on the local filesystem.
pub fn target(arm: Arm, catalog: CatalogKind) -> Target {
    Target {
        arm,
        catalog: arm.build().map(|_| catalog),
    }
}

/// Runs `arm` under `options` in `dir`, spawning workers from the executable `exe`.
pub async fn run(target: Target, dir: &Path, exe: &Path, options: &StressOptions) -> Result<Audit, SinkError> {
    let arm = target.arm;
    let fixture = Fixture::create(target, dir).await?;
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| SinkError::Corrupt(e.to_string()))?;
    let spawn = |id: usize| -> std::io::Result<Child> {
        Command::new(exe)
            .arg("worker")
            .args(["--arm", &crate::arms::arm_label(arm), "--catalog", target.catalog.unwrap_or(CatalogKind::Sqlite).name(), "--dir"])
            .arg(dir)
            .args(["--epochs", &options.epochs.to_string()])
            .args(["--fault-rate", &options.fault_rate.to_string()])
            .args(["--id", &id.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    };
    let mut rng = XorShift(options.seed | 1);
    let mut children: Vec<Option<Child>> = (0..options.writers)
        .map(|id| spawn(id).map(Some))
        .collect::<Result<_, _>>()
        .map_err(|e| SinkError::Corrupt(format!("spawn writer: {e}")))?;
    let (mut kills, mut crashes, mut restarts) = (0, 0, 0);
    let max_restarts = options.writers * (options.epochs as usize + options.kills + 4);
    let started = Instant::now();
    let mut next_kill = Duration::from_millis(20 + rng.below(150));
    while children.iter().any(Option::is_some) && started.elapsed() < options.deadline {
        for id in 0..children.len() {
            let Some(child) = children[id].as_mut() else { continue };
            let Some(status) = child.try_wait().map_err(|e| SinkError::Corrupt(e.to_string()))? else {
                continue;
            };
            children[id] = None;
            if status.success() {
                continue;
            }
            crashes += 1;
            if restarts < max_restarts {
                restarts += 1;
                children[id] = Some(spawn(id).map_err(|e| SinkError::Corrupt(e.to_string()))?);
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
                    children[victim] = Some(spawn(victim).map_err(|e| SinkError::Corrupt(e.to_string()))?);
                }
            }
            next_kill = started.elapsed() + Duration::from_millis(20 + rng.below(150));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let finished = children.iter().all(Option::is_none);
    for child in children.iter_mut().flatten() {
        let _ = child.kill();
        let _ = child.wait();
    }
    audit(&fixture, &logs, options, finished, kills, crashes, restarts).await
}

async fn audit(
    fixture: &Fixture,
    logs: &Path,
    options: &StressOptions,
    finished: bool,
    kills: usize,
    crashes: usize,
    restarts: usize,
) -> Result<Audit, SinkError> {
    let mut attempts = vec![];
    let mut crashes_at: BTreeMap<String, usize> = BTreeMap::new();
    for entry in std::fs::read_dir(logs).map_err(|e| SinkError::Corrupt(e.to_string()))? {
        let path = entry.map_err(|e| SinkError::Corrupt(e.to_string()))?.path();
        let text = std::fs::read_to_string(&path).map_err(|e| SinkError::Corrupt(e.to_string()))?;
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("crashes-")) {
            for at in text.lines() {
                *crashes_at.entry(at.to_string()).or_default() += 1;
            }
        } else {
            // A line cut by a kill is not an attempt anyone learned the outcome of.
            attempts.extend(text.lines().filter_map(|l| serde_json::from_str::<Attempt>(l).ok()));
        }
    }
    let count = |o: &str| attempts.iter().filter(|a| a.outcome == o).count();
    let history = fixture.epoch_history(&app()).await?;
    let mut per_epoch: BTreeMap<i64, usize> = BTreeMap::new();
    for epoch in &history {
        *per_epoch.entry(epoch.get()).or_default() += 1;
    }
    let duplicates: usize = per_epoch.values().map(|n| n - 1).sum();
    let updates: u64 = attempts.iter().map(|a| a.updates).sum();
    let committed = count("committed");
    Ok(Audit {
        arm: fixture.target.arm.name(),
        catalog: fixture.target.catalog_name(),
        claims_exactly_once: fixture.target.arm.claims_exactly_once(),
        epochs: options.epochs,
        attempts: attempts.len(),
        committed_outcomes: committed,
        already_committed_outcomes: count("already-committed"),
        errors: count("error"),
        lost_swaps: updates.saturating_sub(committed as u64),
        kills,
        crashes,
        unreached_failpoints: fixture
            .target
            .failpoints()
            .iter()
            .copied()
            .filter(|p| !crashes_at.contains_key(*p))
            .collect(),
        crashes_at,
        restarts,
        duplicated_epochs: per_epoch.values().filter(|n| **n > 1).count(),
        duplicates,
        duplicates_per_thousand_attempts: if attempts.is_empty() {
            0.0
        } else {
            duplicates as f64 * 1000.0 / attempts.len() as f64
        },
        lost_epochs: (1..=options.epochs)
            .filter(|e| !per_epoch.contains_key(&(*e as i64)))
            .collect(),
        rows: fixture.writer(Default::default()).await?.row_count().await?,
        rows_expected: options.epochs * BATCH_ROWS as u64,
        left_behind: fixture.left_behind().await?,
        finished,
    })
}

/// One writer process: arm the failpoints, then commit every epoch from the table's committed
/// one (replayed) to the last, logging each attempt. Returns when every epoch is in the table.
///
/// Each writer also dies the first time it passes each failpoint (its crash log says which it
/// already died at): every epoch's winning attempt passes all of them, so every step of a commit
/// kills a real process in every run that commits anything, whatever the dice do.
pub async fn worker(
    target: Target,
    dir: &Path,
    epochs: u64,
    fault_rate: f64,
    id: usize,
) -> Result<(), SinkError> {
    // A failpoint's panic must kill the process where it stands, like a crash does; it first
    // notes where, so that the audit can show every step was really reached.
    let crash_log = dir.join("logs").join(format!("crashes-{id}.txt"));
    let hook_log = crash_log.clone();
    std::panic::set_hook(Box::new(move |info| {
        let at = info.payload().downcast_ref::<String>().cloned().unwrap_or_else(|| "panic".into());
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&hook_log)
            .and_then(|mut log| writeln!(log, "{at}"));
        std::process::abort()
    }));
    let crashed = std::fs::read_to_string(&crash_log).unwrap_or_default();
    let percent = (fault_rate * 100.0).clamp(0.0, 100.0);
    for point in target.failpoints() {
        let random = format!("{percent}%panic({point})");
        let once = !crashed.lines().any(|l| l == *point);
        let action = if once { format!("1*panic({point})->{random}") } else { random };
        fail::cfg(*point, &action).map_err(SinkError::Corrupt)?;
    }
    let fixture = Fixture::open(target, dir);
    let counts = Arc::new(CallCounts::default());
    let sink = fixture.counting_writer(Arc::clone(&counts)).await?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("logs").join(format!("writer-{id}.jsonl")))
        .map_err(|e| SinkError::Corrupt(e.to_string()))?;
    let app = app();
    let mut next = sink.committed_epoch(&app).await?.map_or(1, |e| e.get() as u64);
    let mut errors = 0;
    while next <= epochs {
        let outcome = sink
            .commit(&app, Epoch::new(next)?, batch(next as i64 * 1000, BATCH_ROWS, "stress"))
            .await;
        let (loads, updates) = counts.take();
        let label = match &outcome {
            Ok(CommitOutcome::Committed) => "committed",
            Ok(CommitOutcome::AlreadyCommitted { .. }) => "already-committed",
            Err(_) => "error",
        };
        let line = serde_json::to_string(&Attempt { epoch: next, outcome: label.into(), loads, updates })
            .expect("serializes");
        writeln!(log, "{line}").map_err(|e| SinkError::Corrupt(e.to_string()))?;
        match outcome {
            Ok(_) => next += 1,
            Err(err) => {
                errors += 1;
                if errors > 50 {
                    return Err(err);
                }
            }
        }
    }
    Ok(())
}

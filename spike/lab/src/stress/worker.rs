//! One writer process of a stress run: `stress worker ...`, started by the parent.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::catalogs::Access;
use barrier_harness::rng::XorShift;
use barrier_harness::{Arm, CatalogKind, Error, Fixture, Target, WriterOptions};
use barrier_sink::data::unix_millis;
use barrier_sink::failpoints::StorageFault;
use barrier_sink::{CallCounts, CommitOutcome, Epoch, ErrorKind, Hooks, SinkError, fail};

use super::history::{self, Event, Told};
use super::options::{StressOptions, app};
use super::pauses;
use super::turns::{self, Side};

/// Errors in a row after which a writer gives up and exits (the parent restarts it): longer
/// than any server outage a run injects, so that only a writer that cannot make progress at all
/// ends this way.
pub(super) const MAX_CONSECUTIVE_ERRORS: usize = 300;

/// A writer process's command line: what the parent writes and `stress worker` reads back.
#[derive(Clone, Debug, clap::Args)]
pub struct WorkerArgs {
    /// The arm (its label: `iceberg-naive@patched` for the patched build's naive arm).
    #[arg(long, value_parser = super::options::parse_arm)]
    pub arm: Arm,
    /// The shared catalog of an Iceberg arm.
    #[arg(long, value_parser = super::options::parse_catalog, default_value = "sqlite")]
    pub catalog: CatalogKind,
    /// The run's directory: the table's fixture and the writers' logs.
    #[arg(long)]
    pub dir: PathBuf,
    /// The writer's id: its log is `logs/writer-<id>.jsonl`.
    #[arg(long)]
    pub id: usize,
    #[arg(long)]
    pub epochs: u64,
    #[arg(long)]
    pub fault_rate: f64,
    #[arg(long = "storage-faults")]
    pub storage_fault_rate: f64,
    /// Probability that the writer stops itself right after its epoch check.
    #[arg(long, default_value_t = 0.0)]
    pub pause_after_check: f64,
    /// Take turns with the peers at trying epochs first (`turns.rs`).
    #[arg(long)]
    pub turns: bool,
    /// Every attempt at an epoch offers the same rows.
    #[arg(long)]
    pub same_batches: bool,
    /// With `--turns`: the Rust writers of the run (ids below it are Rust).
    #[arg(long, default_value_t = 0)]
    pub writers: usize,
    /// The catalog's API at another address (the fault proxy's).
    #[arg(long)]
    pub catalog_uri: Option<String>,
    /// The HTTP client's timeout per request, in milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
}

impl WorkerArgs {
    /// Writer `id` of the run of `target` in `dir`.
    pub fn new(target: Target, dir: &Path, options: &StressOptions, access: &Access, id: usize) -> Self {
        Self {
            arm: target.arm().expect("stress::run refuses a peer's target"),
            catalog: target.catalog().unwrap_or(CatalogKind::Sqlite),
            dir: dir.to_path_buf(),
            id,
            epochs: options.epochs,
            fault_rate: options.fault_rate,
            storage_fault_rate: options.storage_fault_rate,
            pause_after_check: options.pause_after_check,
            turns: options.turns,
            same_batches: options.same_batches,
            writers: options.writers,
            catalog_uri: access.uri.clone(),
            timeout_ms: access.timeout.map(|t| t.as_millis() as u64),
        }
    }

    /// `exe worker ...`, its output discarded.
    pub fn command(&self, exe: &Path) -> Command {
        let mut command = Command::new(exe);
        command
            .arg("worker")
            .args(["--arm", &self.arm.label(), "--catalog", self.catalog.name(), "--dir"])
            .arg(&self.dir)
            .args(["--id", &self.id.to_string(), "--epochs", &self.epochs.to_string()])
            .args(["--fault-rate", &self.fault_rate.to_string()])
            .args(["--storage-faults", &self.storage_fault_rate.to_string()])
            .args(["--pause-after-check", &self.pause_after_check.to_string()])
            .args(["--writers", &self.writers.to_string()]);
        if self.turns {
            command.arg("--turns");
        }
        if self.same_batches {
            command.arg("--same-batches");
        }
        if let Some(uri) = &self.catalog_uri {
            command.args(["--catalog-uri", uri]);
        }
        if let Some(timeout) = self.timeout_ms {
            command.args(["--timeout-ms", &timeout.to_string()]);
        }
        command.stdout(Stdio::null()).stderr(Stdio::null());
        command
    }

    fn target(&self) -> Target {
        Target::with_catalog(self.arm, self.catalog)
    }

    fn access(&self) -> Access {
        Access {
            uri: self.catalog_uri.clone(),
            timeout: self.timeout_ms.map(Duration::from_millis),
            ..Access::default()
        }
    }
}

/// Arms the failpoints, then commits every epoch from the table's committed one (replayed) to
/// the last, logging each attempt before it offers the batch and once it has the answer (with
/// `turns`, after waiting for the peers' turn at the epoch, [`turns`]). Returns when every epoch
/// is in the table.
///
/// Each writer also dies the first time it passes each failpoint (its crash log says which it
/// already died at): every epoch's winning attempt passes all of them, so every step of a commit
/// kills a real process in every run that commits anything, whatever the dice do. Likewise, with
/// storage faults, each writer process's first table-file write fails until the writer's log
/// records an answer `Storage`: every run that writes anything injects one, whatever the dice do.
pub async fn worker(args: &WorkerArgs) -> Result<(), Error> {
    let (target, dir, id) = (args.target(), args.dir.as_path(), args.id);
    let logs = dir.join("logs");
    arm_failpoints(target, args, &logs)?;
    let fixture = Fixture::open(target, dir).ok_or_else(|| Error::Broken(format!("{target}: a peer has no worker")))?;
    let counts = Arc::new(CallCounts::default());
    let options = WriterOptions {
        hooks: pause_after_check(args, &logs),
        counts: Some(Arc::clone(&counts)),
        access: args.access(),
    };
    let sink = fixture.writer_with(options).await?;
    let log_path = history::log_file(&logs, id);
    let mut log =
        std::fs::OpenOptions::new().create(true).append(true).open(&log_path).map_err(Error::io("writer log"))?;
    let app = app();
    let mut errors = Errors::default();
    let mut next = loop {
        match sink.committed_epoch(&app).await {
            Ok(committed) => break committed.map_or(1, |e| e.get() as u64),
            Err(err) => errors.wait(err).await?,
        }
    };
    let pid = std::process::id();
    let mut attempt = 0;
    // Since when this writer has been told the epoch it offers is claimed by another attempt.
    let mut claimed: Option<(u64, Instant)> = None;
    while next <= args.epochs {
        if args.turns {
            turns::wait(&logs, args.writers, Side::Rust, next).await;
        }
        attempt += 1;
        let mut event = Event {
            writer: id,
            app: app.to_string(),
            epoch: next,
            batch: if args.same_batches { format!("e{next}") } else { format!("w{id}-p{pid}-e{next}-a{attempt}") },
            attempt: args.same_batches.then(|| format!("w{id}-p{pid}-e{next}-a{attempt}")),
            at_ms: unix_millis(),
            told: None,
            loads: 0,
            updates: 0,
        };
        append(&mut log, &event)?;
        let rows = batch(next as i64 * 1000, BATCH_ROWS, &event.batch);
        let result = sink.commit(&app, Epoch::new(next)?, rows).await;
        (event.loads, event.updates) = counts.take();
        (event.at_ms, event.told) = (unix_millis(), Some(Told::of(&result)));
        append(&mut log, &event)?;
        match result {
            Ok(CommitOutcome::Committed | CommitOutcome::AlreadyCommitted { .. }) => {
                next += 1;
                errors = Errors::default();
                claimed = None;
            }
            Err(err @ SinkError::EpochClaimed(_)) => {
                let since = claimed.filter(|(epoch, _)| *epoch == next).map_or_else(Instant::now, |(_, t)| t);
                if since.elapsed() >= STALLED_AFTER {
                    let mut stalls = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(stall_file(&logs, id))
                        .map_err(Error::io("stall log"))?;
                    writeln!(stalls, "{next}").map_err(Error::io("stall log"))?;
                    return Ok(());
                }
                claimed = Some((next, since));
                errors.wait(err).await?;
            }
            Err(err) => errors.wait(err).await?,
        }
    }
    Ok(())
}

/// How long a writer is told, without a break, that another attempt claims the epoch it offers
/// (`SinkError::EpochClaimed`) before it stops as stalled and is not restarted: longer than any
/// live attempt here takes to commit (a pause is at most 5 s, a server comes back within 1.2 s).
const STALLED_AFTER: Duration = Duration::from_secs(15);

/// The log of the epochs writer `id` stalled at, one line each.
fn stall_file(logs: &Path, id: usize) -> PathBuf {
    logs.join(format!("stalls-{id}.txt"))
}

/// A failpoint's panic kills the process where it stands, like a crash does, after noting where
/// in the writer's crash log, so that the audit can show every step was really reached. Each
/// step fires the first time this writer passes it (then at `fault_rate`); the storage faults
/// fire at `storage_fault_rate`, a quarter of them leaving half a file, and once for sure before
/// the writer has been told of one.
fn arm_failpoints(target: Target, args: &WorkerArgs, logs: &Path) -> Result<(), Error> {
    let crash_log = logs.join(format!("crashes-{}.txt", args.id));
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
    let percent = |rate: f64| (rate * 100.0).clamp(0.0, 100.0);
    let configure = |name: &str, action: &str| fail::cfg(name, action).map_err(Error::Broken);
    for point in target.failpoints() {
        let random = format!("{}%panic({point})", percent(args.fault_rate));
        let once = !crashed.lines().any(|l| l == point.name());
        configure(point.name(), &if once { format!("1*panic({point})->{random}") } else { random })?;
    }
    if target.catalog().is_some() && args.storage_fault_rate > 0.0 {
        configure(StorageFault::Partial.name(), &format!("{}%return", percent(args.storage_fault_rate / 4.0)))?;
        let random = format!("{}%return", percent(args.storage_fault_rate * 3.0 / 4.0));
        let told = std::fs::read_to_string(history::log_file(logs, args.id)).unwrap_or_default();
        let once = !history::events(&told).any(|e| e.told == Some(Told::Error { kind: ErrorKind::Storage }));
        configure(StorageFault::Error.name(), &if once { format!("1*return->{random}") } else { random })?;
    }
    Ok(())
}

/// The hooks that stop the writer (SIGSTOP) right after its epoch check passes, with probability
/// `pause_after_check`, noting it first in `logs/pauses-<id>.txt`; the parent resumes it. Like the
/// failpoints, each writer also stops the first time, until its pause log records one: every
/// run with pauses has some between a check and a swap, whatever the dice do.
fn pause_after_check(args: &WorkerArgs, logs: &Path) -> Hooks {
    if args.pause_after_check <= 0.0 {
        return Hooks::default();
    }
    let (rate, log) = (args.pause_after_check, pauses::log_file(logs, args.id));
    let first = AtomicBool::new(!log.exists());
    let rng = Mutex::new(XorShift::new(u64::from(std::process::id()) << 16 | args.id as u64));
    Hooks::default().with_after_check(Arc::new(move || {
        if first.swap(false, Ordering::SeqCst) || rng.lock().expect("rng lock").chance(rate) {
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .and_then(|mut f| writeln!(f, "after-check"));
            pauses::stop_self();
        }
    }))
}

fn append(log: &mut std::fs::File, event: &Event) -> Result<(), Error> {
    let line = serde_json::to_string(event).expect("serializes");
    // One write per line, unbuffered: a kill leaves whole lines, or a cut last one.
    writeln!(log, "{line}").map_err(Error::io("writer log"))
}

/// Consecutive errors, and the pause before trying again: long enough for a server that was
/// killed to come back, short enough not to idle.
#[derive(Default)]
struct Errors(usize);

impl Errors {
    async fn wait(&mut self, err: SinkError) -> Result<(), Error> {
        self.0 += 1;
        if self.0 > MAX_CONSECUTIVE_ERRORS {
            return Err(err.into());
        }
        tokio::time::sleep(Duration::from_millis(20 * self.0.min(10) as u64)).await;
        Ok(())
    }
}

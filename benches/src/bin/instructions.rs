//! `instructions [--runs N] [--jobs N] [--arms A,B] [--catalogs C,D] [--histories H,I] [--out FILE]`:
//! exact counts of one commit of each arm and floor, side by side in one run. For every target
//! and history it runs itself as a child that prepares a table (seeded in one pass, at any
//! history) and a long-lived writer on it, which commits once unmeasured, then once measured:
//!
//! - under valgrind's callgrind, `--runs` times: the instructions of that commit on every thread,
//!   and the calls of the epoch lookup inside it with their instructions;
//! - under `strace -f`, once: `fsync`s, files created, bytes written, below every library;
//! - in the child itself: catalog round trips and the files and bytes through iceberg's `Storage`.
//!
//! It prints one table, with each commit's ratio to its floor to four decimals, and writes the
//! counts to `--out` (default `target/criterion/barrier-commit-counts.jsonl`, for `bench-report`).
//! It fails if any child fails, and if the profile stops attributing the epoch lookup: an arm
//! that checks with this project's lookup must show calls to it, a floor and a production sink's
//! arm none. Instruction counts do not depend on what else the machine does. Runs of one binary
//! still differ: by a few hundredths of a percent from what a commit draws at random (UUIDs,
//! snapshot ids, hash seeds), and on `sqlite` by up to about 1 % in some runs, when a catalog
//! query lands on a pooled connection that has not prepared it yet. That only adds work, so each
//! commit is run several times and the fewest counts; the table says how far the runs spread.
//! The measured commit runs on a current-thread runtime, so that no idle worker's scheduling
//! is counted; SQLite's worker thread and tokio's blocking threads are.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrow_array::RecordBatch;
use barrier_benches::callgrind;
use barrier_benches::syscalls::{self, Syscalls};
use barrier_benches::{CommitCount, app, arms, commit_counts_file, render_counts};
use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{Arm, CatalogKind, Fixture, IcebergArm, Target};
use barrier_iceberg::HeadManifests;
use barrier_iceberg::storage_io::StorageIo;
use barrier_sink::{CallCounts, CommitOutcome, CommitSink, Epoch, SinkError};
use clap::Parser;
use serde::{Deserialize, Serialize};

const HISTORIES: [u64; 4] = [1, 100, 1000, 10000];

/// Delta's history is seeded by real commits, one log file each, inside the measured process
/// (under valgrind, several times slower): beyond this it would take longer than everything else.
const DELTA_MAX_HISTORY: u64 = 100;

/// The profile part the measured commit is dumped as.
const PART: &std::ffi::CStr = c"commit";

/// The epoch lookup whose calls inside a commit are counted (see `committed_epoch`'s comment).
const LOOKUP: &str = "::epoch::committed_epoch";

/// Exact counts of one commit of each arm and floor, side by side in one run: instructions
/// (callgrind), system calls (strace), round trips and storage I/O.
#[derive(Parser)]
#[command(name = "instructions")]
struct Cli {
    /// Runs under callgrind per commit; the fewest instructions count.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Child processes at a time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    jobs: u64,
    /// The arms, comma-separated (default: every measured arm and floor).
    #[arg(long, value_delimiter = ',', value_parser = arm_named)]
    arms: Vec<Arm>,
    /// The catalogs, comma-separated (default: the embedded ones).
    #[arg(long, value_delimiter = ',', value_parser = catalog_named)]
    catalogs: Vec<CatalogKind>,
    /// The table histories, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = HISTORIES)]
    histories: Vec<u64>,
    /// Where the counts go, one JSON line per commit.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// What a seeded history's current snapshot lists: no manifest (every figure before
    /// 2026-12-06), or one per snapshot, as iceberg-rust's fast append leaves a table nothing
    /// compacts.
    #[arg(long, value_enum, default_value_t = Head::Empty)]
    head_manifests: Head,
    /// Internal: the child that prepares a table and measures one commit.
    #[arg(long, num_args = 3, value_names = ["ARM", "CATALOG", "HISTORY"], hide = true)]
    child: Option<Vec<String>>,
}

/// [`HeadManifests`] on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Head {
    Empty,
    OnePerSnapshot,
}

impl Head {
    fn manifests(self) -> HeadManifests {
        match self {
            Head::Empty => HeadManifests::Empty,
            Head::OnePerSnapshot => HeadManifests::OnePerSnapshot,
        }
    }

    fn arg(self) -> &'static str {
        match self {
            Head::Empty => "empty",
            Head::OnePerSnapshot => "one-per-snapshot",
        }
    }
}

fn arm_named(label: &str) -> Result<Arm, String> {
    Arm::labelled(label).ok_or_else(|| format!("no arm {label}"))
}

fn catalog_named(name: &str) -> Result<CatalogKind, String> {
    CatalogKind::named(name).ok_or_else(|| format!("no catalog {name}"))
}

fn main() {
    let cli = Cli::parse();
    if let Some(child_args) = &cli.child {
        child(child_args, cli.head_manifests.manifests());
        return;
    }
    if let Err(e) = drive(&cli) {
        eprintln!("instructions: {e}");
        std::process::exit(1);
    }
}

/// What the child reports on stdout about its measured commit.
#[derive(Serialize, Deserialize)]
struct ChildReport {
    outcome: String,
    loads: u64,
    updates: u64,
    storage: StorageIo,
}

/// `--child ARM CATALOG HISTORY`: prepares, commits once, then measures one commit.
fn child(args: &[String], head: HeadManifests) {
    let [arm, catalog, history] = args else { panic!("--child ARM CATALOG HISTORY") };
    let arm = arm_named(arm).unwrap_or_else(|e| panic!("{e}"));
    let target = Target::with_catalog(arm, catalog_named(catalog).unwrap_or(CatalogKind::Sqlite));
    let history: u64 = history.parse().expect("history is a number");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let counts = Arc::new(CallCounts::default());
    let epoch = |n: u64| Epoch::new(n).expect("in range");
    let writer = rt
        .block_on(async {
            let fixture = Fixture::create(target, dir.path()).await?;
            fixture.seed_history(&app(), history, head).await?;
            let writer = fixture.counting_writer(Arc::clone(&counts)).await?;
            // A long-lived writer's commit is measured, not its first.
            let first = writer.commit(&app(), epoch(history + 1), rows()).await?;
            assert_eq!(first, CommitOutcome::Committed, "the unmeasured commit");
            Ok::<_, SinkError>(writer)
        })
        .expect("prepared");
    let batch = rows();
    counts.take();
    let before = StorageIo::now();
    open_marker("begin");
    callgrind::start_instrumentation();
    callgrind::dump(c"before");
    let outcome = measured(&rt, writer.as_ref(), epoch(history + 2), batch);
    callgrind::dump(PART);
    callgrind::stop_instrumentation();
    open_marker("end");
    let storage = StorageIo::now().since(before);
    let (loads, updates) = counts.take();
    let outcome = format!("{:?}", outcome.expect("the measured commit"));
    let report = ChildReport { outcome, loads, updates, storage };
    println!("{}", serde_json::to_string(&report).expect("serializes"));
}

fn rows() -> RecordBatch {
    batch(0, BATCH_ROWS, "bench")
}

/// The measured region: exactly one commit, driven to its end on this thread.
#[inline(never)]
fn measured(
    rt: &tokio::runtime::Runtime,
    writer: &dyn CommitSink,
    epoch: Epoch,
    batch: RecordBatch,
) -> Result<CommitOutcome, SinkError> {
    rt.block_on(writer.commit(&app(), epoch, batch))
}

/// Opens a path that does not exist: a mark in strace's log, and nothing else.
fn open_marker(name: &str) {
    let _ = std::fs::File::open(syscalls::marker(name));
}

/// The matrix to count, from the command line.
struct Options {
    runs: usize,
    jobs: usize,
    targets: Vec<(Target, u64)>,
    out: std::path::PathBuf,
}

impl Options {
    fn of(cli: &Cli) -> Self {
        let arms = if cli.arms.is_empty() { arms() } else { cli.arms.clone() };
        let catalogs = if cli.catalogs.is_empty() { CatalogKind::embedded() } else { cli.catalogs.clone() };
        let mut targets = vec![];
        for history in &cli.histories {
            for arm in &arms {
                for target in Target::on(*arm, &catalogs) {
                    if target.catalog().is_some() || *history <= DELTA_MAX_HISTORY {
                        targets.push((target, *history));
                    }
                }
            }
        }
        Self {
            runs: cli.runs as usize,
            jobs: cli.jobs as usize,
            targets,
            out: cli.out.clone().unwrap_or_else(commit_counts_file),
        }
    }
}

fn id(target: Target, history: u64) -> String {
    format!("commit/{}/{}/{history}", target.name(), target.catalog_name())
}

/// One child run: which target, and whether under callgrind or strace.
#[derive(Clone, Copy)]
enum Run {
    Callgrind,
    Strace,
}

/// What one child run found.
enum Found {
    Callgrind { instructions: u64, lookups: u64, lookup_instructions: u64, report: ChildReport },
    Strace { syscalls: Syscalls },
}

fn drive(cli: &Cli) -> Result<(), String> {
    if !cfg!(target_arch = "x86_64") {
        return Err("the client requests are written for x86_64 only".into());
    }
    let options = Options::of(cli);
    for tool in ["valgrind", "strace"] {
        Command::new(tool).arg("--version").output().map_err(|e| format!("{tool}: {e} (apt-get install {tool})"))?;
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut jobs = vec![];
    for (i, (target, history)) in options.targets.iter().enumerate() {
        jobs.extend((0..options.runs).map(|_| (i, *target, *history, Run::Callgrind)));
        jobs.push((i, *target, *history, Run::Strace));
    }
    eprintln!(
        "instructions: {} targets, {} child runs ({} under callgrind each), {} at a time",
        options.targets.len(),
        jobs.len(),
        options.runs,
        options.jobs
    );
    let started = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<(usize, Found)>> = Mutex::new(vec![]);
    let failed: Mutex<Vec<String>> = Mutex::new(vec![]);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| {
                while let Some(&(i, target, history, run)) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) {
                    match run_child(&exe, target, history, cli.head_manifests, run) {
                        Ok(f) => found.lock().expect("results").push((i, f)),
                        Err(e) => failed.lock().expect("failures").push(format!("{}: {e}", id(target, history))),
                    }
                }
            });
        }
    });
    let failed = failed.into_inner().expect("failures");
    if !failed.is_empty() {
        return Err(failed.join("\n"));
    }
    let mut counts: Vec<CommitCount> = options
        .targets
        .iter()
        .map(|(t, h)| CommitCount {
            id: id(*t, *h),
            instructions: vec![],
            lookups: 0,
            lookup_instructions: 0,
            loads: 0,
            updates: 0,
            storage: StorageIo::default(),
            syscalls: None,
        })
        .collect();
    for (i, f) in found.into_inner().expect("results") {
        let count = &mut counts[i];
        match f {
            Found::Callgrind { instructions, lookups, lookup_instructions, report } => {
                if count.instructions.is_empty() {
                    (count.lookups, count.lookup_instructions) = (lookups, lookup_instructions);
                    (count.loads, count.updates, count.storage) = (report.loads, report.updates, report.storage);
                }
                count.instructions.push(instructions);
            }
            Found::Strace { syscalls } => count.syscalls = Some(syscalls),
        }
    }
    for ((target, _), count) in options.targets.iter().zip(&counts) {
        // The production sinks' arms look their epoch up their own way, not with `LOOKUP`.
        let own_lookup = match target {
            Target::Iceberg(arm, _) => arm.spec().sink().records_watermark(),
            _ => false,
        };
        let checks = own_lookup && target.arm() != Some(Arm::Iceberg(IcebergArm::Unguarded));
        if checks != (count.lookups > 0) {
            return Err(format!("{}: {} calls to {LOOKUP} in the profile", count.id, count.lookups));
        }
    }
    let lines: Vec<String> = counts.iter().map(|c| serde_json::to_string(c).expect("serializes")).collect();
    let file = options.out;
    std::fs::create_dir_all(file.parent().expect("has parent")).map_err(|e| e.to_string())?;
    std::fs::write(&file, lines.join("\n") + "\n").map_err(|e| format!("{}: {e}", file.display()))?;
    // Beside the counts, the run they come from, for the tables and charts that quote them.
    let run = serde_json::to_string(&barrier_harness::run::RunInfo::now()).expect("serializes");
    let run_file = format!("{}.run.json", file.display());
    std::fs::write(&run_file, run).map_err(|e| format!("{run_file}: {e}"))?;
    print!("{}", render_counts(&counts));
    eprintln!("instructions: {:.0} s; counts written to {}", started.elapsed().as_secs_f64(), file.display());
    Ok(())
}

fn run_child(exe: &Path, target: Target, history: u64, head: Head, run: Run) -> Result<Found, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let child_args = [
        "--child".to_string(),
        target.label(),
        target.catalog_name().to_string(),
        history.to_string(),
        "--head-manifests".to_string(),
        head.arg().to_string(),
    ];
    let profile = dir.path().join("callgrind.out");
    let trace = dir.path().join("strace.log");
    let mut command = match run {
        Run::Callgrind => {
            let mut c = Command::new("valgrind");
            c.args(["--tool=callgrind", "-q", "--instr-atstart=no", "--compress-strings=no", "--compress-pos=no"])
                .arg(format!("--callgrind-out-file={}", profile.display()));
            c
        }
        Run::Strace => {
            let mut c = Command::new("strace");
            c.args(["-f", "-qq", "-y", "-s", "8", "-e", syscalls::TRACED, "-o"]).arg(&trace);
            c
        }
    };
    let output = command.arg(exe).args(&child_args).output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("{}\n{}", output.status, String::from_utf8_lossy(&output.stderr)));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: ChildReport = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| format!("no report in {stdout:?}"))?;
    if report.outcome != format!("{:?}", CommitOutcome::Committed) {
        return Err(format!("the measured commit was {}", report.outcome));
    }
    match run {
        Run::Callgrind => {
            let part = callgrind::Part::find(dir.path(), PART).map_err(|e| e.to_string())?;
            let (lookups, lookup_instructions) = part.calls_to(LOOKUP);
            Ok(Found::Callgrind { instructions: part.total, lookups, lookup_instructions, report })
        }
        Run::Strace => {
            let text = std::fs::read_to_string(&trace).map_err(|e| e.to_string())?;
            let syscalls = syscalls::between(&text, "begin", "end").ok_or("no marked window in strace's log")?;
            // Every commit creates its data file at least: a window without one lost the trace.
            if syscalls.files_created == 0 {
                return Err(format!(
                    "strace's window holds no file the commit created ({} written through Storage)",
                    report.storage.files_written
                ));
            }
            Ok(Found::Strace { syscalls })
        }
    }
}

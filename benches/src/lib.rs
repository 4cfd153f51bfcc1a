//! What the benchmarks share: the runtime, Criterion's settings, fresh seeded tables, the
//! per-commit catalog round-trip counts that go next to the times, and the exact counts of one
//! commit (`instructions`) that `bench-report` prints beside them.

pub mod callgrind;
pub mod findings;
pub mod soak;
pub mod syscalls;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use barrier_harness::{Arm, Fixture, IcebergArm, Target};
use barrier_iceberg::HeadManifests;
use barrier_iceberg::storage_io::StorageIo;
use barrier_sink::{AppId, CallCounts, CommitSink, Epoch};
use criterion::Criterion;
use serde::{Deserialize, Serialize};

use crate::syscalls::Syscalls;

/// Every arm a commit is measured for, from the registry: each arm and floor its name alone
/// designates (the arms on iceberg 0.10.1, the release they were designed on, and the patched
/// build's `iceberg-naive` left out: its commit is the stock one's), in the registry's order.
pub fn arms() -> Vec<Arm> {
    Arm::all().filter(|arm| arm.label() == arm.name()).collect()
}

/// The Iceberg arms of [`arms`]: those that commit through a catalog.
pub fn iceberg_arms() -> impl Iterator<Item = IcebergArm> {
    arms().into_iter().filter_map(|arm| match arm {
        Arm::Iceberg(arm) => Some(arm),
        Arm::Delta(_) => None,
    })
}

/// The app every benchmark commits as.
pub fn app() -> AppId {
    AppId::new("bench").expect("not empty")
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}

/// Few samples of I/O-bound commits: enough for a median and its interval on a shared 2-core
/// machine, short enough for the whole matrix to run in minutes.
pub fn io_criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

/// A fresh table of `target` with `history` snapshots of [`app`], and a counting writer on it.
pub struct Seeded {
    /// Holds the table's directory for as long as the benchmark runs.
    pub dir: tempfile::TempDir,
    pub writer: Box<dyn CommitSink>,
    pub counts: Arc<CallCounts>,
    pub next_epoch: AtomicU64,
}

impl Seeded {
    pub async fn new(target: Target, history: u64) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let fixture = Fixture::create(target, dir.path()).await.expect("fixture");
        fixture.seed_history(&app(), history, HeadManifests::Empty).await.expect("seed history");
        let counts = Arc::new(CallCounts::default());
        let writer = fixture.counting_writer(Arc::clone(&counts)).await.expect("writer");
        Self { dir, writer, counts, next_epoch: AtomicU64::new(history + 1) }
    }

    pub fn epoch(&self) -> Epoch {
        Epoch::new(self.next_epoch.fetch_add(1, Ordering::SeqCst)).expect("in range")
    }
}

/// Catalog round trips per commit, measured alongside a benchmark.
#[derive(Debug, Serialize, Deserialize)]
pub struct RoundTrips {
    pub id: String,
    pub commits: u64,
    pub loads_per_commit: f64,
    pub updates_per_commit: f64,
    /// Manifests and manifest lists written per commit (Iceberg; [`StorageIo::manifests_written`]):
    /// two are the commit's own, the rest were written by attempts that lost their swap.
    #[serde(default)]
    pub manifests_per_commit: Option<f64>,
}

/// Where Criterion writes its estimates, and the files of this crate's counts beside them.
pub fn criterion_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion")
}

/// Where the round-trip counts of a `cargo bench` run go, next to Criterion's own output.
pub fn round_trips_file() -> PathBuf {
    criterion_dir().join("barrier-round-trips.jsonl")
}

/// Where `instructions` writes its counts, one [`CommitCount`] a line.
pub fn commit_counts_file() -> PathBuf {
    criterion_dir().join("barrier-commit-counts.jsonl")
}

/// Everything `instructions` counted of one long-lived writer's commit of one target
/// (`commit/<arm>/<catalog>/<history>`), each figure exact.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CommitCount {
    pub id: String,
    /// The commit's instructions, all threads, once per run under callgrind.
    pub instructions: Vec<u64>,
    /// Calls of the epoch lookup (`committed_epoch`) inside the commit, and their instructions
    /// (inclusive), in the first run.
    pub lookups: u64,
    pub lookup_instructions: u64,
    /// Catalog loads and updates (Delta: table loads and attempts at the log's next version).
    pub loads: u64,
    pub updates: u64,
    /// Through iceberg's `Storage` (zero for Delta, which does not use it).
    pub storage: StorageIo,
    /// From `strace`, where it ran.
    pub syscalls: Option<Syscalls>,
}

impl CommitCount {
    /// The fewest instructions of the runs: what is compared. What varies between runs only
    /// adds work (on `sqlite`, a query that lands on a pooled connection that has not prepared
    /// it yet), apart from a jitter of a few hundredths of a percent (hash seeds, random ids).
    pub fn least(&self) -> u64 {
        self.instructions.iter().copied().min().unwrap_or(0)
    }

    /// The largest difference between two runs, relative to the fewest (0 with one run).
    pub fn spread(&self) -> f64 {
        match self.instructions.iter().max() {
            Some(max) if self.instructions.len() > 1 => (max - self.least()) as f64 / self.least() as f64,
            _ => 0.0,
        }
    }
}

/// The id a benchmark or count is compared with, if any: the unguarded floor of the same catalog
/// and history; the 10-snapshot check for a longer history; the walk for the full scan.
pub fn floor_of(id: &str) -> Option<String> {
    let parts: Vec<&str> = id.split('/').collect();
    match parts.as_slice() {
        ["commit", "delta", rest @ ..] => Some(format!("commit/delta-plain/{}", rest.join("/"))),
        ["commit", arm, rest @ ..] if !arm.ends_with("unguarded") && *arm != "delta-plain" => {
            Some(format!("commit/iceberg-unguarded/{}", rest.join("/")))
        }
        ["contention", arm, rest @ ..] if *arm != "iceberg-unguarded" => {
            Some(format!("contention/iceberg-unguarded/{}", rest.join("/")))
        }
        ["epoch_check", history] if *history != "10" => Some("epoch_check/10".to_string()),
        ["epoch_check", history, _apps] => Some(format!("epoch_check/{history}")),
        ["epoch_check_full_scan", history] => Some(format!("epoch_check/{history}")),
        _ => None,
    }
}

/// Appends the counts taken since the last call, as `id`'s round trips over `commits` commits,
/// and the manifests written since `storage` was read, when it was.
pub fn record_round_trips(id: &str, counts: &CallCounts, commits: u64, storage: Option<StorageIo>) {
    let (loads, updates) = counts.take();
    if commits == 0 {
        return;
    }
    let row = RoundTrips {
        id: id.to_string(),
        commits,
        loads_per_commit: loads as f64 / commits as f64,
        updates_per_commit: updates as f64 / commits as f64,
        manifests_per_commit: storage
            .map(|before| StorageIo::now().since(before).manifests_written as f64 / commits as f64),
    };
    let path = round_trips_file();
    std::fs::create_dir_all(path.parent().expect("has parent")).expect("criterion dir");
    let mut file = OpenOptions::new().create(true).append(true).open(path).expect("round trips file");
    writeln!(file, "{}", serde_json::to_string(&row).expect("serializes")).expect("write");
}

/// The table of [`CommitCount`]s: per commit, its instructions (the fewest of its runs) and
/// ratio to the floor, the lookup's share, the round trips, and the I/O; then, per catalog, how
/// much the runs of one commit differed.
pub fn render_counts(counts: &[CommitCount]) -> String {
    let by_id = |id: &str| counts.iter().find(|c| c.id == id);
    let mut out = String::from(
        "| commit | instructions | ratio to floor | lookups: instructions (share) | loads / updates | files / bytes written (Storage) | fsyncs | files created / bytes written (strace) |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    let mut spread: std::collections::BTreeMap<&str, (f64, usize)> = Default::default();
    for count in counts {
        if count.instructions.len() > 1 {
            let catalog = count.id.split('/').nth(2).unwrap_or_default();
            let entry = spread.entry(catalog).or_default();
            *entry = (entry.0.max(count.spread()), entry.1 + 1);
        }
        let ratio = floor_of(&count.id)
            .and_then(|floor| by_id(&floor))
            .map_or("floor".to_string(), |floor| format!("{:.4}", count.least() as f64 / floor.least() as f64));
        let share = match count.lookups {
            0 => "—".to_string(),
            n => format!(
                "{n}: {} ({:.4} %)",
                count.lookup_instructions,
                100.0 * count.lookup_instructions as f64 / count.least() as f64
            ),
        };
        let (fsyncs, strace) = count.syscalls.map_or(("—".to_string(), "—".to_string()), |s| {
            (s.fsyncs.to_string(), format!("{} / {}", s.files_created, s.bytes_written))
        });
        out.push_str(&format!(
            "| {} | {} | {ratio} | {share} | {} / {} | {} / {} | {fsyncs} | {strace} |\n",
            count.id,
            count.least(),
            count.loads,
            count.updates,
            count.storage.files_written,
            count.storage.bytes_written,
        ));
    }
    for (catalog, (largest, commits)) in spread {
        out.push_str(&format!(
            "\nRun to run, `{catalog}`: the runs of one commit differ by at most {:.4} % of its fewest ({commits} commits, each run {} times).\n",
            100.0 * largest,
            counts.iter().map(|c| c.instructions.len()).max().unwrap_or(0),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arms_measured_are_every_arm_and_floor_once_per_name_on_0_10_1() {
        let names: Vec<&str> = arms().into_iter().map(Arm::name).collect();
        assert_eq!(
            names,
            [
                "delta",
                "delta-plain",
                "iceberg-naive",
                "iceberg-catalog-guard",
                "iceberg-file-key",
                "iceberg-action",
                "iceberg-requirement",
                "iceberg-validator",
                "iceberg-snapshot-id",
                "iceberg-no-rebase",
                "iceberg-validator-first-on-base",
                "as-flink",
                "as-arroyo",
                "as-kafka-connect",
                "as-materialize",
                "iceberg-unguarded",
            ]
        );
        assert!(arms().iter().all(|arm| arm.build().is_none_or(|build| build.version() == "0.10.1")));
    }
}

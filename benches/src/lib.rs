//! What the benchmarks share: the runtime, Criterion's settings, fresh seeded tables, and the
//! per-commit catalog round-trip counts that go next to the times.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use criterion::Criterion;
use serde::{Deserialize, Serialize};
use spike::hooks::CallCounts;
use spike::{AppId, CommitSink, Epoch, Fixture, Target};

/// The app every benchmark commits as.
pub fn app() -> AppId {
    AppId::new("bench").expect("not empty")
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
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
        fixture.seed_history(&app(), history).await.expect("seed history");
        let counts = Arc::new(CallCounts::default());
        let writer = fixture.counting_writer(Arc::clone(&counts)).await.expect("writer");
        Self {
            dir,
            writer,
            counts,
            next_epoch: AtomicU64::new(history + 1),
        }
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
}

/// Where the round-trip counts of a `cargo bench` run go, next to Criterion's own output.
pub fn round_trips_file() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion").join("barrier-round-trips.jsonl")
}

/// Appends the counts taken since the last call, as `id`'s round trips over `commits` commits.
pub fn record_round_trips(id: &str, counts: &CallCounts, commits: u64) {
    let (loads, updates) = counts.take();
    if commits == 0 {
        return;
    }
    let row = RoundTrips {
        id: id.to_string(),
        commits,
        loads_per_commit: loads as f64 / commits as f64,
        updates_per_commit: updates as f64 / commits as f64,
    };
    let path = round_trips_file();
    std::fs::create_dir_all(path.parent().expect("has parent")).expect("criterion dir");
    let mut file = OpenOptions::new().create(true).append(true).open(path).expect("round trips file");
    writeln!(file, "{}", serde_json::to_string(&row).expect("serializes")).expect("write");
}

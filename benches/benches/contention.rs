//! `contention/<arm>/<writers>`: W concurrent writers on the `sqlite` catalog, each committing a
//! batch for an app of its own (distinct epochs never collide), and
//! `contention/<arm>/<writers>/shared`: all W offering the same `(app, epoch)`, of which one may
//! commit. Throughput is batches offered per second; round trips and manifests written per
//! commit go next to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use barrier_benches::{io_criterion, record_round_trips, runtime};
use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Fixture, IcebergArm, Target};
use barrier_iceberg::storage_io::StorageIo;
use barrier_sink::{AppId, CallCounts, CommitOutcome, CommitSink, Epoch};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const WRITERS: [usize; 4] = [1, 2, 4, 8];

struct Writers {
    _dir: tempfile::TempDir,
    sinks: Vec<Arc<dyn CommitSink>>,
    counts: Arc<CallCounts>,
    epoch: AtomicU64,
    commits: AtomicU64,
    /// The storage counters once the table and writers exist: what the rounds wrote is after it.
    storage: StorageIo,
}

impl Writers {
    async fn new(arm: IcebergArm, n: usize) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = Target::Iceberg(arm, CatalogKind::Sqlite);
        let fixture = Fixture::create(target, dir.path()).await.expect("fixture");
        let counts = Arc::new(CallCounts::default());
        let mut sinks = vec![];
        for _ in 0..n {
            let sink = fixture.counting_writer(Arc::clone(&counts)).await.expect("writer");
            sinks.push(Arc::from(sink));
        }
        let storage = StorageIo::now();
        Self { _dir: dir, sinks, counts, epoch: AtomicU64::new(1), commits: AtomicU64::new(0), storage }
    }

    /// One round: every writer offers one batch at once.
    async fn round(&self, shared: bool) {
        let epoch = Epoch::new(self.epoch.fetch_add(1, Ordering::SeqCst)).expect("in range");
        let tasks: Vec<_> = self
            .sinks
            .iter()
            .enumerate()
            .map(|(i, sink)| {
                let sink = Arc::clone(sink);
                let app =
                    AppId::new(if shared { "shared".to_string() } else { format!("writer-{i}") }).expect("not empty");
                tokio::spawn(async move { sink.commit(&app, epoch, batch(0, BATCH_ROWS, "bench")).await })
            })
            .collect();
        for task in tasks {
            let outcome = task.await.expect("writer task").expect("commit");
            if outcome == CommitOutcome::Committed {
                self.commits.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("contention");
    for arm in barrier_benches::iceberg_arms() {
        for writers in WRITERS {
            for shared in [false, true] {
                let id = format!("{}/{writers}{}", arm.spec().name, if shared { "/shared" } else { "" });
                let bench = rt.block_on(Writers::new(arm, writers));
                group.throughput(Throughput::Elements(writers as u64));
                group.bench_function(&id, |b| b.to_async(&rt).iter(|| bench.round(shared)));
                let commits = bench.commits.load(Ordering::Relaxed);
                record_round_trips(&format!("contention/{id}"), &bench.counts, commits, Some(bench.storage));
            }
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = io_criterion();
    targets = bench
}
criterion_main!(benches);

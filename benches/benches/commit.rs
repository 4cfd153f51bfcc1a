//! `commit/<arm>/<catalog>/<history>`: one commit of the same small batch, for every arm of the
//! suite and the two floors, on every catalog, at table histories of 1, 100, 1000 and 10000
//! snapshots (Delta to 1000).

use barrier_benches::{Seeded, app, io_criterion, record_round_trips, runtime};
use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Target};
use criterion::{Criterion, criterion_group, criterion_main};

const HISTORIES: [u64; 4] = [1, 100, 1000, 10000];

/// Delta's history is real commits, a log file each; beyond this, seeding would take longer than
/// the whole run. (Iceberg's is built in one pass at any size: `IcebergTable::seed_history`.)
const DELTA_MAX_HISTORY: u64 = 1000;

fn bench(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("commit");
    for history in HISTORIES {
        for target in barrier_benches::arms().into_iter().flat_map(|arm| Target::on(arm, &CatalogKind::embedded())) {
            if target.catalog().is_none() && history > DELTA_MAX_HISTORY {
                continue;
            }
            let id = format!("{}/{}/{history}", target.name(), target.catalog_name());
            let seeded = rt.block_on(Seeded::new(target, history));
            let mut commits = 0;
            group.bench_function(&id, |b| {
                b.to_async(&rt).iter(|| {
                    commits += 1;
                    let epoch = seeded.epoch();
                    let app = app();
                    let writer = &seeded.writer;
                    async move { writer.commit(&app, epoch, batch(0, BATCH_ROWS, "bench")).await.expect("commit") }
                })
            });
            record_round_trips(&format!("commit/{id}"), &seeded.counts, commits, None);
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

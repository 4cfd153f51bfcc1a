//! `epoch_check/<history>` and `epoch_check/<history>/<apps>`: the epoch lookup alone, on table
//! metadata already in memory, as the history grows and as other apps interleave their commits;
//! `epoch_check_full_scan/<history>` is the same answer from every snapshot.

use barrier_iceberg::stock::{committed_epoch, committed_epoch_full_scan, synthetic_history};
use barrier_sink::AppId;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let app = AppId::new("app-0").expect("not empty");
    let mut walk = c.benchmark_group("epoch_check");
    for history in [10, 100, 1000, 10000] {
        let metadata = synthetic_history(history, 1);
        walk.bench_with_input(BenchmarkId::from_parameter(history), &metadata, |b, m| {
            b.iter(|| committed_epoch(m, &app).expect("readable"))
        });
        for apps in [10, 100] {
            let metadata = synthetic_history(history, apps);
            walk.bench_with_input(BenchmarkId::new(history.to_string(), apps), &metadata, |b, m| {
                b.iter(|| committed_epoch(m, &app).expect("readable"))
            });
        }
    }
    walk.finish();

    let mut scan = c.benchmark_group("epoch_check_full_scan");
    for history in [10, 100, 1000, 10000] {
        let metadata = synthetic_history(history, 1);
        scan.bench_with_input(BenchmarkId::from_parameter(history), &metadata, |b, m| {
            b.iter(|| committed_epoch_full_scan(m, &app).expect("readable"))
        });
    }
    scan.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(2))
        .configure_from_args();
    targets = bench
}
criterion_main!(benches);

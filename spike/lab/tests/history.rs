//! The benchmarks' long histories: built in one pass (`Fixture::seed_history`), registered in the
//! catalog, and then just a table that the sinks commit to and the epoch check walks.

use std::time::Instant;

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::{CatalogKind, Fixture, IcebergArm, Target};
use barrier_iceberg::HeadManifests;
use barrier_sink::{AppId, CommitOutcome, Epoch, Hooks};

const HISTORY: u64 = 10_000;

/// 10 000 snapshots in seconds; the walk alone finds the last epoch, as on a real history; a
/// guarded writer takes the replay of it for what it is and appends on top of it; the table then
/// holds every epoch once.
async fn ten_thousand_snapshots(catalog: CatalogKind) {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = Target::Iceberg(IcebergArm::Action, catalog);
    let fixture = Fixture::create(target, dir.path()).await.expect("fixture");
    let app = AppId::new("bench").expect("not empty");
    let epoch = |n: u64| Epoch::new(n).expect("in range");
    let started = Instant::now();
    fixture.seed_history(&app, HISTORY, HeadManifests::Empty).await.expect("seeded");
    println!("{target}: {HISTORY} snapshots seeded in {:.1} s", started.elapsed().as_secs_f64());
    let table = fixture.iceberg().await.expect("table").expect("an Iceberg table");
    assert_eq!(table.epoch_from_walk_alone(&app).await.expect("walk"), Some(epoch(HISTORY)));

    let sink = fixture.writer(Hooks::default()).await.expect("writer");
    let replay = sink.commit(&app, epoch(HISTORY), batch(0, BATCH_ROWS, "replay")).await.expect("replay");
    assert_eq!(replay, CommitOutcome::AlreadyCommitted { committed: epoch(HISTORY) });
    let next = sink.commit(&app, epoch(HISTORY + 1), batch(0, BATCH_ROWS, "next")).await.expect("append");
    assert_eq!(next, CommitOutcome::Committed);

    let mut history = fixture.epoch_history(&app).await.expect("history");
    history.reverse();
    assert_eq!(history, (1..=HISTORY + 1).map(epoch).collect::<Vec<_>>());
    assert_eq!(sink.row_count().await.expect("rows"), BATCH_ROWS as u64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_snapshots_on_memory() {
    ten_thousand_snapshots(CatalogKind::Memory).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_snapshots_on_sqlite() {
    ten_thousand_snapshots(CatalogKind::Sqlite).await;
}

/// The other shape of a long history: the current snapshot lists one manifest per snapshot, as
/// iceberg-rust's fast append leaves a table nothing compacts. Every commit then reads them all
/// (the duplicate-file check), and the table still holds exactly the rows committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_manifest_per_snapshot_is_read_by_the_next_commit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fixture =
        Fixture::create(Target::Iceberg(IcebergArm::FileKey, CatalogKind::Sqlite), dir.path()).await.expect("fixture");
    let app = AppId::new("bench").expect("not empty");
    let epoch = |n: u64| Epoch::new(n).expect("in range");
    fixture.seed_history(&app, 1000, HeadManifests::OnePerSnapshot).await.expect("seeded");
    let sink = fixture.writer(Hooks::default()).await.expect("writer");
    let before = barrier_iceberg::storage_io::StorageIo::now();
    let next = sink.commit(&app, epoch(1001), batch(0, BATCH_ROWS, "next")).await.expect("append");
    let read = barrier_iceberg::storage_io::StorageIo::now().since(before).files_read;
    assert_eq!(next, CommitOutcome::Committed);
    assert!(read >= 1000, "the commit read {read} files: the seeded manifests were not listed");
    assert_eq!(sink.row_count().await.expect("rows"), BATCH_ROWS as u64);
}

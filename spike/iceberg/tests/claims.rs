//! The original write-up's claims about stock iceberg-rust 0.10.1 that a test can decide, each
//! asserted as the write-up states it (FINDINGS.md, "The original write-up, claim by claim").
//! The claims about source locations are checked against the pristine package by `patches/check`.

use std::collections::HashMap;

use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use barrier_iceberg::Connection;
use barrier_iceberg::stock::{EPOCH_KEY, IcebergTable, committed_epoch, stage_append};
use barrier_sink::{AppId, Epoch};
use iceberg::transaction::{ApplyTransactionAction, Transaction};

/// The experiment's table on a fresh in-process catalog.
async fn table(dir: &std::path::Path) -> IcebergTable {
    let warehouse = format!("file://{}", dir.join("warehouse").display());
    let connection = Connection::Memory { name: "claims".into(), warehouse };
    IcebergTable::create(&connection, "claims", "events").await.expect("table")
}

/// `rows` rows of the experiment's schema.
fn batch(first_id: i64, rows: usize, payload: &str) -> RecordBatch {
    let schema =
        Schema::new(vec![Field::new("id", DataType::Int64, false), Field::new("payload", DataType::Utf8, true)]);
    let ids: Int64Array = (first_id..first_id + rows as i64).collect();
    let payloads: StringArray = (0..rows).map(|_| Some(payload)).collect();
    RecordBatch::try_new(Arc::new(schema), vec![Arc::new(ids), Arc::new(payloads)]).expect("columns match")
}

/// "I had already set commit.retry.num-retries = 0 ... It does not help. ... the rebase is not
/// part of the retry": with no retry at all, a transaction built on a base that another writer
/// has since moved still commits, rebased onto the winner's snapshot on its first and only
/// attempt. Had `do_commit` kept the caller's base, the append's `RefSnapshotIdMatch` would
/// have failed the one attempt.
#[tokio::test]
async fn num_retries_zero_does_not_stop_the_rebase() {
    let dir = tempfile::tempdir().unwrap();
    let table = table(dir.path()).await;
    let initial = table.load().await.unwrap();
    let tx = Transaction::new(&initial);
    let tx = tx.update_table_properties().set("commit.retry.num-retries".into(), "0".into()).apply(tx).unwrap();
    tx.commit(table.catalog.as_ref()).await.unwrap();

    let app = AppId::new("claims").unwrap();
    let one = Epoch::new(1).unwrap();
    let stale = table.load().await.unwrap();
    assert_eq!(stale.metadata().table_properties().unwrap().commit_num_retries, 0);
    assert_eq!(committed_epoch(stale.metadata(), &app).unwrap(), None, "epoch 1 is free when the stale writer checks");

    let winner = table.load().await.unwrap();
    let files = IcebergTable::write(&winner, &batch(0, 10, "winner"), "winner".into()).await.unwrap();
    let won = stage_append(Transaction::new(&winner), files, &app, one)
        .unwrap()
        .commit(table.catalog.as_ref())
        .await
        .unwrap();
    let winning_snapshot = won.metadata().current_snapshot_id().unwrap();

    let files = IcebergTable::write(&stale, &batch(10, 10, "stale"), "stale".into()).await.unwrap();
    let late = stage_append(Transaction::new(&stale), files, &app, one)
        .unwrap()
        .commit(table.catalog.as_ref())
        .await
        .expect("the stale transaction commits with no retry");

    let parent = late.metadata().current_snapshot().unwrap().parent_snapshot_id();
    assert_eq!(parent, Some(winning_snapshot), "rebased onto the winner's snapshot");
    assert_eq!(table.epoch_history(&app).await.unwrap(), vec![one, one], "epoch 1 committed twice");
}

/// "Computed metric keys such as added-records win over user-supplied ones, and my key is not
/// reserved": a caller's `added-records` is overwritten by the computed count, its own key kept.
#[tokio::test]
async fn computed_summary_keys_win_over_caller_keys() {
    let dir = tempfile::tempdir().unwrap();
    let table = table(dir.path()).await;
    let base = table.load().await.unwrap();
    let files = IcebergTable::write(&base, &batch(0, 7, "summary"), "summary".into()).await.unwrap();
    let tx = Transaction::new(&base);
    let append = tx.fast_append().add_data_files(files).set_snapshot_properties(HashMap::from([
        ("added-records".to_string(), "999".to_string()),
        (EPOCH_KEY.to_string(), "1".to_string()),
    ]));
    let committed = append.apply(tx).unwrap().commit(table.catalog.as_ref()).await.unwrap();
    let summary = &committed.metadata().current_snapshot().unwrap().summary().additional_properties;
    assert_eq!(summary.get("added-records").map(String::as_str), Some("7"));
    assert_eq!(summary.get(EPOCH_KEY).map(String::as_str), Some("1"));
}

/// "Both iceberg 0.10.1 and deltalake-core 0.32.4 require arrow-array 58": the arrow-array each
/// of them resolved to in this workspace's lockfile. Were either on another major, the lockfile
/// would hold that version too and name it in that package's dependency list.
#[test]
fn iceberg_and_deltalake_core_resolve_arrow_58() {
    let lock = include_str!("../../../Cargo.lock");
    let packages: Vec<&str> = lock.split("[[package]]").skip(1).collect();
    let field = |package: &str, key: &str| {
        package
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{key} = \"")))
            .map(|rest| rest.trim_end_matches('"').to_string())
    };
    let arrow_versions: Vec<String> = packages
        .iter()
        .filter(|p| field(p, "name").as_deref() == Some("arrow-array"))
        .filter_map(|p| field(p, "version"))
        .collect();
    for (name, version) in [("iceberg", "0.10.1"), ("deltalake-core", "0.32.4")] {
        let package = packages
            .iter()
            .find(|p| {
                field(p, "name").as_deref() == Some(name)
                    && field(p, "version").as_deref() == Some(version)
                    && p.contains("registry+")
            })
            .unwrap_or_else(|| panic!("{name} {version} from crates.io is not in Cargo.lock"));
        let dependency = package
            .lines()
            .map(|line| line.trim().trim_matches(|c| c == '"' || c == ','))
            .find(|dep| *dep == "arrow-array" || dep.starts_with("arrow-array "))
            .unwrap_or_else(|| panic!("{name} does not depend on arrow-array"));
        let resolved = match dependency.strip_prefix("arrow-array ") {
            Some(pinned) => pinned.to_string(),
            None => {
                assert_eq!(arrow_versions.len(), 1, "an unqualified dependency means one arrow-array");
                arrow_versions[0].clone()
            }
        };
        println!("{name} {version} -> arrow-array {resolved}");
        assert!(resolved.starts_with("58."), "{name} {version} resolved arrow-array {resolved}");
    }
}

//! A snapshot id reused after its snapshot expired, while its child still names it as parent,
//! makes `main`'s ancestry a cycle (patch 5 refuses such an id; a writer without it may not):
//! this project's walks report it as `Corrupt` instead of following it for ever.

use std::collections::HashMap;

use barrier_iceberg::stock::{committed_epoch_on_main, epoch_history, synthetic_history};
use barrier_sink::data::unix_millis;
use barrier_sink::{AppId, SinkError};
use iceberg::spec::{MAIN_BRANCH, Operation, Snapshot, SnapshotReference, SnapshotRetention, Summary};

#[test]
fn a_cycle_in_main_s_ancestry_is_corrupt_not_a_hang() {
    // Snapshots 1 <- 2, both app-0's; 1 expires, and a new snapshot 1 is added on 2 as `main`.
    let metadata = synthetic_history(2, 1);
    let reused = Snapshot::builder()
        .with_snapshot_id(1)
        .with_parent_snapshot_id(Some(2))
        .with_sequence_number(3)
        .with_timestamp_ms(unix_millis())
        .with_manifest_list("file:///synthetic/metadata/snap-1-again.avro".to_string())
        .with_summary(Summary { operation: Operation::Append, additional_properties: HashMap::new() })
        .with_schema_id(metadata.current_schema_id())
        .build();
    let main = SnapshotReference::new(1, SnapshotRetention::branch(None, None, None));
    let cyclic = metadata
        .into_builder(None)
        .remove_snapshots(&[1])
        .add_snapshot(reused)
        .and_then(|builder| builder.set_ref(MAIN_BRANCH, main))
        .and_then(|builder| builder.build())
        .expect("the library's builder accepts the reused id")
        .metadata;

    let never_committed = AppId::new("app-9").expect("not empty");
    let walk = committed_epoch_on_main(&cyclic, &never_committed);
    let history = epoch_history(&cyclic, &AppId::new("app-0").expect("not empty"));

    assert!(matches!(walk, Err(SinkError::Corrupt(_))), "{walk:?}");
    assert!(matches!(history, Err(SinkError::Corrupt(_))), "{history:?}");
}

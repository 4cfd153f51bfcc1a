//! Another writer's rewrite of the table's data (`epochs_survive_rewrite`): every data file live in
//! `main` replaced by new files holding the same rows, in one snapshot of operation `replace` that
//! carries no app's epoch. What a compaction does, and what an overwrite with the same rows does:
//! the epochs' files stop being live, their snapshots stay in the ancestry.
//!
//! Stock iceberg-rust 0.10.1 has no rewrite action and no public way to commit a snapshot it did
//! not build (`TableCommit`'s builder is crate-private), so the snapshot is built here and
//! published by the build: through patch 1's public `TransactionAction` on the patched build (the
//! library's own commit, `main` asserted at the base it was built on), by registering the next
//! metadata file on the stock builds (`register_again`, as `seed_history` does).

use std::collections::HashMap;

use barrier_sink::SinkError;
use futures::TryStreamExt;
use uuid::Uuid;

use super::errors::iceberg_error;
use super::ice::spec::{
    ManifestListWriter, ManifestWriterBuilder, Operation, Snapshot, SnapshotReference, SnapshotRetention, Summary,
};
use super::ice::table::Table;
use super::table::IcebergTable;
use super::{compat, publish};

/// The replace snapshot of `base`'s `main`, its files written; `None` for a table with no data.
async fn replace_snapshot(base: &Table) -> Result<Option<Snapshot>, SinkError> {
    let metadata = base.metadata();
    let Some(current) = metadata.current_snapshot() else { return Ok(None) };
    let batches: Vec<_> = base
        .scan()
        .build()
        .map_err(iceberg_error)?
        .to_arrow()
        .await
        .map_err(iceberg_error)?
        .try_collect()
        .await
        .map_err(iceberg_error)?;
    let tag = Uuid::new_v4();
    let mut added = vec![];
    for batch in batches.iter().filter(|b| b.num_rows() > 0) {
        added.extend(IcebergTable::write(base, batch, format!("rewrite-{tag}")).await?);
    }
    let (id, sequence) = (fresh_snapshot_id(base), metadata.last_sequence_number() + 1);
    let io = base.file_io();
    let manifest =
        io.new_output(format!("{}/metadata/rewrite-{tag}-m0.avro", metadata.location())).map_err(iceberg_error)?;
    let spec = metadata.default_partition_spec().as_ref().clone();
    let mut writer =
        ManifestWriterBuilder::new(manifest, Some(id), metadata.current_schema().clone(), spec).build_v2_data();
    for file in added {
        writer.add_file(file, sequence).map_err(iceberg_error)?;
    }
    let list = base.manifest_list_reader(current).load().await.map_err(iceberg_error)?;
    for manifest in list.entries() {
        for entry in compat::load_manifest(base, manifest).await.map_err(iceberg_error)?.entries() {
            if entry.is_alive() {
                let written = entry.sequence_number();
                let kept = written.unwrap_or(sequence);
                writer.add_delete_file(entry.data_file().clone(), kept, written).map_err(iceberg_error)?;
            }
        }
    }
    let manifest = writer.write_manifest_file().await.map_err(iceberg_error)?;
    let list_path = format!("{}/metadata/snap-{id}-rewrite-{tag}.avro", metadata.location());
    let list_writer = io.new_output(&list_path).map_err(iceberg_error)?.writer().await.map_err(iceberg_error)?;
    let mut list = ManifestListWriter::v2(list_writer, id, Some(current.snapshot_id()), sequence);
    list.add_manifests(std::iter::once(manifest)).map_err(iceberg_error)?;
    list.close().await.map_err(iceberg_error)?;
    Ok(Some(
        Snapshot::builder()
            .with_snapshot_id(id)
            .with_parent_snapshot_id(Some(current.snapshot_id()))
            .with_sequence_number(sequence)
            .with_timestamp_ms(barrier_sink::data::unix_millis())
            .with_manifest_list(list_path)
            .with_summary(Summary { operation: Operation::Replace, additional_properties: HashMap::new() })
            .with_schema_id(metadata.current_schema_id())
            .build(),
    ))
}

impl IcebergTable {
    /// Another writer rewrites the table's data: `false` if it holds none.
    pub async fn rewrite_data(&self) -> Result<bool, SinkError> {
        let base = self.load().await?;
        let Some(snapshot) = replace_snapshot(&base).await? else { return Ok(false) };
        let main = main_at(&snapshot);
        publish::snapshot(self, &base, snapshot, main).await?;
        Ok(true)
    }
}

/// `main` at `snapshot`.
fn main_at(snapshot: &Snapshot) -> SnapshotReference {
    SnapshotReference::new(snapshot.snapshot_id(), SnapshotRetention::branch(None, None, None))
}

/// A positive snapshot id the table does not hold.
fn fresh_snapshot_id(table: &Table) -> i64 {
    loop {
        let (high, low) = Uuid::new_v4().as_u64_pair();
        let id = ((high ^ low) >> 1) as i64;
        if id > 0 && table.metadata().snapshot_by_id(id).is_none() {
            return id;
        }
    }
}

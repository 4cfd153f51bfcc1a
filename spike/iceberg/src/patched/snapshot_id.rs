//! `iceberg-snapshot-id`: the epoch as the id of the snapshot that commits it
//! (`FastAppendAction::set_snapshot_id`, patch 5, an experiment). RisingWave's key: its sink fixes
//! the snapshot id before the commit (`sink/iceberg/commit.rs`, `is_snapshot_id_in_iceberg`) and
//! its fork of iceberg-rust refuses an id already in the base.

use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError, SourceFile};
use sha2::{Digest, Sha256};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, IcebergTable, epoch_summary, fast_append};
use super::ice::spec::TableMetadata;
use super::ice::table::Table;
use super::ice::transaction::{ApplyTransactionAction, Transaction};
use super::ice::{self, ErrorKind};
use crate::extension_points::SET_SNAPSHOT_ID;

/// Commits the fast append with the snapshot id [`snapshot_id`] derives from the table, the app
/// and the epoch. The append refuses that id on every attempt if the table it was rebased onto
/// already has it (patch 5), and its `RefSnapshotIdMatch` pins that table at the swap: a second
/// commit of the epoch is refused inside the library's loop, with `DataInvalid`, which the sink
/// reads back, after a reload, as `AlreadyCommitted`. Past that, the library's own apply of the
/// updates refuses an id its copy of the metadata has, and the catalogs refuse one too
/// (`spike/lab/tests/snapshot_id.rs`, the contract's `duplicate_snapshot_id`, `spike/lab/tests/contract/http.rs`).
///
/// What it decides, and what it does not:
/// - Its look is on a table it loads for every commit (never on the table its last commit
///   returned: a writer that keys its epochs another way may have committed since, and a held
///   table would say "free"). One `snapshot_by_id`: the epoch's own id there is a replay. A
///   snapshot with that id but another app or epoch in its summary is a collision of the derived
///   id, reported as `Corrupt`, never taken for a commit. Then the summary and watermark look
///   every arm makes, which also answers an epoch below the committed one, and an epoch another
///   kind of writer recorded; that look is not atomic with the swap, so, as `iceberg-file-key`,
///   it refuses duplicates atomically, not regressions.
/// - Only writers that derive the same id are fenced at the swap: a writer that records the epoch
///   in the summary alone (another arm, a peer) and commits between this writer's load and its
///   swap is seen by neither check, and the epoch lands twice (`snapshot_id::*::a_summary_keyed_
///   writer_in_the_window_is_not_fenced`, asserted).
/// - The id check sees every snapshot the metadata holds, on `main` or not, and every parent id
///   they name. Once the epoch's snapshot and its child are both expired, the id is free again:
///   a writer held past that commits the epoch a second time (the watermark answers a replay,
///   but nothing at the swap remembers the id; `spike/lab/tests/snapshot_id.rs`).
/// - It writes its files under fresh names, so it needs no put-if-absent storage, and a rewrite of
///   the table's data leaves the epoch's snapshot, and its id, in place.
pub struct SnapshotId;

/// The id of the snapshot that commits `epoch` of `app` to the table whose uuid `metadata` names:
/// the first 8 bytes of SHA-256 over a domain tag, the table uuid, the app's length and bytes and
/// the epoch, as a positive `i64`. Any two of the table's ids collide with odds of 2⁻⁶³ (a table
/// of n snapshots: about n²·2⁻⁶⁴ over its life, 5·10⁻¹² at n = 10 000), the same as the
/// library's random ids; a collision refuses the later epoch as `Corrupt`, it loses nothing.
pub fn snapshot_id(metadata: &TableMetadata, app: &AppId, epoch: Epoch) -> i64 {
    let app = app.as_str().as_bytes();
    let digest = Sha256::new()
        .chain_update(b"barrier.snapshot-id\0")
        .chain_update(metadata.uuid().as_bytes())
        .chain_update((app.len() as u64).to_be_bytes())
        .chain_update(app)
        .chain_update(epoch.get().to_be_bytes())
        .finalize();
    let id = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes")) >> 1;
    // `>> 1` leaves 63 bits; zero is the one value left that is not a positive id.
    id.max(1) as i64
}

impl CommitStrategy for SnapshotId {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&SET_SNAPSHOT_ID),
            files: &[SourceFile { path: file!(), text: include_str!("snapshot_id.rs") }],
        }
    }

    // The look is in the sink; what enforces the claim is the id's refusal in the commit.
    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        let metadata = base.metadata();
        if let Some(snapshot) = metadata.snapshot_by_id(snapshot_id(metadata, app, epoch)) {
            let summary = &snapshot.summary().additional_properties;
            let ours = epoch_summary(app, epoch);
            if ours.iter().any(|(key, value)| summary.get(key) != Some(value)) {
                return Err(SinkError::Corrupt(format!(
                    "snapshot {} has the id of epoch {epoch} of {app} but another summary: {summary:?}",
                    snapshot.snapshot_id()
                )));
            }
        }
        IcebergTable::replay(base, app, epoch)
    }

    fn stage(&self, base: &Table, mut append: Append, _check: &EpochCheck) -> ice::Result<Transaction> {
        let tx = Transaction::new(base);
        let id = snapshot_id(base.metadata(), &append.app, append.epoch);
        let action = fast_append!(tx, append).set_snapshot_id(id);
        action.apply(tx).and_then(|tx| append.record_watermark(tx))
    }

    /// Patch 5's refusal on the refreshed base, or the metadata builder's `add_snapshot` refusing
    /// a duplicate id (the library's own apply of the updates; memory's and SQL's `update_table`).
    fn epoch_taken(&self, err: &ice::Error) -> bool {
        let message = err.message();
        err.kind() == ErrorKind::DataInvalid
            && ((message.starts_with("Snapshot id ") && message.ends_with(" already exists in the table"))
                || message.starts_with("Snapshot already exists for: "))
    }
}

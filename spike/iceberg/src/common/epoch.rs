//! Where an Iceberg table keeps an app's epoch: in the summary of the snapshot that committed it.

use std::borrow::Borrow;
use std::collections::HashMap;

use super::ice::spec::{
    FormatVersion, MAIN_BRANCH, NestedField, Operation, PrimitiveType, Schema, Snapshot, SnapshotRef,
    SnapshotReference, SnapshotRetention, SortOrder, Summary, TableMetadata, TableMetadataBuilder, Type,
    UnboundPartitionSpec,
};
use barrier_sink::data::unix_millis;
use barrier_sink::{AppId, Epoch, Hooks, SinkError};

use super::ice::table::Table;
use super::ice::transaction::{ApplyTransactionAction, Transaction};
use super::ice::{self, ErrorKind};

/// Summary key naming the app whose batch a snapshot committed.
pub const APP_ID_KEY: &str = "barrier.app-id";
/// Summary key holding that batch's epoch.
pub const EPOCH_KEY: &str = "barrier.epoch";
/// Table property prefix of an app's watermark, set in the same commit as each append.
pub const WATERMARK_PREFIX: &str = "barrier.watermark.";

/// The table property holding `app`'s watermark.
pub fn watermark_key(app: &AppId) -> String {
    format!("{WATERMARK_PREFIX}{app}")
}

/// Adds to `tx` the property update that records `epoch` as `app`'s watermark. Snapshot expiry
/// removes the summaries that carry the epochs; table properties survive it. Each commit sets
/// only its own app's key, and the update is applied to the refreshed table on every attempt, so
/// a rebase cannot carry a stale value over another app's.
pub fn record_watermark(tx: Transaction, app: &AppId, epoch: Epoch) -> ice::Result<Transaction> {
    tx.update_table_properties().set(watermark_key(app), epoch.to_string()).apply(tx)
}

/// The summary properties a sink's append carries. Not reserved keys: Iceberg's computed
/// summary metrics (`added-records`, ...) win over caller keys, and these are not among them.
pub fn epoch_summary(app: &AppId, epoch: Epoch) -> HashMap<String, String> {
    HashMap::from([(APP_ID_KEY.to_string(), app.to_string()), (EPOCH_KEY.to_string(), epoch.to_string())])
}

/// The newest epoch of `app`: the larger of its watermark property and what the ancestry walk
/// ([`committed_epoch_on_main`]) finds. The walk ties the epoch to the data it committed; the
/// property survives snapshot expiry. Neither is ever ahead of the data (both are written in the
/// commit that adds it), so the larger one never skips a batch, and the property keeps the
/// answer from falling back once expiry has cut the app's snapshots.
// Never inlined, so that an instruction profile of a commit can attribute the check to it
// (`benches/src/bin/instructions.rs` finds it by this path).
#[inline(never)]
pub fn committed_epoch(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    Ok(committed_epoch_on_main(metadata, app)?.max(watermark(metadata, app)?))
}

/// The epoch `app`'s watermark property records, if any.
pub fn watermark(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    match metadata.properties().get(&watermark_key(app)) {
        None => Ok(None),
        Some(stored) => Ok(Some(Epoch::from_stored(
            stored.parse().map_err(|_| SinkError::Corrupt(format!("property {} is {stored:?}", watermark_key(app))))?,
        )?)),
    }
}

/// The newest epoch of `app` on `main`: walks main's ancestry newest-first and stops at the first
/// snapshot this app committed.
///
/// Why the first one is the answer: only snapshots reachable from `main` are committed table
/// state (a rolled-back or branch-only snapshot holds no rows of `main`), and a guarded commit
/// only ever adds a snapshot whose epoch is above the app's epoch in the ancestry it commits on.
/// Along the ancestry an app's epochs therefore fall as the walk goes back, and the newest is the
/// largest. The walk passes over other apps' and other operations' snapshots, and its cost is the
/// distance back to this app's last commit, not the length of the history.
pub fn committed_epoch_on_main(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    let walked = committed_epoch_in(main_ancestry(metadata).map(AsRef::as_ref), app)?;
    if walked.is_none() {
        acyclic(metadata)?;
    }
    Ok(walked)
}

/// `main`'s snapshots, newest first. A parent that is missing was removed by snapshot expiry:
/// nothing older is left to read. At most as many as the metadata holds, so that a cycle ends the
/// walk too ([`acyclic`] tells the two apart).
fn main_ancestry(metadata: &TableMetadata) -> impl Iterator<Item = &SnapshotRef> {
    let mut next = metadata.current_snapshot_id();
    let ancestry = std::iter::from_fn(move || {
        let snapshot = metadata.snapshot_by_id(next?)?;
        next = snapshot.parent_snapshot_id();
        Some(snapshot)
    });
    ancestry.take(metadata.snapshots().len())
}

/// `main`'s ancestry ends: a snapshot id reused after its snapshot expired, while its child still
/// names it as parent, makes it a cycle that a walk would follow for ever (patch 5 refuses such an
/// id; a writer without it may not).
fn acyclic(metadata: &TableMetadata) -> Result<(), SinkError> {
    match main_ancestry(metadata).last().and_then(|last| last.parent_snapshot_id()) {
        Some(parent) if metadata.snapshot_by_id(parent).is_some() => {
            Err(SinkError::Corrupt(format!("main's ancestry is a cycle through snapshot {parent}")))
        }
        _ => Ok(()),
    }
}

/// The newest epoch of `app` in an ancestry walked newest-first (`committed_epoch_on_main`'s
/// walk, or the one the library hands a snapshot validator, patch 3).
pub fn committed_epoch_in<S: Borrow<Snapshot>>(
    ancestry: impl IntoIterator<Item = S>,
    app: &AppId,
) -> Result<Option<Epoch>, SinkError> {
    for snapshot in ancestry {
        if let Some(epoch) = epoch_of(snapshot.borrow(), app)? {
            return Ok(Some(epoch));
        }
    }
    Ok(None)
}

/// Every epoch `app` committed on `main`, newest first: what an audit counts duplicates in.
pub fn epoch_history(metadata: &TableMetadata, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
    Ok(app_snapshots(metadata, app)?.into_iter().map(|(_, epoch)| epoch).collect())
}

/// Every snapshot on `main` that `app` committed, newest first, with its epoch.
pub(super) fn app_snapshots<'a>(
    metadata: &'a TableMetadata,
    app: &AppId,
) -> Result<Vec<(&'a SnapshotRef, Epoch)>, SinkError> {
    acyclic(metadata)?;
    let mut snapshots = vec![];
    for snapshot in main_ancestry(metadata) {
        if let Some(epoch) = epoch_of(snapshot, app)? {
            snapshots.push((snapshot, epoch));
        }
    }
    Ok(snapshots)
}

/// The same answer from every snapshot the metadata holds, main's or not: the baseline the
/// ancestry walk is benchmarked against. Counts snapshots off `main`, which the walk rightly skips.
pub fn committed_epoch_full_scan(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    metadata.snapshots().try_fold(None, |newest, snapshot| Ok(newest.max(epoch_of(snapshot, app)?)))
}

/// The epoch `app` recorded in `main`'s current snapshot, if that snapshot is the app's: all
/// Arroyo's sink looks at (`arroyo.commit-id` in the current snapshot's summary).
pub fn epoch_of_current(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    metadata.current_snapshot().map_or(Ok(None), |snapshot| epoch_of(snapshot, app))
}

/// The epoch of `app`'s snapshot with the highest sequence number among every snapshot the
/// metadata holds, on `main` or not: Materialize's `retrieve_upper_from_snapshots`.
pub fn epoch_of_newest_sequence(metadata: &TableMetadata, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    let mut newest: Option<(i64, Epoch)> = None;
    for snapshot in metadata.snapshots() {
        if let Some(epoch) = epoch_of(snapshot, app)? {
            newest = newest.max(Some((snapshot.sequence_number(), epoch)));
        }
    }
    Ok(newest.map(|(_, epoch)| epoch))
}

fn epoch_of(snapshot: &Snapshot, app: &AppId) -> Result<Option<Epoch>, SinkError> {
    let summary = &snapshot.summary().additional_properties;
    if summary.get(APP_ID_KEY).map(String::as_str) != Some(app.as_str()) {
        return Ok(None);
    }
    let stored = summary.get(EPOCH_KEY).ok_or_else(|| {
        SinkError::Corrupt(format!("snapshot {} names app {app} but no epoch", snapshot.snapshot_id()))
    })?;
    let stored: i64 = stored
        .parse()
        .map_err(|_| SinkError::Corrupt(format!("snapshot {} has epoch {stored:?}", snapshot.snapshot_id())))?;
    Epoch::from_stored(stored).map(Some)
}

/// The rejection of a commit whose epoch the refreshed table already records, as the guards
/// inside the commit raise it (a validator turns it into its `Verdict::Reject`, patch 3). Not
/// retryable: no later refresh can un-commit an epoch, so the library's retry loop must stop on it.
fn epoch_taken(app: &AppId, committed: Epoch) -> ice::Error {
    ice::Error::new(ErrorKind::PreconditionFailed, EPOCH_TAKEN)
        .with_context("app", app.to_string())
        .with_context("committed", committed.to_string())
}

/// Whether `err` is the check's rejection, or wraps it somewhere in its source chain. Decided by
/// the sink's own message on an `ice::Error` in the chain, never by the rendered error, and not
/// by kind: the library's own actions return `PreconditionFailed` too.
pub fn is_epoch_taken(err: &ice::Error) -> bool {
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(err) = next {
        if err.downcast_ref::<ice::Error>().is_some_and(|err| err.message() == EPOCH_TAKEN) {
            return true;
        }
        next = err.source();
    }
    false
}

const EPOCH_TAKEN: &str = "barrier: epoch already committed";

/// Whether `epoch` is still free for `app`, given the newest epoch the guard found committed.
fn free(committed: Result<Option<Epoch>, SinkError>, app: &AppId, epoch: Epoch) -> ice::Result<()> {
    match committed {
        Err(e) => Err(ice::Error::new(ErrorKind::DataInvalid, e.to_string())),
        Ok(Some(committed)) if committed >= epoch => Err(epoch_taken(app, committed)),
        Ok(_) => Ok(()),
    }
}

/// The check a guard runs on the table the transaction refreshed, and the hooks it reports to.
#[derive(Clone)]
pub struct EpochCheck {
    pub app: AppId,
    pub epoch: Epoch,
    pub hooks: Hooks,
}

impl EpochCheck {
    /// Rejects `table` if it records the epoch (a non-retryable `PreconditionFailed` the body
    /// reads back as `AlreadyCommitted`), else reports the check passed to the hooks, which may
    /// hold the writer there.
    pub async fn run(&self, table: &Table) -> ice::Result<()> {
        self.judge(committed_epoch(table.metadata(), &self.app)).await
    }

    /// [`EpochCheck::run`] on the app's newest epoch as found elsewhere (a validator's ancestry).
    pub async fn judge(&self, committed: Result<Option<Epoch>, SinkError>) -> ice::Result<()> {
        free(committed, &self.app, self.epoch)?;
        self.hooks.epoch_check_passed().await;
        Ok(())
    }
}

/// Table metadata with `history` snapshots on `main`, committed in turn by `apps` apps
/// (`app-0`, `app-1`, ...), each snapshot one epoch further for its app: what the epoch lookup
/// walks, without the files. For benchmarks of the lookup alone.
pub fn synthetic_history(history: usize, apps: usize) -> TableMetadata {
    let schema = Schema::builder()
        .with_fields(vec![NestedField::required(1, "id", Type::Primitive(PrimitiveType::Long)).into()])
        .build()
        .expect("static schema");
    let empty = TableMetadataBuilder::new(
        schema,
        UnboundPartitionSpec::builder().build(),
        SortOrder::unsorted_order(),
        "file:///synthetic".to_string(),
        FormatVersion::V2,
        HashMap::new(),
    )
    .expect("static metadata")
    .build()
    .expect("static metadata")
    .metadata;
    let apps: Vec<AppId> = (0..apps.max(1)).map(|i| AppId::new(format!("app-{i}")).expect("not empty")).collect();
    extend_history(empty, None, history, &apps, |id| format!("file:///synthetic/metadata/snap-{id}.avro"))
        .expect("synthetic snapshots are valid")
}

/// The totals iceberg-rust puts in every append's summary (`update_snapshot_summaries`).
const ZERO_TOTALS: [&str; 6] = [
    "total-data-files",
    "total-delete-files",
    "total-records",
    "total-files-size",
    "total-position-deletes",
    "total-equality-deletes",
];

/// `metadata` (whose file is `location`, if it has one) with `history` more snapshots on
/// `main`, each the child of the one before, committed in turn by `apps`, each one epoch
/// further for its app (from 1 on a table without snapshots), with the summary an append of no
/// data files writes: the epoch and zero totals. Snapshot `id`'s manifest list is named
/// `manifest_list(id)`; nothing is written. What a history of real commits leaves in the
/// metadata, built in one pass instead of one metadata rewrite per snapshot. The snapshots are
/// a millisecond apart and end now, so `history` must stay under the minute of clock skew the
/// metadata builder tolerates.
pub fn extend_history(
    metadata: TableMetadata,
    location: Option<String>,
    history: usize,
    apps: &[AppId],
    manifest_list: impl Fn(i64) -> String,
) -> ice::Result<TableMetadata> {
    let first = metadata.last_sequence_number() + 1;
    let schema_id = metadata.current_schema_id();
    let mut parent = metadata.current_snapshot_id();
    let mut builder = metadata.into_builder(location);
    let start_ms = unix_millis() - history as i64;
    for i in 0..history {
        let id = first + i as i64;
        let app = &apps[i % apps.len()];
        let mut properties = epoch_summary(app, Epoch::new((i / apps.len() + 1) as u64).expect("in range"));
        properties.extend(ZERO_TOTALS.map(|key| (key.to_string(), "0".to_string())));
        let snapshot = Snapshot::builder()
            .with_snapshot_id(id)
            .with_parent_snapshot_id(parent)
            .with_sequence_number(id)
            .with_timestamp_ms(start_ms + i as i64)
            .with_manifest_list(manifest_list(id))
            .with_summary(Summary { operation: Operation::Append, additional_properties: properties })
            .with_schema_id(schema_id)
            .build();
        builder = builder
            .add_snapshot(snapshot)?
            .set_ref(MAIN_BRANCH, SnapshotReference::new(id, SnapshotRetention::branch(None, None, None)))?;
        parent = Some(id);
    }
    Ok(builder.build()?.metadata)
}

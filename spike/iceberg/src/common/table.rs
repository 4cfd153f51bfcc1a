//! One table of the experiment through this build: creating it, writing a batch as Parquet data
//! files, reading back its epochs and rows, and what a harness does to it besides committing.

use std::collections::BTreeSet;
use std::str::FromStr;
use std::sync::Arc;

use arrow_array::RecordBatch;
use barrier_sink::data::{check_schema, parquet_rows_of, payloads_of, unix_millis};
use barrier_sink::{AppId, CommitOutcome, Epoch, Failpoint, SinkError};
use futures::TryStreamExt;
use parquet::file::properties::WriterProperties;
use uuid::Uuid;

use super::epoch::{app_snapshots, committed_epoch, committed_epoch_on_main, extend_history};
use super::errors::{iceberg_error, load_error};
use super::ice::spec::{
    DataContentType, DataFile, DataFileBuilder, DataFileFormat, ManifestFile, ManifestListWriter, ManifestStatus,
    ManifestWriterBuilder, NestedField, PrimitiveType, Schema, TableMetadata, Type,
};
use super::ice::table::Table;
use super::ice::transaction::{ApplyTransactionAction, Transaction};
use super::ice::writer::base_writer::data_file_writer::DataFileWriterBuilder;
use super::ice::writer::file_writer::ParquetWriterBuilder;
use super::ice::writer::file_writer::location_generator::{DefaultFileNameGenerator, DefaultLocationGenerator};
use super::ice::writer::file_writer::rolling_writer::RollingFileWriterBuilder;
use super::ice::writer::{IcebergWriter, IcebergWriterBuilder};
use super::ice::{self, Catalog, MetadataLocation, NamespaceIdent, TableCreation, TableIdent};
use super::{catalog, compat};
use crate::HeadManifests;
use crate::connection::Connection;

/// Commit retry settings of every table the experiment creates. The defaults (4 retries, 100 ms
/// first wait) give up under eight contending writers; these keep the library's loop going long
/// enough that contention shows up as retries rather than as failed commits.
const TABLE_PROPERTIES: [(&str, &str); 4] = [
    ("commit.retry.num-retries", "50"),
    ("commit.retry.min-wait-ms", "2"),
    ("commit.retry.max-wait-ms", "100"),
    ("commit.retry.total-timeout-ms", "120000"),
];

/// The experiment's table schema: `id: long not null, payload: string`.
fn table_schema() -> Schema {
    Schema::builder()
        .with_fields(vec![
            NestedField::required(1, "id", Type::Primitive(PrimitiveType::Long)).into(),
            NestedField::optional(2, "payload", Type::Primitive(PrimitiveType::String)).into(),
        ])
        .build()
        .expect("static schema is valid")
}

/// A connection to one table. Cloning it shares the connection (for `memory`, the catalog).
#[derive(Clone)]
pub struct IcebergTable {
    pub catalog: Arc<dyn Catalog>,
    pub ident: TableIdent,
}

impl IcebergTable {
    /// Creates the namespace (if needed) and the experiment's table `name` in it.
    pub async fn create(connection: &Connection, namespace: &str, name: &str) -> Result<Self, SinkError> {
        let catalog = catalog::open(connection).await?;
        let namespace = NamespaceIdent::new(namespace.to_string());
        if !catalog.namespace_exists(&namespace).await.map_err(iceberg_error)? {
            catalog.create_namespace(&namespace, Default::default()).await.map_err(iceberg_error)?;
        }
        let creation = TableCreation::builder()
            .name(name.to_string())
            .schema(table_schema())
            .properties(TABLE_PROPERTIES.map(|(k, v)| (k.to_string(), v.to_string())))
            .build();
        catalog.create_table(&namespace, creation).await.map_err(iceberg_error)?;
        Ok(Self { catalog, ident: TableIdent::new(namespace, name.to_string()) })
    }

    /// A new connection to the table `name` in `namespace`, which may or may not exist.
    pub async fn open(connection: &Connection, namespace: &str, name: &str) -> Result<Self, SinkError> {
        let catalog = catalog::open(connection).await?;
        Ok(Self { catalog, ident: TableIdent::new(NamespaceIdent::new(namespace.to_string()), name.to_string()) })
    }

    /// The table `name` beside this one, on the same connection.
    pub fn named(&self, name: &str) -> Self {
        Self {
            catalog: Arc::clone(&self.catalog),
            ident: TableIdent::new(self.ident.namespace().clone(), name.to_string()),
        }
    }

    /// A new table named `name` in the same namespace, registered on this table's current metadata:
    /// the same history, without rewriting it. Benchmarks fork one seeded table per arm.
    pub async fn fork(&self, name: &str) -> Result<IcebergTable, SinkError> {
        let location = self
            .load()
            .await?
            .metadata_location()
            .ok_or_else(|| SinkError::Iceberg("table has no metadata file".into()))?
            .to_string();
        let ident = TableIdent::new(self.ident.namespace().clone(), name.to_string());
        self.catalog.register_table(&ident, location).await.map_err(iceberg_error)?;
        Ok(IcebergTable { catalog: self.catalog.clone(), ident })
    }

    /// Gives the table `snapshots` more snapshots on `main`, appends of `app` with epochs 1 to
    /// `snapshots`, in seconds at any history: the metadata is built in one pass
    /// ([`extend_history`]) and written as the next metadata file, and the table is registered
    /// again on that file. The new current snapshot's manifest list is real, and lists what `shape`
    /// says ([`HeadManifests`]). The older snapshots' manifest lists are
    /// named and never written: nothing that commits or counts rows reads them, but a reader of
    /// every snapshot's files (`table_files`, so `left_behind`) would fail on them. Fails, rather
    /// than seed a different table, on a catalog that registers a file without reading it
    /// (SeaweedFS's REST catalog, where `wire` seeds with real commits instead).
    pub async fn seed_history(&self, app: &AppId, snapshots: u64, shape: HeadManifests) -> Result<(), SinkError> {
        let base = self.load().await?;
        let location =
            base.metadata_location().ok_or_else(|| SinkError::Iceberg("table has no metadata file".into()))?;
        let lists = format!("{}/metadata/seeded-{}", base.metadata().location(), Uuid::new_v4());
        let metadata = extend_history(
            base.metadata().clone(),
            Some(location.to_string()),
            snapshots as usize,
            std::slice::from_ref(app),
            |id| format!("{lists}-snap-{id}.avro"),
        )
        .map_err(iceberg_error)?;
        if let Some(head) = metadata.current_snapshot() {
            // The fixtures' tables are format v2, `TableCreation`'s default.
            let list = base.file_io().new_output(head.manifest_list()).map_err(iceberg_error)?;
            let writer = list.writer().await.map_err(iceberg_error)?;
            let mut list =
                ManifestListWriter::v2(writer, head.snapshot_id(), head.parent_snapshot_id(), head.sequence_number());
            let seeded = metadata.snapshots().filter(|s| s.sequence_number() > base.metadata().last_sequence_number());
            let mut manifests = vec![];
            for snapshot in seeded.filter(|_| shape == HeadManifests::OnePerSnapshot) {
                manifests
                    .push(seeded_manifest(&base, &lists, snapshot.snapshot_id(), snapshot.sequence_number()).await?);
            }
            list.add_manifests(manifests.into_iter()).map_err(iceberg_error)?;
            list.close().await.map_err(iceberg_error)?;
        }
        self.register_again(&base, metadata).await
    }

    /// Writes `metadata` as the metadata file after `base`'s and registers the table again on it,
    /// outside the catalog's compare-and-swap (nothing else may commit meanwhile). Fails, rather
    /// than leave a different table, on a catalog that registers a file without reading it
    /// (SeaweedFS's REST catalog, which loads an empty schema and no snapshots back).
    pub(crate) async fn register_again(&self, base: &Table, metadata: TableMetadata) -> Result<(), SinkError> {
        let location =
            base.metadata_location().ok_or_else(|| SinkError::Iceberg("table has no metadata file".into()))?;
        // A REST server may name its files in a form `MetadataLocation` does not parse
        // (SeaweedFS: `v1.metadata.json`); the next file only needs a name of its own.
        let next = MetadataLocation::from_str(location)
            .or_else(|_| compat::first_metadata_location(base.metadata()))
            .map_err(iceberg_error)?
            .with_next_version();
        metadata.write_to(base.file_io(), &next).await.map_err(iceberg_error)?;
        self.catalog.drop_table(&self.ident).await.map_err(iceberg_error)?;
        self.catalog.register_table(&self.ident, next.to_string()).await.map_err(iceberg_error)?;
        let registered = self.load().await?;
        if registered.metadata().snapshots().count() != metadata.snapshots().count() {
            return Err(SinkError::Iceberg(
                format!(
                    "the catalog registered {next} but loads a table of {} snapshots, not the {} written: \
                 it does not read the file it registers",
                    registered.metadata().snapshots().count(),
                    metadata.snapshots().count()
                )
                .into(),
            ));
        }
        Ok(())
    }

    pub async fn load(&self) -> Result<Table, SinkError> {
        self.catalog.load_table(&self.ident).await.map_err(load_error)
    }

    /// `AlreadyCommitted` if `table` records `epoch` or a later one for `app`.
    pub fn replay(table: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        Ok(Self::already(committed_epoch(table.metadata(), app)?, epoch))
    }

    /// `AlreadyCommitted` if `committed` is `epoch` or a later one.
    pub fn already(committed: Option<Epoch>, epoch: Epoch) -> Option<CommitOutcome> {
        committed.filter(|committed| *committed >= epoch).map(|committed| CommitOutcome::AlreadyCommitted { committed })
    }

    /// What an in-commit guard's rejection amounts to: the epoch the table holds now, with the
    /// table that shows it.
    pub async fn resolve(
        &self,
        rejected: ice::Error,
        app: &AppId,
        epoch: Epoch,
    ) -> Result<(CommitOutcome, Table), SinkError> {
        let now = self.load().await?;
        match Self::replay(&now, app, epoch)? {
            Some(outcome) => Ok((outcome, now)),
            None => Err(SinkError::Corrupt(format!(
                "epoch {epoch} of {app} was rejected as committed, then not found: {rejected}"
            ))),
        }
    }

    /// Writes `batch` as Parquet data files of `table` named `{prefix}-00000.parquet` and on,
    /// after checking its schema. The files are referenced by nothing until a commit adds them.
    pub async fn write(table: &Table, batch: &RecordBatch, prefix: String) -> Result<Vec<DataFile>, SinkError> {
        let schema = table.metadata().current_schema();
        let arrow = ice::arrow::schema_to_arrow_schema(schema).map_err(iceberg_error)?;
        check_schema(batch, &arrow)?;
        // The same columns under the table's Arrow schema, which carries the Parquet field ids.
        let batch = RecordBatch::try_new(Arc::new(arrow), batch.columns().to_vec())
            .map_err(|e| SinkError::SchemaMismatch(Box::new(e)))?;

        let locations = DefaultLocationGenerator::new(table.metadata()).map_err(iceberg_error)?;
        let names = DefaultFileNameGenerator::new(prefix, None, DataFileFormat::Parquet);
        let parquet = ParquetWriterBuilder::new(WriterProperties::default(), schema.clone());
        let rolling =
            RollingFileWriterBuilder::new_with_default_file_size(parquet, table.file_io().clone(), locations, names);
        let mut writer = DataFileWriterBuilder::new(rolling).build(None).await.map_err(iceberg_error)?;
        writer.write(batch).await.map_err(iceberg_error)?;
        let files = writer.close().await.map_err(iceberg_error)?;
        Failpoint::AfterDataFiles.check()?;
        Ok(files)
    }

    /// Expires every snapshot but the current one; returns how many it removed.
    pub async fn expire_all_but_current(&self) -> Result<usize, SinkError> {
        let base = self.load().await?;
        let before = base.metadata().snapshots().count();
        let tx = Transaction::new(&base);
        let expire = tx.expire_snapshots().expire_older_than_ms(unix_millis() + 1).retain_last(1);
        let after = expire
            .apply(tx)
            .map_err(iceberg_error)?
            .commit(self.catalog.as_ref())
            .await
            .map_err(iceberg_error)?
            .metadata()
            .snapshots()
            .count();
        Ok(before - after)
    }

    pub async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        super::epoch::epoch_history(self.load().await?.metadata(), app)
    }

    /// What the ancestry walk alone finds for `app`, without the watermark property: the proof
    /// that expiry really cut the app's snapshots.
    pub async fn epoch_from_walk_alone(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        committed_epoch_on_main(self.load().await?.metadata(), app)
    }

    /// The table's current metadata file: the only handle on a `memory` table once its process
    /// exits.
    pub async fn metadata_location(&self) -> Result<Option<String>, SinkError> {
        Ok(self.load().await?.metadata_location().map(str::to_string))
    }

    /// Every commit of `app` on `main`, oldest first: its epoch, and the `payload` values of the
    /// rows it added (read from the data files its own manifests list as added).
    pub async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        let table = self.load().await?;
        let mut commits = vec![];
        for (snapshot, epoch) in app_snapshots(table.metadata(), app)? {
            let list = table.manifest_list_reader(snapshot).load().await.map_err(iceberg_error)?;
            let mut batches = BTreeSet::new();
            for manifest in list.entries().iter().filter(|m| m.added_snapshot_id == snapshot.snapshot_id()) {
                let entries = compat::load_manifest(&table, manifest).await.map_err(iceberg_error)?;
                for entry in entries.entries().iter().filter(|e| e.status() == ManifestStatus::Added) {
                    let input = table.file_io().new_input(entry.file_path()).map_err(iceberg_error)?;
                    batches.extend(payloads_of(entry.file_path(), input.read().await.map_err(iceberg_error)?)?);
                }
            }
            commits.push((epoch, batches));
        }
        commits.reverse();
        Ok(commits)
    }

    pub async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        committed_epoch(self.load().await?.metadata(), app)
    }

    /// Rows of the current snapshot, from the footers of the data files it references.
    pub async fn row_count(&self) -> Result<u64, SinkError> {
        let table = self.load().await?;
        let mut rows = 0;
        for file in Self::data_files(&table).await? {
            let input = table.file_io().new_input(&file).map_err(iceberg_error)?;
            rows += parquet_rows_of(&file, input.read().await.map_err(iceberg_error)?)?;
        }
        Ok(rows)
    }

    /// The table's location, and every file under it that its current metadata reaches: that
    /// metadata file and the earlier ones it logs, each snapshot's manifest list, their
    /// manifests, and the live data files those list. Local files as plain paths.
    pub async fn table_files(&self) -> Result<(String, BTreeSet<String>), SinkError> {
        let table = self.load().await?;
        let metadata = table.metadata();
        let mut files: BTreeSet<String> = metadata
            .metadata_log()
            .iter()
            .map(|log| log.metadata_file.as_str())
            .chain(table.metadata_location())
            .map(local)
            .collect();
        for snapshot in metadata.snapshots() {
            files.insert(local(snapshot.manifest_list()));
            let list = table.manifest_list_reader(snapshot).load().await.map_err(iceberg_error)?;
            for manifest in list.entries() {
                // Appends carry earlier manifests forward: read each one once.
                if !files.insert(local(&manifest.manifest_path)) {
                    continue;
                }
                let entries = compat::load_manifest(&table, manifest).await.map_err(iceberg_error)?;
                files.extend(entries.entries().iter().filter(|e| e.is_alive()).map(|e| local(e.file_path())));
            }
        }
        Ok((metadata.location().to_string(), files))
    }

    /// The data files the current snapshot of `table` references.
    async fn data_files(table: &Table) -> Result<Vec<String>, SinkError> {
        if table.metadata().current_snapshot().is_none() {
            return Ok(vec![]);
        }
        let tasks: Vec<_> = table
            .scan()
            .build()
            .map_err(iceberg_error)?
            .plan_files()
            .await
            .map_err(iceberg_error)?
            .try_collect()
            .await
            .map_err(iceberg_error)?;
        Ok(tasks.iter().map(|t| t.data_file_path().to_string()).collect())
    }
}

/// The manifest a seeded snapshot `id` of sequence number `sequence` added: one `DELETED` entry.
async fn seeded_manifest(base: &Table, lists: &str, id: i64, sequence: i64) -> Result<ManifestFile, SinkError> {
    let metadata = base.metadata();
    let output = base.file_io().new_output(format!("{lists}-m-{id}.avro")).map_err(iceberg_error)?;
    let spec = metadata.default_partition_spec().as_ref().clone();
    let mut writer =
        ManifestWriterBuilder::new(output, Some(id), metadata.current_schema().clone(), spec).build_v2_data();
    let file = DataFileBuilder::default()
        .content(DataContentType::Data)
        .file_path(format!("{}/data/seeded-{id}.parquet", metadata.location()))
        .file_format(DataFileFormat::Parquet)
        .record_count(1)
        .file_size_in_bytes(1)
        .partition_spec_id(metadata.default_partition_spec_id())
        .build()
        .map_err(|e| SinkError::Iceberg(Box::new(e)))?;
    writer.add_delete_file(file, sequence, Some(sequence)).map_err(iceberg_error)?;
    let mut manifest = writer.write_manifest_file().await.map_err(iceberg_error)?;
    (manifest.sequence_number, manifest.min_sequence_number) = (sequence, sequence);
    Ok(manifest)
}

/// A location as a plain path when it is a local file (`file:` URLs), as listing a directory
/// spells it.
fn local(location: &str) -> String {
    barrier_sink::data::local_path(location).to_string_lossy().into_owned()
}

//! The batches the experiment commits, and what every sink checks of them and reads back.

use std::collections::BTreeSet;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::error::SinkError;

/// The schema every table of the experiment is created with: `id: long not null, payload: string`.
pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("payload", DataType::Utf8, true),
    ]))
}

/// `rows` rows whose ids start at `first_id`; the payload names the writer, for inspection.
pub fn batch(first_id: i64, rows: usize, writer: &str) -> RecordBatch {
    let ids: Int64Array = (first_id..first_id + rows as i64).collect();
    let payloads: StringArray = (0..rows).map(|_| Some(writer)).collect();
    RecordBatch::try_new(schema(), vec![Arc::new(ids), Arc::new(payloads)])
        .expect("columns match the schema")
}

/// Checks that `batch` has the table's columns, by name, type and nullability, in order.
///
/// Metadata is ignored on purpose: Iceberg's Arrow schema carries field ids, a caller's does not.
pub fn check_schema(batch: &RecordBatch, table: &Schema) -> Result<(), SinkError> {
    let offered = batch.schema();
    let matches = offered.fields().len() == table.fields().len()
        && offered.fields().iter().zip(table.fields()).all(|(a, b)| {
            a.name() == b.name()
                && a.data_type() == b.data_type()
                && (!a.is_nullable() || b.is_nullable())
        });
    if matches {
        Ok(())
    } else {
        Err(SinkError::SchemaMismatch(format!(
            "offered {:?}, table has {:?}",
            field_summary(&offered),
            field_summary(table)
        )))
    }
}

fn field_summary(schema: &Schema) -> Vec<String> {
    schema
        .fields()
        .iter()
        .map(|f| format!("{}: {}{}", f.name(), f.data_type(), if f.is_nullable() { "" } else { " not null" }))
        .collect()
}

/// Sums the row counts in the footers of the given Parquet files: the rows a table really holds,
/// read from the files it references rather than from any counter the sink keeps.
pub fn parquet_rows<P: AsRef<Path>>(files: impl IntoIterator<Item = P>) -> Result<u64, SinkError> {
    files.into_iter().try_fold(0u64, |total, path| {
        let path = path.as_ref();
        let file = File::open(path)
            .map_err(|e| SinkError::Parquet(format!("{}: {e}", path.display())))?;
        let reader = SerializedFileReader::new(file)
            .map_err(|e| SinkError::Parquet(format!("{}: {e}", path.display())))?;
        Ok(total + reader.metadata().file_metadata().num_rows() as u64)
    })
}

/// The rows in the footer of one Parquet file, read whole into `bytes` from wherever it is stored.
pub fn parquet_rows_of(location: &str, bytes: bytes::Bytes) -> Result<u64, SinkError> {
    let reader = SerializedFileReader::new(bytes).map_err(|e| SinkError::Parquet(format!("{location}: {e}")))?;
    Ok(reader.metadata().file_metadata().num_rows() as u64)
}

/// The distinct values of the `payload` column of one Parquet file, read whole into `bytes`: the
/// batch identities a stress writer wrote into its rows.
pub fn payloads_of(location: &str, bytes: bytes::Bytes) -> Result<BTreeSet<String>, SinkError> {
    let parquet = |e: parquet::errors::ParquetError| SinkError::Parquet(format!("{location}: {e}"));
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes).map_err(parquet)?.build().map_err(parquet)?;
    let mut out = BTreeSet::new();
    for batch in reader {
        let batch = batch.map_err(|e| SinkError::Parquet(format!("{location}: {e}")))?;
        let column = batch
            .column_by_name("payload")
            .and_then(|c| c.as_any().downcast_ref::<StringArray>())
            .ok_or_else(|| SinkError::Corrupt(format!("{location}: no string column `payload`")))?;
        out.extend(column.iter().flatten().map(str::to_string));
    }
    Ok(out)
}

/// A local path from a `file:` URL or a plain path, as both formats spell them.
pub fn local_path(location: &str) -> &Path {
    Path::new(
        location
            .strip_prefix("file://")
            .or_else(|| location.strip_prefix("file:"))
            .unwrap_or(location),
    )
}

/// Milliseconds since the Unix epoch, as both formats stamp their commits.
pub fn unix_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_millis() as i64
}

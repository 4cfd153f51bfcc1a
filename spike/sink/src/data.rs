//! What both formats check of a batch and read back of the Parquet files a table references.

use std::collections::BTreeSet;
use std::fs::File;
use std::path::Path;

use arrow_array::{RecordBatch, StringArray};
use arrow_schema::Schema;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::error::{Located, SinkError};

/// Checks that `batch` has the table's columns, by name, type and nullability, in order.
///
/// Metadata is ignored on purpose: Iceberg's Arrow schema carries field ids, a caller's does not.
pub fn check_schema(batch: &RecordBatch, table: &Schema) -> Result<(), SinkError> {
    let offered = batch.schema();
    let matches = offered.fields().len() == table.fields().len()
        && offered.fields().iter().zip(table.fields()).all(|(a, b)| {
            a.name() == b.name() && a.data_type() == b.data_type() && (!a.is_nullable() || b.is_nullable())
        });
    if matches {
        Ok(())
    } else {
        let message = format!("offered {:?}, table has {:?}", field_summary(&offered), field_summary(table));
        Err(SinkError::SchemaMismatch(message.into()))
    }
}

fn field_summary(schema: &Schema) -> Vec<String> {
    schema
        .fields()
        .iter()
        .map(|f| format!("{}: {}{}", f.name(), f.data_type(), if f.is_nullable() { "" } else { " not null" }))
        .collect()
}

fn parquet_error(location: &str, err: impl std::error::Error + Send + Sync + 'static) -> SinkError {
    SinkError::Parquet(Located::boxed(location, err))
}

/// Sums the row counts in the footers of the given Parquet files: the rows a table really holds,
/// read from the files it references rather than from any counter the sink keeps.
pub fn parquet_rows<P: AsRef<Path>>(files: impl IntoIterator<Item = P>) -> Result<u64, SinkError> {
    files.into_iter().try_fold(0u64, |total, path| {
        let location = path.as_ref().display().to_string();
        let file = File::open(path.as_ref()).map_err(|e| parquet_error(&location, e))?;
        let reader = SerializedFileReader::new(file).map_err(|e| parquet_error(&location, e))?;
        Ok(total + reader.metadata().file_metadata().num_rows() as u64)
    })
}

/// The rows in the footer of one Parquet file, read whole into `bytes` from wherever it is stored.
pub fn parquet_rows_of(location: &str, bytes: bytes::Bytes) -> Result<u64, SinkError> {
    let reader = SerializedFileReader::new(bytes).map_err(|e| parquet_error(location, e))?;
    Ok(reader.metadata().file_metadata().num_rows() as u64)
}

/// The rows of one Parquet file, read whole into `bytes`.
pub fn batches_of(location: &str, bytes: bytes::Bytes) -> Result<Vec<RecordBatch>, SinkError> {
    ParquetRecordBatchReaderBuilder::try_new(bytes)
        .and_then(|builder| builder.build())
        .map_err(|e| parquet_error(location, e))?
        .map(|batch| batch.map_err(|e| parquet_error(location, e)))
        .collect()
}

/// The distinct values of the `payload` column of one Parquet file, read whole into `bytes`: the
/// batch identities a stress writer wrote into its rows.
pub fn payloads_of(location: &str, bytes: bytes::Bytes) -> Result<BTreeSet<String>, SinkError> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes)
        .and_then(|builder| builder.build())
        .map_err(|e| parquet_error(location, e))?;
    let mut out = BTreeSet::new();
    for batch in reader {
        let batch = batch.map_err(|e| parquet_error(location, e))?;
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
    Path::new(location.strip_prefix("file://").or_else(|| location.strip_prefix("file:")).unwrap_or(location))
}

/// Milliseconds since the Unix epoch, as both formats stamp their commits.
pub fn unix_millis() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("the clock is after 1970").as_millis()
        as i64
}

//! The batches the harness commits.

use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use barrier_sink::{AppId, CommitSink, Epoch, SinkError};

/// Rows in every batch the suite commits.
pub const BATCH_ROWS: usize = 8;

/// The schema every table of the experiment is created with: `id: long not null, payload: string`.
pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![Field::new("id", DataType::Int64, false), Field::new("payload", DataType::Utf8, true)]))
}

/// `rows` rows whose ids start at `first_id`; the payload names the writer (in `stress`, the
/// batch's identity, which the outcome check reads back).
pub fn batch(first_id: i64, rows: usize, writer: &str) -> RecordBatch {
    let ids: Int64Array = (first_id..first_id + rows as i64).collect();
    let payloads: StringArray = (0..rows).map(|_| Some(writer)).collect();
    RecordBatch::try_new(schema(), vec![Arc::new(ids), Arc::new(payloads)]).expect("columns match the schema")
}

/// History as writers make it: `commits` one-row commits of `app`'s epochs 1, 2, ... by `writer`.
pub async fn commit_history(writer: &dyn CommitSink, app: &AppId, commits: u64) -> Result<(), SinkError> {
    for n in 1..=commits {
        writer.commit(app, Epoch::new(n)?, batch(n as i64, 1, "history")).await?;
    }
    Ok(())
}

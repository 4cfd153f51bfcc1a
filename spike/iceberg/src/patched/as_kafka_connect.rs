//! `as-kafka-connect`: Kafka Connect's Iceberg sink, its coordinator's commit reproduced on
//! iceberg-rust with patch 3 (the hook it is built on in Java), not improved.

use async_trait::async_trait;
use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError, SourceFile, retry};

use super::common::{
    Append, CheckSite, CommitStrategy, EpochCheck, IcebergTable, committed_epoch_in, committed_epoch_on_main,
    fast_append, sources,
};
use super::ice;
use super::ice::ErrorKind;
use super::ice::table::Table;
use super::ice::transaction::{Ancestry, ApplyTransactionAction, SnapshotAncestryValidator, Transaction, Verdict};
use crate::extension_points::TRANSACTION_VALIDATOR;

/// Kafka Connect's `Coordinator.commitToTable` (apache/iceberg `kafka-connect/`, 1.11.0+, #14510):
/// on a table it loads for the commit, `lastCommittedOffsetsForTable` walks `main`'s ancestry to
/// the first snapshot carrying its offsets key (`kafka.connect.offsets.<group>`), the events at or
/// below those offsets are dropped, and the rest is committed as an append with
/// `validateWith(offsetValidator)`: on every refreshed base the library hands it, the offsets found
/// the same way must *equal* those read at load, or the commit fails (`ValidationException`, "stale
/// offsets"). A failed commit is tried again on the next commit cycle, from a fresh load that drops
/// what is now committed. Java's appends have no duplicate-file check; nothing is recorded outside
/// the snapshot summaries.
///
/// Here the offset is the epoch, the walk `committed_epoch_on_main`, the validator patch 3's
/// `SnapshotAncestryValidator` comparing for equality, and the next cycle the sink's own loop (a
/// rejection is a refusal it answers with a fresh load, whose pre-check then says
/// `AlreadyCommitted`).
pub struct AsKafkaConnect;

/// Accepts an ancestry whose newest epoch of the app is the one read at load.
struct OffsetsValidator {
    check: EpochCheck,
    at_load: Option<Epoch>,
}

#[async_trait]
impl SnapshotAncestryValidator for OffsetsValidator {
    async fn validate(&self, ancestry: Ancestry) -> ice::Result<Verdict> {
        let committed = committed_epoch_in(ancestry, &self.check.app)
            .map_err(|e| ice::Error::new(ErrorKind::DataInvalid, e.to_string()))?;
        if committed != self.at_load {
            return Ok(Verdict::Reject(format!("stale offsets: expected {:?}, committed {committed:?}", self.at_load)));
        }
        self.check.hooks.epoch_check_passed().await;
        Ok(Verdict::Accept)
    }
}

impl CommitStrategy for AsKafkaConnect {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&TRANSACTION_VALIDATOR),
            files: &[
                SourceFile { path: file!(), text: include_str!("as_kafka_connect.rs") },
                sources::OWNED_LOOP,
                retry::SOURCE,
            ],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Commit
    }

    fn owns_loop(&self) -> bool {
        true
    }

    fn refused(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::CommitConditionFailed
    }

    // Never this project's "epoch taken": a stale offset is a refusal, answered by the next cycle.
    fn epoch_taken(&self, _err: &ice::Error) -> bool {
        false
    }

    fn check_duplicate(&self) -> bool {
        false
    }

    fn records_watermark(&self) -> bool {
        false
    }

    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        Ok(IcebergTable::already(committed_epoch_on_main(base.metadata(), app)?, epoch))
    }

    fn stage(&self, base: &Table, mut append: Append, check: &EpochCheck) -> ice::Result<Transaction> {
        let at_load = committed_epoch_on_main(base.metadata(), &append.app)
            .map_err(|e| ice::Error::new(ErrorKind::DataInvalid, e.to_string()))?;
        let tx = Transaction::new(base);
        let action = fast_append!(tx, append).validate_with(OffsetsValidator { check: check.clone(), at_load });
        action.apply(tx)
    }
}

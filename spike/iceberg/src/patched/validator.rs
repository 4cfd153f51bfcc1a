//! `iceberg-validator`: the epoch check as a transaction validator (patch 3), called by the
//! library's own commit loop on every refreshed base while `TransactionAction` stays private.

use async_trait::async_trait;
use barrier_sink::{Footprint, SourceFile};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, is_epoch_taken};
use super::ice;
use super::ice::ErrorKind;
use super::ice::table::Table;
use super::ice::transaction::{Transaction, TransactionValidator, Verdict};
use crate::extension_points::TRANSACTION_VALIDATOR;

/// Rejects a refreshed table that already records the epoch. `do_commit` calls it on every
/// attempt before the append writes its manifest, so a writer that loses a race re-checks before
/// it retries, and its rejection ends the commit with `CommitConditionFailed`. A failure to read
/// the table stays an error, never a rejection.
struct EpochValidator(EpochCheck);

#[async_trait]
impl TransactionValidator for EpochValidator {
    async fn validate(&self, table: &Table) -> ice::Result<Verdict> {
        match self.0.run(table).await {
            Ok(()) => Ok(Verdict::Accept),
            Err(taken) if is_epoch_taken(&taken) => Ok(Verdict::Reject(taken.to_string())),
            Err(err) => Err(err),
        }
    }
}

/// `first_on_base`: the first attempt runs on the sink's held table without refreshing it
/// (patch 4, shape (a)): `iceberg-validator-first-on-base`, the variant measured beside it.
pub struct Validator {
    pub first_on_base: bool,
}

impl CommitStrategy for Validator {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&TRANSACTION_VALIDATOR),
            files: &[SourceFile { path: file!(), text: include_str!("validator.rs") }],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Commit
    }

    // The check runs on the library's refresh inside the commit, whatever base it started from.
    fn holds_table(&self) -> bool {
        true
    }

    /// The validator is this arm's only condition, so its rejection is the only
    /// `CommitConditionFailed`.
    fn epoch_taken(&self, err: &ice::Error) -> bool {
        err.kind() == ErrorKind::CommitConditionFailed
    }

    fn stage(&self, base: &Table, append: Append, check: &EpochCheck) -> ice::Result<Transaction> {
        let tx = Transaction::new(base)
            .validate_with(EpochValidator(check.clone()))
            .with_first_attempt_on_base(self.first_on_base);
        append.stage(tx)
    }
}

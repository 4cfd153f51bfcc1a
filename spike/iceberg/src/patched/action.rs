//! `iceberg-action`: the epoch check as a `TransactionAction` (patch 1), inside the library's
//! own commit loop.

use std::sync::Arc;

use async_trait::async_trait;
use barrier_sink::{Footprint, SourceFile};

use super::common::{Append, CheckSite, CommitStrategy, EpochCheck, fast_append};
use super::ice;
use super::ice::table::Table;
use super::ice::transaction::{ActionCommit, ApplyTransactionAction, Transaction, TransactionAction};
use crate::extension_points::TRANSACTION_ACTION;

/// Runs the check on the table the transaction refreshed, then delegates to the wrapped action
/// (the fast append). Runs on every attempt, so a writer that loses a race re-checks before it
/// retries and stops with a non-retryable error.
struct EpochAction<A> {
    check: EpochCheck,
    inner: Arc<A>,
}

#[async_trait]
impl<A: TransactionAction + 'static> TransactionAction for EpochAction<A> {
    async fn commit(self: Arc<Self>, table: &Table) -> ice::Result<ActionCommit> {
        self.check.run(table).await?;
        Arc::clone(&self.inner).commit(table).await
    }
}

pub struct Action;

impl CommitStrategy for Action {
    fn footprint(&self) -> Footprint {
        Footprint {
            extension_point: Some(&TRANSACTION_ACTION),
            files: &[SourceFile { path: file!(), text: include_str!("action.rs") }],
        }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Commit
    }

    // The check runs on the library's refresh inside the commit, whatever base it started from.
    fn holds_table(&self) -> bool {
        true
    }

    /// The fast append wrapped in the check, then the watermark.
    fn stage(&self, base: &Table, mut append: Append, check: &EpochCheck) -> ice::Result<Transaction> {
        let tx = Transaction::new(base);
        let inner = fast_append!(tx, append);
        let action = EpochAction { check: check.clone(), inner: Arc::new(inner) };
        action.apply(tx).and_then(|tx| append.record_watermark(tx))
    }
}

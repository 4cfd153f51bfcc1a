//! The loop a sink owns when its strategy does (`iceberg-requirement`, `iceberg-no-rebase`): the
//! library's own refresh-and-retry cannot re-run a check made in the sink, so a commit refused on
//! the strategy's condition is tried again from a fresh load, checked again, its data files reused.

use std::borrow::Cow;

use async_trait::async_trait;
use barrier_sink::retry::{MAX_ATTEMPTS, backoff};
use barrier_sink::{CommitOutcome, SinkError, SourceFile};

use super::ice;
use super::ice::table::Table;

/// This file, for the footprints of the arms that own their loop.
pub const SOURCE: SourceFile = SourceFile { path: file!(), text: include_str!("owned_loop.rs") };

/// What one attempt of the commit body ended in.
pub enum Attempt {
    /// An answer, with the table the commit returned or that shows the epoch, when there is one.
    Done(CommitOutcome, Option<Table>),
    /// The catalog or the library refused it on the strategy's condition, a moved base: the
    /// strategy tells its refusal from every other error by kind (`CommitConditionFailed`, or
    /// patch 4's non-retryable `CatalogCommitConflicts`).
    Refused(ice::Error),
}

/// The commit body, as the loop drives it.
#[async_trait]
pub(super) trait Attempts: Send {
    /// A fresh load of the table.
    async fn load(&self) -> Result<Table, SinkError>;

    /// One attempt from `base`.
    async fn attempt(&mut self, base: &Table) -> Result<Attempt, SinkError>;
}

/// Attempts the commit on `first`, then on fresh loads, until it is answered or [`MAX_ATTEMPTS`].
pub(super) async fn commit(
    first: &Table,
    body: &mut impl Attempts,
) -> Result<(CommitOutcome, Option<Table>), SinkError> {
    for n in 0..MAX_ATTEMPTS {
        let base = match n {
            0 => Cow::Borrowed(first),
            _ => Cow::Owned(body.load().await?),
        };
        match body.attempt(&base).await? {
            Attempt::Done(outcome, after) => return Ok((outcome, after)),
            Attempt::Refused(_) => tokio::time::sleep(backoff(n)).await,
        }
    }
    Err(SinkError::Conflict { attempts: MAX_ATTEMPTS })
}

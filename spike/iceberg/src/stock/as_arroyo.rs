//! `as-arroyo`: Arroyo's Iceberg sink (itself on iceberg-rust), its commit reproduced as it is,
//! not improved.

use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError, SourceFile};

use super::common::{CheckSite, CommitStrategy, epoch_of_current};
use super::ice::table::Table;

/// Arroyo's `commit` (`crates/arroyo-connectors/src/filesystem/sink/iceberg/mod.rs`): its key,
/// `arroyo.commit-id` (a SHA-256 of job, operator, epoch and table uuid), is looked for in the
/// current snapshot's summary only; if it is there the epoch is skipped, else a stock fast append
/// with the duplicate-file check off (arroyo #942: it read every manifest on every commit) goes
/// through `Transaction::commit`, whose retry rebases it. Nothing is checked again on the
/// refreshed base.
///
/// Here the key is the app and the exact epoch, looked for the same way: in the current
/// snapshot, for equality (an older epoch, or the epoch under another app's newer commit, is not
/// recognised).
pub struct AsArroyo;

impl CommitStrategy for AsArroyo {
    fn footprint(&self) -> Footprint {
        Footprint { extension_point: None, files: &[SourceFile { path: file!(), text: include_str!("as_arroyo.rs") }] }
    }

    fn check_site(&self) -> CheckSite {
        CheckSite::Sink
    }

    fn check_duplicate(&self) -> bool {
        false
    }

    fn records_watermark(&self) -> bool {
        false
    }

    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        let current = epoch_of_current(base.metadata(), app)?;
        Ok((current == Some(epoch)).then_some(CommitOutcome::AlreadyCommitted { committed: epoch }))
    }
}

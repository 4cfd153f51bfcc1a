//! What an Iceberg arm supplies to the one commit body ([`super::sink`]): where its own check of
//! the epoch runs, and the extension point that carries the check into the commit. Everything
//! else (the pre-check that saves writing files for a replay, writing the batch, the append with
//! its summary and watermark, the commit, reading a rejection back) is the body's, once.

use std::collections::HashMap;
use std::sync::Arc;

use barrier_sink::{AppId, CommitOutcome, Epoch, Footprint, SinkError};
use sha2::{Digest, Sha256};

use super::commit_catalog::CommitCatalog;
use super::create_only;
use super::epoch::{EpochCheck, epoch_summary, is_epoch_taken, record_watermark};
use super::ice;
use super::ice::Catalog;
use super::ice::spec::DataFile;
use super::ice::table::Table;
use super::ice::transaction::{ApplyTransactionAction, Transaction};
use super::table::IcebergTable;

/// Where an arm's check of the epoch decides the commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckSite {
    /// In the sink, on the base the commit starts from (`iceberg-naive`: nothing enforces it;
    /// `iceberg-requirement`: the assertion sent with the commit does). The sink reports the
    /// check to the hooks as it passes.
    Sink,
    /// Inside the commit, on the table the library refreshed; the sink's own look at its base
    /// only saves writing files for a replay. The guard reports to the hooks.
    Commit,
    /// Nowhere: the floor, which claims nothing.
    Nowhere,
}

/// How an attempt names the data files it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileNames {
    /// A fresh name per attempt: no two writers ever pick the same one.
    Unique,
    /// A name from `(app, epoch)`: every attempt at an epoch writes the same paths, so the fast
    /// append's duplicate-file check refuses a second commit of the epoch while the first one's
    /// files are live. Written only if absent where `create_only` (`create_only.rs`), else
    /// overwritten.
    Keyed { create_only: bool },
}

impl FileNames {
    /// The prefix of the data files' names (the writer appends `-00000.parquet`, `-00001...`).
    pub fn prefix(self, app: &AppId, epoch: Epoch) -> String {
        match self {
            FileNames::Unique => uuid::Uuid::new_v4().to_string(),
            FileNames::Keyed { create_only } => {
                let once = if create_only { create_only::PREFIX } else { "" };
                format!("{once}{}-{epoch}", app_key(app))
            }
        }
    }
}

/// The longest escaped app id a data file's name spells out. File systems refuse names over 255
/// bytes (`ENAMETOOLONG`), and escaping can triple an id's length; with the epoch, the prefixes
/// and the writer's `-00000.parquet`, a name stays under 160 bytes.
const SPELLED_OUT: usize = 96;

/// The app's part of a keyed file name: the id itself, where it is short, with only ASCII
/// letters, digits and `_` kept and any other byte written `~xx`, so that the key has no `-`;
/// past [`SPELLED_OUT`] bytes, `~h` and the SHA-256 of the id in hex, a form escaping never
/// produces (`~` is followed by two hex digits there, and `h` is not one). Every id is named,
/// distinct ids by distinct keys (a digest collision aside); nothing reads the app back from a
/// name (the snapshot's summary records it).
fn app_key(app: &AppId) -> String {
    let spelled: String = app
        .as_str()
        .bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b == b'_' { (b as char).to_string() } else { format!("~{b:02x}") })
        .collect();
    if spelled.len() <= SPELLED_OUT {
        return spelled;
    }
    let digest = Sha256::digest(app.as_str().as_bytes());
    format!("~h{}", digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// One way of making an Iceberg commit conditional (or, the floor, of not making it so).
pub trait CommitStrategy: Send + Sync {
    /// What the arm adds to carry its check, for the kill list (condition 4).
    fn footprint(&self) -> Footprint;

    fn check_site(&self) -> CheckSite;

    /// Whether a commit may start from the table the writer's last commit returned instead of a
    /// fresh load. Only for strategies whose guarantee does not rest on the base they start
    /// from: the check runs again on the table the library refreshes inside the commit (or there
    /// is no check at all), so a stale start can make the sink's own pre-check say "free" wrongly
    /// and waste the files it writes, but never let a duplicate through.
    fn holds_table(&self) -> bool {
        false
    }

    /// Whether the sink owns the retry loop: a commit the strategy says was [refused](
    /// CommitStrategy::refused) is tried again on a fresh load, checked again (`owned_loop.rs`).
    fn owns_loop(&self) -> bool {
        false
    }

    /// Whether `err` is the refusal of the strategy's own condition (a moved base), which its
    /// loop answers with a fresh load; only asked of a strategy that owns the loop.
    fn refused(&self, _err: &ice::Error) -> bool {
        false
    }

    /// Whether the fast append refuses a data file that the table it was rebased onto already
    /// references (`with_check_duplicate`, on by default); Arroyo and Moonlink turn it off for
    /// its cost, reading every manifest of the current snapshot on every attempt.
    fn check_duplicate(&self) -> bool {
        true
    }

    /// How its data files are named; by default a fresh name per attempt.
    fn file_names(&self) -> FileNames {
        FileNames::Unique
    }

    /// The sink's own look at the base it commits from: `AlreadyCommitted` for an epoch the base
    /// shows committed. By default this project's lookup (the app's newest epoch on `main`'s
    /// ancestry, or its watermark, at or above the offered one); a production sink reproduced
    /// here looks the way it does.
    fn replay(&self, base: &Table, app: &AppId, epoch: Epoch) -> Result<Option<CommitOutcome>, SinkError> {
        IcebergTable::replay(base, app, epoch)
    }

    /// Whether the commit also records the app's watermark property (every arm this project
    /// designed does; the production sinks reproduced here do not).
    fn records_watermark(&self) -> bool {
        true
    }

    /// Stages `append` on a transaction on `base`, with the arm's guard; by default the plain
    /// append.
    fn stage(&self, base: &Table, append: Append, _check: &EpochCheck) -> ice::Result<Transaction> {
        append.stage(Transaction::new(base))
    }

    /// Whether `err` is the guard's "this epoch is already committed", which the body reads back
    /// as the epoch the table holds; by default the check's own error, wherever it surfaces.
    fn epoch_taken(&self, err: &ice::Error) -> bool {
        is_epoch_taken(err)
    }

    /// The catalog the transaction commits through; by default the connection with the commit's
    /// failpoints.
    fn catalog(&self, connection: Arc<dyn Catalog>, _check: &EpochCheck) -> CommitCatalog {
        CommitCatalog::new(connection)
    }
}

/// The append every arm commits: the batch's data files, the epoch in the snapshot's summary,
/// and the app's watermark property.
pub struct Append {
    pub files: Vec<DataFile>,
    pub app: AppId,
    pub epoch: Epoch,
    /// The strategy's [`CommitStrategy::check_duplicate`].
    pub check_duplicate: bool,
    /// The strategy's [`CommitStrategy::records_watermark`].
    pub watermark: bool,
}

/// Stages on `tx` the sink's append of `files`, its summary carrying `app`'s epoch, and the
/// watermark update: what every Iceberg arm commits, whatever guards the commit.
pub fn stage_append(tx: Transaction, files: Vec<DataFile>, app: &AppId, epoch: Epoch) -> ice::Result<Transaction> {
    Append { files, app: app.clone(), epoch, check_duplicate: true, watermark: true }.stage(tx)
}

/// The library's fast append of an [`Append`] on a transaction, as an expression of the
/// library's own action type (which 0.10.1 does not let a caller name), so that a guard can
/// extend it before applying it: `fast_append!(tx, append).validate_with(..)`.
macro_rules! fast_append {
    ($tx:expr, $append:expr) => {
        $tx.fast_append()
            .with_check_duplicate($append.check_duplicate)
            .add_data_files($append.take_files())
            .set_snapshot_properties($append.summary())
    };
}
pub(crate) use fast_append;

impl Append {
    /// Stages the fast append and the watermark update on `tx`.
    pub fn stage(mut self, tx: Transaction) -> ice::Result<Transaction> {
        let action = fast_append!(tx, self);
        action.apply(tx).and_then(|tx| self.record_watermark(tx))
    }

    /// The batch's data files, taken for the fast append.
    pub fn take_files(&mut self) -> Vec<DataFile> {
        std::mem::take(&mut self.files)
    }

    /// The summary properties the append's snapshot carries.
    pub fn summary(&self) -> HashMap<String, String> {
        epoch_summary(&self.app, self.epoch)
    }

    /// The watermark update alone (nothing where the strategy records none), for a guard that
    /// stages the fast append itself.
    pub fn record_watermark(&self, tx: Transaction) -> ice::Result<Transaction> {
        if !self.watermark {
            return Ok(tx);
        }
        record_watermark(tx, &self.app, self.epoch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(id: &str) -> AppId {
        AppId::new(id).expect("not empty")
    }

    #[test]
    fn every_app_id_is_named_within_a_file_name_s_limit() {
        let epoch = Epoch::new(i64::MAX as u64).expect("in range");
        let keyed = FileNames::Keyed { create_only: true };
        for id in ["a".repeat(5_000), "/".repeat(90), "é".repeat(40), "app-a".to_string()] {
            let name = format!("{}-00000.parquet", keyed.prefix(&app(&id), epoch));
            assert!(name.len() <= 255, "{} bytes for an id of {}", name.len(), id.len());
            assert!(!app_key(&app(&id)).contains('-'), "{name}");
        }
        assert_eq!(keyed.prefix(&app("app-a"), Epoch::new(3).unwrap()), "once-app~2da-3");
        // Distinct long ids, even sharing their first hundred bytes, get distinct keys.
        let (a, b) = (format!("{}a", "x".repeat(200)), format!("{}b", "x".repeat(200)));
        assert_ne!(app_key(&app(&a)), app_key(&app(&b)));
        assert!(app_key(&app(&a)).starts_with("~h"));
    }
}

//! [`TableDriver`] for a Delta table in a directory of its own: what the suite, `verdict`,
//! `stress` and the benchmarks do to it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use deltalake_core::DeltaTable;
use deltalake_core::kernel::{DataType, PrimitiveType, StructField};

use super::{DeltaSink, delta_error, table_url};
use crate::arms::Arm;
use crate::error::SinkError;
use crate::fixture::{Outage, TableDriver, TableLocation, WriterOptions};
use crate::hooks::Hooks;
use crate::leftovers::{LeftBehind, unreferenced};
use crate::batch::payloads_of;
use crate::sink::{AppId, CommitSink, Epoch};

/// A fresh Delta table in a directory of its own.
pub struct DeltaFixture {
    pub path: PathBuf,
}

#[async_trait]
impl TableDriver for DeltaFixture {
    /// `delta-plain` ignores the hooks: it has no check to report. The access options are
    /// for catalog servers; Delta's log is on the local file system.
    async fn writer(&self, arm: Arm, options: WriterOptions) -> Result<Box<dyn CommitSink>, SinkError> {
        let sink = match arm {
            Arm::DeltaPlain => DeltaSink::plain(&self.path)?,
            _ => self.sink(options.hooks)?,
        };
        Ok(Box::new(match options.counts {
            Some(counts) => sink.counting(counts),
            None => sink,
        }))
    }

    async fn writer_on_missing_table(&self, _arm: Arm) -> Result<Box<dyn CommitSink>, SinkError> {
        Ok(Box::new(DeltaSink::new(&self.path.with_file_name("no_such_table"), Hooks::default())?))
    }

    /// Checkpoints and deletes the commit files the checkpoint covers, as log retention does.
    /// The checkpoint keeps each app's latest `txn`.
    async fn expire_history(&self) -> Result<usize, SinkError> {
        use deltalake_core::checkpoints::{cleanup_expired_logs_for, create_checkpoint};
        let table = self.sink(Hooks::default())?.load().await?;
        create_checkpoint(&table, None).await.map_err(delta_error)?;
        let version = table.version().ok_or_else(|| SinkError::Delta("table has no version".into()))?;
        let now_ms = crate::batch::unix_millis();
        cleanup_expired_logs_for(version, table.log_store().as_ref(), now_ms + 1, None)
            .await
            .map_err(delta_error)
    }

    async fn epoch_from_walk_alone(&self, _app: &AppId) -> Result<Option<Epoch>, SinkError> {
        Ok(None)
    }

    /// Read from the `txn` actions of each commit file (the snapshot keeps only the latest).
    async fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        Ok(self.app_commits(app)?.into_iter().map(|(epoch, _)| epoch).collect())
    }

    /// The `payload` values of the rows each commit added, read from the data files of its `add`
    /// actions.
    async fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        let mut out = vec![];
        for (epoch, added) in self.app_commits(app)? {
            let mut batches = BTreeSet::new();
            for path in added {
                let file = self.path.join(&path);
                let bytes = std::fs::read(&file).map_err(|e| SinkError::Delta(format!("{}: {e}", file.display())))?;
                batches.extend(payloads_of(&path, bytes.into())?);
            }
            out.push((epoch, batches));
        }
        Ok(out)
    }

    /// One-row commits with a `txn`.
    async fn seed_history(&self, app: &AppId, snapshots: u64) -> Result<(), SinkError> {
        let sink = self.sink(Hooks::default())?;
        for n in 1..=snapshots {
            sink.commit(app, Epoch::new(n)?, crate::batch::batch(n as i64, 1, "history")).await?;
        }
        Ok(())
    }

    async fn left_behind(&self) -> Result<Vec<LeftBehind>, SinkError> {
        let referenced = self.table_files().await?;
        unreferenced(&self.path.to_string_lossy(), &referenced).await
    }

    async fn location(&self) -> Result<TableLocation, SinkError> {
        Ok(TableLocation::Delta { table_path: self.path.clone() })
    }

    async fn outages(&self, _arm: Arm) -> Result<Vec<Box<dyn Outage>>, SinkError> {
        Ok(vec![])
    }
}

impl DeltaFixture {
    pub async fn create(path: &Path) -> Result<Self, SinkError> {
        std::fs::create_dir_all(path).map_err(|e| SinkError::Delta(e.to_string()))?;
        DeltaTable::try_from_url(table_url(path)?)
            .await
            .map_err(delta_error)?
            .create()
            .with_columns([
                StructField::new("id", DataType::Primitive(PrimitiveType::Long), false),
                StructField::new("payload", DataType::Primitive(PrimitiveType::String), true),
            ])
            .await
            .map_err(delta_error)?;
        Ok(Self { path: path.to_path_buf() })
    }

    pub fn sink(&self, hooks: Hooks) -> Result<DeltaSink, SinkError> {
        DeltaSink::new(&self.path, hooks)
    }

    /// The commit files that carry a `txn` of `app`, in log order: its version and the paths
    /// of the files the commit added.
    fn app_commits(&self, app: &AppId) -> Result<Vec<(Epoch, Vec<String>)>, SinkError> {
        let log = self.path.join("_delta_log");
        let mut commits: Vec<PathBuf> = std::fs::read_dir(&log)
            .map_err(|e| SinkError::Delta(e.to_string()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| log_entry(path) == Some(LogEntry::Commit))
            .collect();
        commits.sort();
        let mut out = vec![];
        for commit in commits {
            let text = std::fs::read_to_string(&commit).map_err(|e| SinkError::Delta(e.to_string()))?;
            let (mut epoch, mut added) = (None, vec![]);
            for line in text.lines() {
                let action: serde_json::Value =
                    serde_json::from_str(line).map_err(|e| SinkError::Corrupt(format!("{}: {e}", commit.display())))?;
                let txn = &action["txn"];
                if txn["appId"].as_str() == Some(app.as_str()) {
                    let version = txn["version"]
                        .as_i64()
                        .ok_or_else(|| SinkError::Corrupt(format!("{}: txn without version", commit.display())))?;
                    epoch = Some(Epoch::from_stored(version)?);
                }
                if let Some(path) = action["add"]["path"].as_str() {
                    added.push(path.to_string());
                }
            }
            out.extend(epoch.map(|epoch| (epoch, added)));
        }
        Ok(out)
    }

    /// Every file that belongs to the table: the versions of the log (commits, checkpoints, their
    /// `_last_checkpoint` pointer) and the current version's data files (as
    /// `leftovers::normalized` spells them).
    async fn table_files(&self) -> Result<BTreeSet<String>, SinkError> {
        let mut files = self.sink(Hooks::default())?.data_files().await?;
        let log = self.path.join("_delta_log");
        for entry in std::fs::read_dir(&log).map_err(|e| SinkError::Delta(e.to_string()))? {
            let path = entry.map_err(|e| SinkError::Delta(e.to_string()))?.path();
            if log_entry(&path).is_some() {
                files.insert(path);
            }
        }
        Ok(files.iter().map(|p| p.to_string_lossy().into_owned()).collect())
    }
}

#[derive(Debug, PartialEq, Eq)]
enum LogEntry {
    /// `<version>.json`: a version of the table.
    Commit,
    /// A checkpoint, checksum, log compaction or `_last_checkpoint`: derived from the commits.
    Derived,
}

/// What a file in `_delta_log` is, by the protocol's names. `None` for anything else, such as the
/// `<name>#<n>` file object_store stages a put-if-absent in on a local filesystem, which a writer
/// killed before the rename leaves behind.
fn log_entry(path: &Path) -> Option<LogEntry> {
    let name = path.file_name()?.to_str()?;
    if name == "_last_checkpoint" {
        return Some(LogEntry::Derived);
    }
    let (version, rest) = name.split_at_checked(20)?;
    if !version.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let checkpoint = rest.starts_with(".checkpoint.") && rest.ends_with(".parquet");
    match rest {
        ".json" => Some(LogEntry::Commit),
        ".crc" => Some(LogEntry::Derived),
        _ if checkpoint || rest.ends_with(".compacted.json") => Some(LogEntry::Derived),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_entries_are_the_protocols_names_only() {
        let entry = |name: &str| log_entry(Path::new(name));
        assert_eq!(entry("00000000000000000007.json"), Some(LogEntry::Commit));
        assert_eq!(entry("00000000000000000007.crc"), Some(LogEntry::Derived));
        assert_eq!(entry("00000000000000000010.checkpoint.parquet"), Some(LogEntry::Derived));
        assert_eq!(entry("00000000000000000010.checkpoint.0000000001.0000000002.parquet"), Some(LogEntry::Derived));
        assert_eq!(entry("00000000000000000001.00000000000000000009.compacted.json"), Some(LogEntry::Derived));
        assert_eq!(entry("_last_checkpoint"), Some(LogEntry::Derived));
        // A put-if-absent staged on a local filesystem and never renamed: not a version.
        assert_eq!(entry("00000000000000000007.json#1"), None);
        assert_eq!(entry("_commit_0b1c.json.tmp"), None);
    }
}

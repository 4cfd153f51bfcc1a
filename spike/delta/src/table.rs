//! A Delta table in a directory of its own, and what a harness does to it besides committing:
//! create it, read back every commit's epoch and batches, expire its history, list its files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use barrier_sink::data::{payloads_of, unix_millis};
use barrier_sink::{AppId, Epoch, Hooks, SinkError};
use deltalake_core::DeltaTable as Log;
use deltalake_core::kernel::{DataType, PrimitiveType, StructField};

use crate::sink::{DeltaSink, delta_error, table_url};

/// A Delta table at a path: its log in `_delta_log`, its data files beside it.
#[derive(Clone, Debug)]
pub struct DeltaTable {
    pub path: PathBuf,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SinkError + '_ {
    move |e| SinkError::Delta(format!("{}: {e}", path.display()).into())
}

impl DeltaTable {
    /// Creates the experiment's table, `id: long not null, payload: string`, at `path`.
    pub async fn create(path: &Path) -> Result<Self, SinkError> {
        std::fs::create_dir_all(path).map_err(io(path))?;
        Log::try_from_url(table_url(path)?)
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

    /// The table another process created at `path` (or none: a writer then gets `TableNotFound`).
    pub fn at(path: &Path) -> Self {
        Self { path: path.to_path_buf() }
    }

    /// The `delta` arm's writer.
    pub fn sink(&self, hooks: Hooks) -> Result<DeltaSink, SinkError> {
        DeltaSink::new(&self.path, hooks)
    }

    /// Checkpoints and deletes the commit files the checkpoint covers, as log retention does;
    /// returns how many went. The checkpoint keeps each app's latest `txn`.
    pub async fn expire_history(&self) -> Result<usize, SinkError> {
        use deltalake_core::checkpoints::{cleanup_expired_logs_for, create_checkpoint};
        let table = self.sink(Hooks::default())?.load().await?;
        create_checkpoint(&table, None).await.map_err(delta_error)?;
        let version = table.version().ok_or_else(|| SinkError::Delta("table has no version".into()))?;
        cleanup_expired_logs_for(version, table.log_store().as_ref(), unix_millis() + 1, None)
            .await
            .map_err(delta_error)
    }

    /// Another writer rewrites the table's data (a compaction); `false` if it holds none.
    pub async fn rewrite_data(&self) -> Result<bool, SinkError> {
        DeltaSink::plain(&self.path)?.rewrite().await
    }

    /// Every epoch `app` committed, one entry per commit (duplicates included), in log order:
    /// read from the `txn` actions of each commit file (the snapshot keeps only the latest).
    pub fn epoch_history(&self, app: &AppId) -> Result<Vec<Epoch>, SinkError> {
        Ok(self.app_commits(app)?.into_iter().map(|(epoch, _)| epoch).collect())
    }

    /// Every commit of `app`, in log order: its epoch and the `payload` values of the rows it
    /// added, read from the data files of its `add` actions.
    pub fn epoch_batches(&self, app: &AppId) -> Result<Vec<(Epoch, BTreeSet<String>)>, SinkError> {
        let mut out = vec![];
        for (epoch, added) in self.app_commits(app)? {
            let mut batches = BTreeSet::new();
            for path in added {
                let file = self.path.join(&path);
                let bytes = std::fs::read(&file).map_err(io(&file))?;
                batches.extend(payloads_of(&path, bytes.into())?);
            }
            out.push((epoch, batches));
        }
        Ok(out)
    }

    /// The commit files that carry a `txn` of `app`, in log order: its version and the paths
    /// of the files the commit added.
    fn app_commits(&self, app: &AppId) -> Result<Vec<(Epoch, Vec<String>)>, SinkError> {
        let log = self.path.join("_delta_log");
        let mut commits: Vec<PathBuf> = std::fs::read_dir(&log)
            .map_err(io(&log))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| log_entry(path) == Some(LogEntry::Commit))
            .collect();
        commits.sort();
        let mut out = vec![];
        for commit in commits {
            let text = std::fs::read_to_string(&commit).map_err(io(&commit))?;
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

    /// Every file that belongs to the table, as plain paths: the versions of the log (commits,
    /// checkpoints, their `_last_checkpoint` pointer) and the current version's data files.
    pub async fn table_files(&self) -> Result<BTreeSet<String>, SinkError> {
        let mut files = self.sink(Hooks::default())?.data_files().await?;
        let log = self.path.join("_delta_log");
        for entry in std::fs::read_dir(&log).map_err(io(&log))? {
            let path = entry.map_err(io(&log))?.path();
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

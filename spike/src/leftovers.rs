//! The files an aborted or losing commit attempt leaves in a table's directory.
//!
//! Neither format's writers clean up after an attempt that did not become a table version (and a
//! killed process cannot): data files, and for Iceberg the manifests, manifest list and metadata
//! file staged for it, stay until an orphan-file cleanup removes them. They are harmless to
//! readers, which only follow references; they cost storage.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::SinkError;

/// What a file in a table directory is, from the names the two formats give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    Data,
    Manifest,
    ManifestList,
    Metadata,
    /// A file in `_delta_log` that is not part of the log: a commit staged under a temporary
    /// name and never renamed into place.
    DeltaLogTemp,
    Other,
}

impl FileKind {
    /// A file object_store staged as `<name>#<n>` (a local put-if-absent or a killed write) is
    /// the kind of `<name>`.
    pub fn of(path: &Path) -> Self {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let name = match name.rsplit_once('#') {
            Some((staged, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => staged,
            _ => name,
        };
        let in_delta_log = path.parent().and_then(Path::file_name).is_some_and(|d| d == "_delta_log");
        if name.ends_with(".parquet") && !in_delta_log {
            FileKind::Data
        } else if name.ends_with(".metadata.json") {
            FileKind::Metadata
        } else if name.starts_with("snap-") && name.ends_with(".avro") {
            FileKind::ManifestList
        } else if name.ends_with(".avro") {
            FileKind::Manifest
        } else if in_delta_log {
            FileKind::DeltaLogTemp
        } else {
            FileKind::Other
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = serde_json::to_value(self).expect("serializes");
        f.write_str(name.as_str().expect("a unit variant serializes as a string"))
    }
}

/// A file in the table's directory that no part of the table references.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct LeftBehind {
    pub kind: FileKind,
    pub path: PathBuf,
    pub bytes: u64,
}

/// Every file under `root` that is not in `referenced`, sorted by kind and path.
pub fn unreferenced(root: &Path, referenced: &BTreeSet<PathBuf>) -> Result<Vec<LeftBehind>, SinkError> {
    let io = |e: std::io::Error| SinkError::Corrupt(format!("{}: {e}", root.display()));
    let mut left = vec![];
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let path = entry.path();
            let meta = entry.metadata().map_err(io)?;
            if meta.is_dir() {
                dirs.push(path);
            } else if !referenced.contains(&path) {
                left.push(LeftBehind { kind: FileKind::of(&path), path, bytes: meta.len() });
            }
        }
    }
    left.sort();
    Ok(left)
}

/// `n files, b bytes (k data, k manifest, ...)`: the audit's one-line account.
pub fn summary(left: &[LeftBehind]) -> String {
    let bytes: u64 = left.iter().map(|f| f.bytes).sum();
    let mut kinds: Vec<(FileKind, usize)> = vec![];
    for file in left {
        match kinds.last_mut() {
            Some((kind, n)) if *kind == file.kind => *n += 1,
            _ => kinds.push((file.kind, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
    if kinds.is_empty() {
        "none".to_string()
    } else {
        format!("{} files, {bytes} bytes ({})", left.len(), kinds.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_each_formats_names() {
        let kind = |p: &str| FileKind::of(Path::new(p));
        assert_eq!(kind("/t/data/00000-0-a.parquet"), FileKind::Data);
        assert_eq!(kind("/t/part-00001-b.c000.snappy.parquet"), FileKind::Data);
        assert_eq!(kind("/t/metadata/00003-c.metadata.json"), FileKind::Metadata);
        assert_eq!(kind("/t/metadata/snap-1-0-d.avro"), FileKind::ManifestList);
        assert_eq!(kind("/t/metadata/e-m0.avro"), FileKind::Manifest);
        assert_eq!(kind("/t/part-00001-b.c000.snappy.parquet#1"), FileKind::Data);
        assert_eq!(kind("/t/_delta_log/00000000000000000007.json#1"), FileKind::DeltaLogTemp);
        assert_eq!(kind("/t/notes.txt"), FileKind::Other);
    }

    #[test]
    fn only_unreferenced_files_are_listed_with_their_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("metadata")).unwrap();
        std::fs::write(root.join("metadata/1.metadata.json"), b"{}").unwrap();
        std::fs::write(root.join("metadata/2.metadata.json"), b"{ }").unwrap();
        std::fs::write(root.join("a.parquet"), b"PAR1").unwrap();
        let referenced = BTreeSet::from([root.join("metadata/1.metadata.json")]);
        let left = unreferenced(root, &referenced).unwrap();
        assert_eq!(
            left,
            vec![
                LeftBehind { kind: FileKind::Data, path: root.join("a.parquet"), bytes: 4 },
                LeftBehind { kind: FileKind::Metadata, path: root.join("metadata/2.metadata.json"), bytes: 3 },
            ]
        );
        assert_eq!(summary(&left), "2 files, 7 bytes (1 data, 1 metadata)");
        assert_eq!(summary(&[]), "none");
    }
}

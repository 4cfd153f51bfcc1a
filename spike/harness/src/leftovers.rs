//! The files an aborted or losing commit attempt leaves in a table's directory.
//!
//! Neither format's writers clean up after an attempt that did not become a table version (and a
//! killed process cannot): data files, and for Iceberg the manifests, manifest list and metadata
//! file staged for it, stay until an orphan-file cleanup removes them. They are harmless to
//! readers, which only follow references; they cost storage.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use barrier_sink::SinkError;
use barrier_sink::data::local_path;

use crate::store;

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
    pub fn of(location: &str) -> Self {
        let mut segments = location.rsplit('/');
        let name = segments.next().unwrap_or_default();
        let in_delta_log = segments.next() == Some("_delta_log");
        let name = match name.rsplit_once('#') {
            Some((staged, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => staged,
            _ => name,
        };
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

/// A file under the table's location that no part of the table references.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct LeftBehind {
    pub kind: FileKind,
    /// An absolute path, or an `s3://` URL.
    pub location: String,
    pub bytes: u64,
}

/// A location as [`store::list`] spells it: `file:` URLs become plain paths.
pub fn normalized(location: &str) -> String {
    local_path(location).to_string_lossy().into_owned()
}

/// Every file under `root` (a directory or an `s3://` prefix) that is not in `referenced`
/// (locations as [`normalized`] spells them), sorted by kind and location.
pub async fn unreferenced(root: &str, referenced: &BTreeSet<String>) -> Result<Vec<LeftBehind>, SinkError> {
    let mut left: Vec<LeftBehind> = store::list(root)
        .await?
        .into_iter()
        .filter(|file| !referenced.contains(&file.location))
        .map(|file| LeftBehind { kind: FileKind::of(&file.location), location: file.location, bytes: file.bytes })
        .collect();
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
        let kind = FileKind::of;
        assert_eq!(kind("/t/data/00000-0-a.parquet"), FileKind::Data);
        assert_eq!(kind("/t/part-00001-b.c000.snappy.parquet"), FileKind::Data);
        assert_eq!(kind("/t/metadata/00003-c.metadata.json"), FileKind::Metadata);
        assert_eq!(kind("/t/metadata/snap-1-0-d.avro"), FileKind::ManifestList);
        assert_eq!(kind("/t/metadata/e-m0.avro"), FileKind::Manifest);
        assert_eq!(kind("/t/part-00001-b.c000.snappy.parquet#1"), FileKind::Data);
        assert_eq!(kind("/t/_delta_log/00000000000000000007.json#1"), FileKind::DeltaLogTemp);
        assert_eq!(kind("/t/notes.txt"), FileKind::Other);
    }

    #[tokio::test]
    async fn only_unreferenced_files_are_listed_with_their_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let at = |p: &str| root.join(p).to_string_lossy().into_owned();
        std::fs::create_dir_all(root.join("metadata")).unwrap();
        std::fs::write(root.join("metadata/1.metadata.json"), b"{}").unwrap();
        std::fs::write(root.join("metadata/2.metadata.json"), b"{ }").unwrap();
        std::fs::write(root.join("a.parquet"), b"PAR1").unwrap();
        let referenced = BTreeSet::from([at("metadata/1.metadata.json")]);
        let left = unreferenced(&format!("file://{}", root.display()), &referenced).await.unwrap();
        assert_eq!(
            left,
            vec![
                LeftBehind { kind: FileKind::Data, location: at("a.parquet"), bytes: 4 },
                LeftBehind { kind: FileKind::Metadata, location: at("metadata/2.metadata.json"), bytes: 3 },
            ]
        );
        assert_eq!(summary(&left), "2 files, 7 bytes (1 data, 1 metadata)");
        assert_eq!(summary(&[]), "none");
    }
}

//! Put-if-absent for data files named from `(app, epoch)` (`iceberg-file-key`): a stale writer
//! of an epoch must not replace the rows of the file another writer already committed under the
//! same name, which a plain write does before the duplicate-file check refuses its commit.
//!
//! A data file whose name starts with [`PREFIX`] is buffered whole and published at `close` only
//! if nothing is at its path: on the local file system by a hard link from a temporary file
//! (`link(2)` fails with `EEXIST`, atomically, and the file appears whole), on S3 by a `PUT` with
//! `If-None-Match: *`, which the store must honour (AWS S3 does since 2024; whether the S3 a table
//! lives on does is measured, not assumed: `spike/lab/tests/file_key.rs`). A file already there
//! with the same bytes is the same batch written before (a replay, or the retry of an aborted
//! attempt): the write succeeds and the commit decides. A file with other bytes is another
//! batch's claim on the epoch: the write fails with [`KeyTaken`] and nothing is changed.
//!
//! The limits: the file is held in memory until it is published (the experiment's batches are
//! small; a large one would want a conditional multipart upload), and on another store the write
//! is refused rather than silently made unconditional.

use std::collections::HashMap;
use std::error::Error as StdError;
use std::fmt;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use barrier_sink::SourceFile;
use bytes::{Bytes, BytesMut};
use opendal::Operator;
use opendal::services::S3;

use super::compat;
use super::ice::io::FileWrite;
use super::ice::{self, ErrorKind};

/// This file, for the footprint of the arm whose check rides on it.
pub const SOURCE: SourceFile = SourceFile { path: file!(), text: include_str!("create_only.rs") };

/// The prefix of a data file's name that makes its write create-only.
pub const PREFIX: &str = "once-";

/// Whether the file at `path` is written only if absent.
pub fn is_create_only(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|name| name.starts_with(PREFIX))
}

/// The source of a create-only write that found another file at its path.
#[derive(Debug)]
pub struct KeyTaken {
    pub path: String,
}

impl fmt::Display for KeyTaken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} already holds other bytes: another batch of the same epoch", self.path)
    }
}

impl StdError for KeyTaken {}

/// Where a create-only file is published.
enum Store {
    Local(PathBuf),
    S3 { operator: Operator, key: String },
}

impl Store {
    /// The store of `path` with the storage properties `props` (for S3: endpoint and keys).
    fn of(path: &str, props: &HashMap<String, String>) -> ice::Result<Self> {
        if let Some(rest) = path.strip_prefix("s3://").or_else(|| path.strip_prefix("s3a://")) {
            let (bucket, key) = rest.split_once('/').ok_or_else(|| unsupported(path))?;
            let prop = |name: &str| props.get(name).map(String::as_str).unwrap_or_default();
            let builder = S3::default()
                .bucket(bucket)
                .endpoint(prop("s3.endpoint"))
                .region(props.get("s3.region").map_or("us-east-1", String::as_str))
                .access_key_id(prop("s3.access-key-id"))
                .secret_access_key(prop("s3.secret-access-key"));
            let operator = Operator::new(builder).map_err(opendal_error)?.finish();
            return Ok(Store::S3 { operator, key: key.to_string() });
        }
        if path.starts_with('/') || path.starts_with("file:") {
            return Ok(Store::Local(barrier_sink::data::local_path(path).to_path_buf()));
        }
        Err(unsupported(path))
    }

    /// Writes `bytes` unless a file is there; `Ok(false)` if one was.
    async fn put_if_absent(&self, bytes: Bytes) -> ice::Result<bool> {
        match self {
            Store::Local(path) => link_if_absent(path, bytes).await.map_err(io_error),
            Store::S3 { operator, key } => match operator.write_with(key, bytes).if_not_exists(true).await {
                Ok(_) => Ok(true),
                Err(e) if e.kind() == opendal::ErrorKind::ConditionNotMatch => Ok(false),
                Err(e) => Err(opendal_error(e)),
            },
        }
    }

    async fn read(&self) -> ice::Result<Bytes> {
        match self {
            Store::Local(path) => tokio::fs::read(path).await.map(Bytes::from).map_err(io_error),
            Store::S3 { operator, key } => Ok(operator.read(key).await.map_err(opendal_error)?.to_bytes()),
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` and links it to `path`, which fails if
/// anything is there; the temporary file is removed either way.
async fn link_if_absent(path: &Path, bytes: Bytes) -> std::io::Result<bool> {
    let dir = path.parent().ok_or_else(|| std::io::Error::other("a data file's path has a directory"))?;
    tokio::fs::create_dir_all(dir).await?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = dir.join(format!(".{name}.{}.tmp", uuid::Uuid::new_v4()));
    tokio::fs::write(&temporary, &bytes).await?;
    let linked = tokio::fs::hard_link(&temporary, path).await;
    tokio::fs::remove_file(&temporary).await?;
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// A create-only file's write: buffered, published at `close`.
pub struct CreateOnlyWrite {
    path: String,
    store: Store,
    buffer: BytesMut,
}

impl CreateOnlyWrite {
    pub fn new(path: &str, props: &HashMap<String, String>) -> ice::Result<Self> {
        Ok(Self { path: path.to_string(), store: Store::of(path, props)?, buffer: BytesMut::new() })
    }
}

#[async_trait]
impl FileWrite for CreateOnlyWrite {
    async fn write(&mut self, bs: Bytes) -> ice::Result<()> {
        self.buffer.extend_from_slice(&bs);
        Ok(())
    }

    async fn close(&mut self) -> ice::Result<compat::Closed> {
        let bytes = std::mem::take(&mut self.buffer).freeze();
        let size = bytes.len() as u64;
        if !self.store.put_if_absent(bytes.clone()).await? && self.store.read().await? != bytes {
            return Err(ice::Error::new(ErrorKind::DataInvalid, format!("create-only write of {}", self.path))
                .with_source(KeyTaken { path: self.path.clone() }));
        }
        #[allow(clippy::unit_arg, reason = "0.10.1's `close` returns (), 0.11.0's the file's size")]
        Ok(compat::closed(size))
    }
}

fn unsupported(path: &str) -> ice::Error {
    ice::Error::new(ErrorKind::FeatureUnsupported, format!("no put-if-absent for {path}: local files and S3 only"))
}

fn io_error(e: std::io::Error) -> ice::Error {
    ice::Error::new(ErrorKind::Unexpected, "create-only write").with_source(e)
}

fn opendal_error(e: opendal::Error) -> ice::Error {
    ice::Error::new(ErrorKind::Unexpected, "create-only write to S3").with_source(e)
}

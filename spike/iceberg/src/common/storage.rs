//! The storage every catalog of this crate is opened with: the catalog's own (the local file
//! system, or S3 for `rest`), plus a failpoint after a table metadata file is written, injected
//! write failures ([`StorageFault`]: a failing disk or object store, for `stress`), and a mark on every error it returns so that the sink can tell a storage failure
//! from any other.
//!
//! Both embedded catalogs write the new `*.metadata.json` inside `update_table` and only then
//! swap the pointer (the SQL catalog's conditional `UPDATE`, the memory catalog's in-process
//! flip). No catalog method boundary falls between the two, so the window is reached from below:
//! every file the catalogs and transactions write goes through this storage, and a successful
//! write of a metadata file passes `barrier.after-metadata-file`. An abort there leaves a metadata
//! file that no catalog entry points to. (A REST server writes the metadata file itself.)
//!
//! It also counts the files and bytes written and read through it ([`crate::storage_io`]).

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

use barrier_sink::Failpoint;
use barrier_sink::failpoints::StorageFault as Fault;

use super::create_only::{CreateOnlyWrite, is_create_only};
use super::errors::{failed_storage as failed, injected};
use super::ice::io::{
    FileMetadata, FileRead, FileWrite, InputFile, OutputFile, Storage, StorageConfig, StorageFactory,
};
use super::{compat, ice};
use crate::storage_io;

fn injected_failure(fault: Fault, path: &str) -> ice::Error {
    let what = if fault == Fault::Partial { "partial write" } else { "write" };
    failed(ice::Error::new(ice::ErrorKind::Unexpected, format!("injected storage fault: {what} of {path}")))
}

/// Wraps the storage factory a catalog would use.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FailpointStorageFactory {
    pub inner: Arc<dyn StorageFactory>,
}

#[typetag::serde]
impl StorageFactory for FailpointStorageFactory {
    fn build(&self, config: &StorageConfig) -> ice::Result<Arc<dyn Storage>> {
        Ok(Arc::new(FailpointStorage { inner: self.inner.build(config)?, props: config.props().clone() }))
    }
}

/// The wrapped storage, plus [`Failpoint::AfterMetadataFile`] after a metadata file is written, and
/// `errors::StorageFailed` as the source of every error. Cheap to clone, so the input and output files
/// it hands out carry their own copy and still read and write through it. A data file named as
/// create-only (`create_only.rs`) is written only if absent.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FailpointStorage {
    inner: Arc<dyn Storage>,
    /// The storage's properties, which a create-only write to S3 opens its own client with.
    props: HashMap<String, String>,
}

#[async_trait]
#[typetag::serde]
impl Storage for FailpointStorage {
    async fn exists(&self, path: &str) -> ice::Result<bool> {
        self.inner.exists(path).await.map_err(failed)
    }

    async fn metadata(&self, path: &str) -> ice::Result<FileMetadata> {
        self.inner.metadata(path).await.map_err(failed)
    }

    async fn read(&self, path: &str) -> ice::Result<Bytes> {
        let bytes = self.inner.read(path).await.map_err(failed)?;
        storage_io::file_read(bytes.len());
        Ok(bytes)
    }

    async fn reader(&self, path: &str) -> ice::Result<Box<dyn FileRead>> {
        self.inner.reader(path).await.map_err(failed)
    }

    // Table metadata is written whole (`TableMetadata::write_to`), never through `writer`.
    async fn write(&self, path: &str, bs: Bytes) -> ice::Result<()> {
        match Fault::injected() {
            Some(Fault::Error) => return Err(injected_failure(Fault::Error, path)),
            Some(Fault::Partial) => {
                self.inner.write(path, bs.slice(..bs.len() / 2)).await.map_err(failed)?;
                return Err(injected_failure(Fault::Partial, path));
            }
            None => {}
        }
        storage_io::file_created(path);
        storage_io::bytes_written(bs.len());
        self.inner.write(path, bs).await.map_err(failed)?;
        if path.ends_with(".metadata.json") && Failpoint::AfterMetadataFile.fires() {
            return Err(injected(Failpoint::AfterMetadataFile));
        }
        Ok(())
    }

    // Data files, manifests and manifest lists are streamed through `writer`.
    async fn writer(&self, path: &str) -> ice::Result<Box<dyn FileWrite>> {
        let fault = Fault::injected();
        if fault == Some(Fault::Error) {
            return Err(injected_failure(Fault::Error, path));
        }
        let inner: Box<dyn FileWrite> = if is_create_only(path) {
            Box::new(CreateOnlyWrite::new(path, &self.props)?)
        } else {
            self.inner.writer(path).await.map_err(failed)?
        };
        storage_io::file_created(path);
        Ok(Box::new(MarkedWrite { inner, path: path.to_string(), partial: fault == Some(Fault::Partial) }))
    }

    async fn delete(&self, path: &str) -> ice::Result<()> {
        self.inner.delete(path).await.map_err(failed)
    }

    async fn delete_prefix(&self, path: &str) -> ice::Result<()> {
        self.inner.delete_prefix(path).await.map_err(failed)
    }

    async fn delete_stream(&self, paths: BoxStream<'static, String>) -> ice::Result<()> {
        self.inner.delete_stream(paths).await.map_err(failed)
    }

    fn new_input(&self, path: &str) -> ice::Result<InputFile> {
        Ok(InputFile::new(Arc::new(self.clone()), path.to_string()))
    }

    fn new_output(&self, path: &str) -> ice::Result<OutputFile> {
        Ok(OutputFile::new(Arc::new(self.clone()), path.to_string()))
    }
}

/// A streamed write whose errors carry `StorageFailed` too, and which, when a partial write was
/// injected, keeps the first half of its first chunk and fails.
struct MarkedWrite {
    inner: Box<dyn FileWrite>,
    path: String,
    partial: bool,
}

#[async_trait]
impl FileWrite for MarkedWrite {
    async fn write(&mut self, bs: Bytes) -> ice::Result<()> {
        if self.partial {
            self.inner.write(bs.slice(..bs.len() / 2)).await.map_err(failed)?;
            // A create-only file is published whole at `close` or not at all (a hard link of a
            // complete temporary file, one S3 `PUT`): no store leaves half of one to be seen.
            if !is_create_only(&self.path) {
                self.inner.close().await.map_err(failed)?;
            }
            return Err(injected_failure(Fault::Partial, &self.path));
        }
        storage_io::bytes_written(bs.len());
        self.inner.write(bs).await.map_err(failed)
    }

    async fn close(&mut self) -> ice::Result<compat::Closed> {
        self.inner.close().await.map_err(failed)
    }
}

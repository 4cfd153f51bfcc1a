//! Local-filesystem storage with a failpoint after a table metadata file is written.
//!
//! Both catalogs write the new `*.metadata.json` inside `update_table` and only then swap the
//! pointer (the SQL catalog's conditional `UPDATE`, the memory catalog's in-process flip). No
//! catalog method boundary falls between the two, so the window is reached from below: every
//! file the catalogs and transactions write goes through this storage, and a successful write of
//! a metadata file passes `barrier.after-metadata-file`. An abort there leaves a metadata file
//! that no catalog entry points to.

use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

use super::ice::io::{
    FileMetadata, FileRead, FileWrite, InputFile, LocalFsStorage, OutputFile, Storage,
    StorageConfig, StorageFactory,
};
use super::ice;
use super::table::injected;
use crate::hooks::failpoints::AFTER_METADATA_FILE;

/// The storage every catalog of this crate is opened with.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FailpointStorageFactory;

#[typetag::serde]
impl StorageFactory for FailpointStorageFactory {
    fn build(&self, _config: &StorageConfig) -> ice::Result<Arc<dyn Storage>> {
        Ok(Arc::new(FailpointStorage::default()))
    }
}

/// [`LocalFsStorage`], plus [`AFTER_METADATA_FILE`] after a metadata file is written. Stateless,
/// so the output files it hands out can carry their own copy and still write through it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FailpointStorage {
    local: LocalFsStorage,
}

#[async_trait]
#[typetag::serde]
impl Storage for FailpointStorage {
    async fn exists(&self, path: &str) -> ice::Result<bool> {
        self.local.exists(path).await
    }

    async fn metadata(&self, path: &str) -> ice::Result<FileMetadata> {
        self.local.metadata(path).await
    }

    async fn read(&self, path: &str) -> ice::Result<Bytes> {
        self.local.read(path).await
    }

    async fn reader(&self, path: &str) -> ice::Result<Box<dyn FileRead>> {
        self.local.reader(path).await
    }

    // Table metadata is written whole (`TableMetadata::write_to`), never through `writer`.
    async fn write(&self, path: &str, bs: Bytes) -> ice::Result<()> {
        self.local.write(path, bs).await?;
        if path.ends_with(".metadata.json") {
            fail::fail_point!(AFTER_METADATA_FILE, |_| Err(injected(AFTER_METADATA_FILE)));
        }
        Ok(())
    }

    async fn writer(&self, path: &str) -> ice::Result<Box<dyn FileWrite>> {
        self.local.writer(path).await
    }

    async fn delete(&self, path: &str) -> ice::Result<()> {
        self.local.delete(path).await
    }

    async fn delete_prefix(&self, path: &str) -> ice::Result<()> {
        self.local.delete_prefix(path).await
    }

    async fn delete_stream(&self, paths: BoxStream<'static, String>) -> ice::Result<()> {
        self.local.delete_stream(paths).await
    }

    fn new_input(&self, path: &str) -> ice::Result<InputFile> {
        Ok(InputFile::new(Arc::new(self.clone()), path.to_string()))
    }

    fn new_output(&self, path: &str) -> ice::Result<OutputFile> {
        Ok(OutputFile::new(Arc::new(self.clone()), path.to_string()))
    }
}

//! Where tables keep their files: the local file system, or the S3 endpoint of the REST catalog's
//! server. Listing a table's location is how an audit finds what aborted attempts left behind.

use std::path::Path;

use barrier_sink::data::local_path;
use barrier_sink::{Located, SinkError};
use opendal::Operator;
use opendal::services::S3;

/// The S3 endpoint `scripts/seaweedfs` starts and exports, and its key pair.
#[derive(Clone, Debug)]
pub struct S3Server {
    pub endpoint: String,
    pub access_key: String,
    pub secret_key: String,
}

impl S3Server {
    pub fn from_env() -> Result<Self, SinkError> {
        let var = |name: &str| {
            std::env::var(name).map_err(|_| {
                SinkError::Storage(format!("{name} is not set (scripts/seaweedfs start exports it)").into())
            })
        };
        Ok(Self {
            endpoint: var("BARRIER_S3_ENDPOINT")?,
            access_key: var("BARRIER_S3_ACCESS_KEY")?,
            secret_key: var("BARRIER_S3_SECRET_KEY")?,
        })
    }

    fn bucket(&self, bucket: &str) -> Result<Operator, SinkError> {
        let builder = S3::default()
            .bucket(bucket)
            .endpoint(&self.endpoint)
            .region("us-east-1")
            .access_key_id(&self.access_key)
            .secret_access_key(&self.secret_key);
        Operator::new(builder).map(|op| op.finish()).map_err(|e| SinkError::Storage(Box::new(e)))
    }
}

/// A file: its location as the table spells it (an absolute path or an `s3://` URL), and its size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StoredFile {
    pub location: String,
    pub bytes: u64,
}

/// Every file under `location` (a directory or an `s3://bucket/prefix`).
pub async fn list(location: &str) -> Result<Vec<StoredFile>, SinkError> {
    match location.strip_prefix("s3://") {
        Some(rest) => {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            let op = S3Server::from_env()?.bucket(bucket)?;
            let entries = op
                .list_with(&format!("{}/", prefix.trim_end_matches('/')))
                .recursive(true)
                .await
                .map_err(|e| SinkError::Storage(Located::boxed(location, e)))?;
            Ok(entries
                .into_iter()
                .filter(|e| e.metadata().is_file())
                .map(|e| StoredFile {
                    location: format!("s3://{bucket}/{}", e.path()),
                    bytes: e.metadata().content_length(),
                })
                .collect())
        }
        None => list_local(local_path(location)),
    }
}

fn list_local(root: &Path) -> Result<Vec<StoredFile>, SinkError> {
    let io = |e: std::io::Error| SinkError::Storage(Located::boxed(root.display(), e));
    let mut files = vec![];
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let meta = entry.metadata().map_err(io)?;
            if meta.is_dir() {
                dirs.push(entry.path());
            } else {
                files.push(StoredFile { location: entry.path().to_string_lossy().into_owned(), bytes: meta.len() });
            }
        }
    }
    Ok(files)
}

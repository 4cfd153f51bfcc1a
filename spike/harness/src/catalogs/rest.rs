//! `rest`: `iceberg-catalog-rest` against the Iceberg REST catalog `scripts/seaweedfs` starts,
//! its warehouse on the same server's S3 endpoint; every fixture has a namespace of its own.

use barrier_iceberg::{Connection, RestConnection, S3Access};
use barrier_sink::{Failpoint, SinkError};

use super::{Access, CATALOG_NAME, Outages, Place, Profile, REST_TIMEOUT, Server};
use crate::store::S3Server;

const URL: &str = "BARRIER_REST_URL";

pub(super) const PROFILE: Profile = Profile {
    name: "rest",
    embedded: false,
    shared: true,
    suite: true,
    server: Some(Server { url: URL, script: "seaweedfs", control: "BARRIER_SEAWEEDFS_CTL" }),
    failpoints: &[Failpoint::AfterDataFiles, Failpoint::BeforeSwap, Failpoint::AfterSwap],
    outages: Outages::Server,
    proxied: true,
    file: None,
    scoped_namespace: true,
    connect,
};

/// The server at `$BARRIER_REST_URL` (or the writer's own address, the fault proxy's). The client
/// authenticates with the S3 key pair as its OAuth client credential, as SeaweedFS expects, and
/// times each request out after [`REST_TIMEOUT`] unless the writer asks otherwise.
fn connect(_: &Place, access: &Access) -> Result<Connection, SinkError> {
    let uri = match &access.uri {
        Some(uri) => uri.clone(),
        None => std::env::var(URL).map_err(|_| SinkError::CatalogUnavailable(format!("{URL} is not set").into()))?,
    };
    let s3 = S3Server::from_env()?;
    let credential =
        access.catalog_credential.clone().unwrap_or_else(|| format!("{}:{}", s3.access_key, s3.secret_key));
    let secret_key = access.storage_secret.clone().unwrap_or(s3.secret_key);
    Ok(Connection::Rest(RestConnection {
        name: CATALOG_NAME.to_string(),
        uri,
        warehouse: "s3://warehouse".to_string(),
        credential,
        s3: S3Access { endpoint: s3.endpoint, access_key: s3.access_key, secret_key },
        timeout: access.timeout.unwrap_or(REST_TIMEOUT),
    }))
}

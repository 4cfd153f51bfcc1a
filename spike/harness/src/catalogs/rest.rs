//! `rest`: `iceberg-catalog-rest` against the Iceberg REST catalog `scripts/seaweedfs` starts,
//! its warehouse on the same server's S3 endpoint; every fixture has a namespace of its own. Also
//! what every REST server's entry shares (`rest_rustberg.rs` is the second).

use barrier_iceberg::{Connection, RestAuth, RestConnection, S3Access};
use barrier_sink::SinkError;

use super::{Access, CATALOG_NAME, Home, Place, Profile, REST_TIMEOUT, RestServer, Server};
use crate::store::S3Server;

const URL: &str = "BARRIER_REST_URL";

pub(super) const PROFILE: Profile = profile(
    "rest",
    RestServer {
        server: Server {
            url: URL,
            script: "seaweedfs",
            control: "BARRIER_SEAWEEDFS_CTL",
            data: "BARRIER_SEAWEEDFS_DATA",
        },
        idempotency_keys: false,
        authenticates: true,
    },
    connect,
);

/// A REST server started by a script of the project, its data on the S3 endpoint SeaweedFS
/// serves.
pub(super) const fn profile(
    name: &'static str,
    server: RestServer,
    connect: fn(&Place, &Access) -> Result<Connection, SinkError>,
) -> Profile {
    Profile { name, home: Home::RestServer(server), connect }
}

/// The server at `$BARRIER_REST_URL` (or the writer's own address, the fault proxy's). The client
/// authenticates with the S3 key pair as its OAuth client credential, as SeaweedFS expects.
fn connect(_: &Place, access: &Access) -> Result<Connection, SinkError> {
    let s3 = S3Server::from_env()?;
    let credential =
        access.catalog_credential.clone().unwrap_or_else(|| format!("{}:{}", s3.access_key, s3.secret_key));
    connection(access, URL, "s3://warehouse".to_string(), RestAuth::OAuthClient(credential))
}

/// The server at `$<url>` (or the writer's own address, the fault proxy's), its data on the S3
/// endpoint the environment names, each request timed out after [`REST_TIMEOUT`] unless the writer
/// asks otherwise.
pub(super) fn connection(
    access: &Access,
    url: &str,
    warehouse: String,
    auth: RestAuth,
) -> Result<Connection, SinkError> {
    let uri = match &access.uri {
        Some(uri) => uri.clone(),
        None => env(url)?,
    };
    let s3 = S3Server::from_env()?;
    let secret_key = access.storage_secret.clone().unwrap_or(s3.secret_key);
    Ok(Connection::Rest(RestConnection {
        name: CATALOG_NAME.to_string(),
        uri,
        warehouse,
        auth,
        s3: S3Access { endpoint: s3.endpoint, access_key: s3.access_key, secret_key },
        timeout: access.timeout.unwrap_or(REST_TIMEOUT),
    }))
}

pub(super) fn env(name: &str) -> Result<String, SinkError> {
    std::env::var(name).map_err(|_| SinkError::CatalogUnavailable(format!("{name} is not set").into()))
}

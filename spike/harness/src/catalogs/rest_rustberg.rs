//! `rustberg`: `iceberg-catalog-rest` against the Rustberg server `scripts/rustberg` starts, its
//! warehouse on the S3 endpoint of the SeaweedFS server `rest` uses; every fixture has a namespace
//! of its own. The same client as `rest`, the other server's code deciding each commit.

use barrier_iceberg::{Connection, RestAuth};
use barrier_sink::SinkError;

use super::rest::{connection, env, profile};
use super::{Access, Place, Profile, RestServer, Server};

const URL: &str = "BARRIER_RUSTBERG_URL";

pub(super) const PROFILE: Profile = profile(
    "rustberg",
    RestServer {
        server: Server { url: URL, script: "rustberg", control: "BARRIER_RUSTBERG_CTL", data: "BARRIER_RUSTBERG_DATA" },
        idempotency_keys: true,
        authenticates: true,
    },
    connect,
);

/// The server at `$BARRIER_RUSTBERG_URL`, with the API key `scripts/rustberg` configured as its
/// bearer token (a writer given a wrong credential presents that instead), and the warehouse it
/// serves.
fn connect(_: &Place, access: &Access) -> Result<Connection, SinkError> {
    let token = match &access.catalog_credential {
        Some(wrong) => wrong.clone(),
        None => env("BARRIER_RUSTBERG_TOKEN")?,
    };
    connection(access, URL, env("BARRIER_RUSTBERG_WAREHOUSE")?, RestAuth::Bearer(token))
}

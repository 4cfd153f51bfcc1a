//! `rest-fixture`: `iceberg-catalog-rest` against the Iceberg REST catalog of apache/iceberg's REST
//! fixture (`RESTCatalogAdapter` and `RESTCatalogServlet` from iceberg-core's published tests jar,
//! in front of a JDBC catalog) that `scripts/rest-fixture` starts: the reference implementation's
//! own server-side commit. Its warehouse is on the S3 endpoint of the SeaweedFS server `rest` uses;
//! every fixture has a namespace of its own. The server authenticates nobody.

use barrier_iceberg::{Connection, RestAuth};
use barrier_sink::SinkError;

use super::rest::{connection, env, profile};
use super::{Access, Place, Profile, RestServer, Server};

const URL: &str = "BARRIER_REST_FIXTURE_URL";

pub(super) const PROFILE: Profile = profile(
    "rest-fixture",
    RestServer {
        server: Server {
            url: URL,
            script: "rest-fixture",
            control: "BARRIER_REST_FIXTURE_CTL",
            data: "BARRIER_REST_FIXTURE_DATA",
        },
        idempotency_keys: false,
        authenticates: false,
    },
    connect,
);

/// The server at `$BARRIER_REST_FIXTURE_URL` and the warehouse `scripts/rest-fixture` gave it.
fn connect(_: &Place, access: &Access) -> Result<Connection, SinkError> {
    connection(access, URL, env("BARRIER_REST_FIXTURE_WAREHOUSE")?, RestAuth::None)
}

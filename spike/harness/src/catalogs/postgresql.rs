//! `postgres`: `iceberg-catalog-sql` on the PostgreSQL server `scripts/postgres` starts, which
//! every fixture shares under a catalog name of its own.

use barrier_iceberg::{BindStyle, Connection};
use barrier_sink::{Failpoint, SinkError};

use super::{Access, CATALOG_NAME, Outages, Place, Profile, Server};

const URL: &str = "BARRIER_POSTGRES_URL";

pub(super) const PROFILE: Profile = Profile {
    name: "postgres",
    embedded: false,
    shared: true,
    suite: false,
    server: Some(Server { url: URL, script: "postgres", control: "BARRIER_POSTGRES_CTL" }),
    rest: false,
    idempotency_keys: false,
    failpoints: &Failpoint::ALL,
    outages: Outages::None,
    proxied: false,
    file: None,
    scoped_namespace: false,
    connect,
};

fn connect(place: &Place, _: &Access) -> Result<Connection, SinkError> {
    let uri = std::env::var(URL).map_err(|_| SinkError::CatalogUnavailable(format!("{URL} is not set").into()))?;
    Ok(Connection::Sql {
        name: place.scoped(CATALOG_NAME, '-'),
        uri,
        bind_style: BindStyle::DollarNumeric,
        warehouse: place.local_warehouse(),
    })
}

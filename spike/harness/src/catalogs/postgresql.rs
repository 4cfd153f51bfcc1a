//! `postgres`: `iceberg-catalog-sql` on the PostgreSQL server `scripts/postgres` starts, which
//! every fixture shares under a catalog name of its own.

use barrier_iceberg::{BindStyle, Connection};
use barrier_sink::SinkError;

use super::{Access, CATALOG_NAME, Home, Place, Profile, Server};

const URL: &str = "BARRIER_POSTGRES_URL";

pub(super) const PROFILE: Profile = Profile {
    name: "postgres",
    home: Home::SqlServer(Server {
        url: URL,
        script: "postgres",
        control: "BARRIER_POSTGRES_CTL",
        data: "BARRIER_POSTGRES_DATA",
    }),
    connect,
};

/// The server at `$BARRIER_POSTGRES_URL`, or the writer's own address (`catalog_unavailable`'s
/// server nobody listens at).
fn connect(place: &Place, access: &Access) -> Result<Connection, SinkError> {
    let uri = match &access.uri {
        Some(uri) => uri.clone(),
        None => std::env::var(URL).map_err(|_| SinkError::CatalogUnavailable(format!("{URL} is not set").into()))?,
    };
    Ok(Connection::Sql {
        name: place.scoped(CATALOG_NAME, '-'),
        uri,
        bind_style: BindStyle::DollarNumeric,
        warehouse: place.local_warehouse(),
    })
}

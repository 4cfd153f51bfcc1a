//! `memory`: the in-process `MemoryCatalog`, one per fixture, shared by all its writers.

use barrier_iceberg::Connection;
use barrier_sink::{Failpoint, SinkError};

use super::{Access, CATALOG_NAME, Outages, Place, Profile};

pub(super) const PROFILE: Profile = Profile {
    name: "memory",
    embedded: true,
    shared: false,
    suite: true,
    server: None,
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
    Ok(Connection::Memory { name: CATALOG_NAME.to_string(), warehouse: place.local_warehouse() })
}

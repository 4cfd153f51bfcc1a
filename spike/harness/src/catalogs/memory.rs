//! `memory`: the in-process `MemoryCatalog`, one per fixture, shared by all its writers.

use barrier_iceberg::Connection;
use barrier_sink::SinkError;

use super::{Access, CATALOG_NAME, Home, Place, Profile};

pub(super) const PROFILE: Profile = Profile { name: "memory", home: Home::InProcess, connect };

fn connect(place: &Place, _: &Access) -> Result<Connection, SinkError> {
    Ok(Connection::Memory { name: CATALOG_NAME.to_string(), warehouse: place.local_warehouse() })
}

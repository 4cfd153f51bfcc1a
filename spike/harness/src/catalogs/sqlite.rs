//! `sqlite`: `iceberg-catalog-sql` on a SQLite file in the fixture's directory, which any number
//! of connections (and processes) open independently.

use std::path::PathBuf;

use barrier_iceberg::{BindStyle, Connection};
use barrier_sink::SinkError;

use super::{Access, CATALOG_NAME, Home, Place, Profile};

pub(super) const PROFILE: Profile = Profile { name: "sqlite", home: Home::File(file), connect };

/// The catalog's database file.
fn file(place: &Place) -> PathBuf {
    place.dir.join("catalog.db")
}

fn connect(place: &Place, _: &Access) -> Result<Connection, SinkError> {
    Ok(Connection::Sql {
        name: CATALOG_NAME.to_string(),
        uri: format!("sqlite://{}?mode=rwc", file(place).display()),
        bind_style: BindStyle::QMark,
        warehouse: place.local_warehouse(),
    })
}

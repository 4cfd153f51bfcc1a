//! Where a fixture's table lives, as the other engines that open it read it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::catalogs::CatalogKind;

/// Where a fixture's table lives, for other engines to open it (the peers, the interop readers):
/// its JSON is what they read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "lowercase")]
pub enum TableLocation {
    Delta {
        table_path: PathBuf,
    },
    Iceberg {
        catalog: CatalogKind,
        /// The SQLite catalog database, for `sqlite`.
        #[serde(skip_serializing_if = "Option::is_none")]
        sqlite_file: Option<PathBuf>,
        /// The catalog server's address: a REST server's API, or the PostgreSQL database's URL.
        #[serde(skip_serializing_if = "Option::is_none")]
        uri: Option<String>,
        catalog_name: String,
        namespace: String,
        table: String,
        warehouse: String,
        /// The current metadata file: the only handle on a `memory` table once the process exits.
        metadata_file: Option<String>,
    },
}

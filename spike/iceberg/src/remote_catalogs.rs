//! The SQL and REST catalogs of a 0.10.1 build: `crate::stock` and `crate::patched` include this
//! file as their `remote` module, which `common/catalog.rs` opens every catalog but `memory` with.

use std::collections::HashMap;
use std::sync::Arc;

use barrier_sink::{Located, SinkError};

use super::common::{FailpointStorageFactory, local_fs};
use super::ice::io::StorageFactory;
use super::ice::{Catalog, CatalogBuilder};
use super::ice_rest::RestCatalogBuilder;
use super::ice_s3::OpenDalStorageFactory;
use super::ice_sql::{
    SQL_CATALOG_PROP_BIND_STYLE, SQL_CATALOG_PROP_URI, SQL_CATALOG_PROP_WAREHOUSE, SqlBindStyle, SqlCatalogBuilder,
};
use crate::connection::{BindStyle, Connection, RestAuth, RestConnection};

/// A new connection to a SQL or REST catalog.
pub async fn open(connection: &Connection) -> Result<Arc<dyn Catalog>, SinkError> {
    match connection {
        Connection::Sql { name, uri, bind_style, warehouse } => {
            let bind_style = match bind_style {
                BindStyle::QMark => SqlBindStyle::QMark,
                BindStyle::DollarNumeric => SqlBindStyle::DollarNumeric,
            };
            let props = HashMap::from([
                (SQL_CATALOG_PROP_URI.to_string(), uri.clone()),
                (SQL_CATALOG_PROP_WAREHOUSE.to_string(), warehouse.clone()),
                (SQL_CATALOG_PROP_BIND_STYLE.to_string(), bind_style.to_string()),
            ]);
            let catalog = SqlCatalogBuilder::default()
                .with_storage_factory(local_fs())
                .load(name, props)
                .await
                .map_err(|e| SinkError::CatalogUnavailable(Located::boxed(uri, e)))?;
            Ok(Arc::new(catalog))
        }
        Connection::Rest(rest) => rest_catalog(rest).await,
        Connection::Memory { .. } => unreachable!("common/catalog.rs opens `memory` itself"),
    }
}

/// A REST catalog whose warehouse is on S3; the client times each request out as the
/// connection says.
async fn rest_catalog(rest: &RestConnection) -> Result<Arc<dyn Catalog>, SinkError> {
    let unavailable =
        |e: Box<dyn std::error::Error + Send + Sync>| SinkError::CatalogUnavailable(Located::boxed(&rest.uri, e));
    let auth = match &rest.auth {
        RestAuth::OAuthClient(credential) => Some(("credential".to_string(), credential.clone())),
        RestAuth::Bearer(token) => Some(("token".to_string(), token.clone())),
        RestAuth::None => None,
    };
    let props: HashMap<String, String> = auth
        .into_iter()
        .chain([
            ("uri".to_string(), rest.uri.clone()),
            ("warehouse".to_string(), rest.warehouse.clone()),
            ("s3.endpoint".to_string(), rest.s3.endpoint.clone()),
            ("s3.path-style-access".to_string(), "true".to_string()),
            ("s3.access-key-id".to_string(), rest.s3.access_key.clone()),
            ("s3.secret-access-key".to_string(), rest.s3.secret_key.clone()),
            ("s3.region".to_string(), "us-east-1".to_string()),
        ])
        .collect();
    let client = reqwest::Client::builder().timeout(rest.timeout).build().map_err(|e| unavailable(e.into()))?;
    let s3: Arc<dyn StorageFactory> = Arc::new(OpenDalStorageFactory::S3 { customized_credential_load: None });
    let catalog = RestCatalogBuilder::default()
        .with_client(client)
        .with_storage_factory(Arc::new(FailpointStorageFactory { inner: s3 }))
        .load(&rest.name, props)
        .await
        .map_err(|e| unavailable(e.into()))?;
    Ok(Arc::new(catalog))
}

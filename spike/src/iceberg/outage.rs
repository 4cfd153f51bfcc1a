//! The ways an Iceberg table's catalog can be unavailable to a writer, per catalog kind
//! (`Profile::outages`): what `catalog_unavailable` runs.

use arrow_array::RecordBatch;
use async_trait::async_trait;

use super::catalog::IcebergCatalog;
use super::table::IcebergFixture;
use crate::arms::Arm;
use crate::catalogs::{Access, CatalogKind, Outages};
use crate::error::SinkError;
use crate::fixture::{Outage, OutageOutcome, TableDriver, WriterOptions};
use crate::proxy::FaultProxy;
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};
use crate::store::S3Server;

#[derive(Clone, Copy, Debug)]
enum Cause {
    /// The SQLite file's directory cannot be created: no writer can even be opened.
    UnreachableFile,
    /// Another process holds `BEGIN EXCLUSIVE` on the SQLite file.
    Locked,
    /// The writer reaches the server through the fault proxy, which stops listening.
    ServerDown,
    /// The writer presents a wrong catalog credential.
    WrongCatalogCredential,
    /// The writer signs its storage requests with a wrong secret key.
    WrongStorageCredential,
}

struct CatalogOutage {
    cause: Cause,
    fixture: IcebergFixture,
    arm: Arm,
}

/// The outages of `fixture`'s catalog kind, for writers of `arm`.
pub fn of(fixture: &IcebergFixture, arm: Arm) -> Result<Vec<Box<dyn Outage>>, SinkError> {
    let causes: &[Cause] = match fixture.catalog.kind.profile().outages {
        Outages::None => &[],
        Outages::SqliteFile => &[Cause::UnreachableFile, Cause::Locked],
        Outages::Server => &[Cause::ServerDown, Cause::WrongCatalogCredential, Cause::WrongStorageCredential],
    };
    Ok(causes
        .iter()
        .map(|cause| Box::new(CatalogOutage { cause: *cause, fixture: fixture.clone(), arm }) as Box<dyn Outage>)
        .collect())
}

impl CatalogOutage {
    async fn writer(&self, access: Access) -> Result<Box<dyn CommitSink>, SinkError> {
        self.fixture.writer(self.arm, WriterOptions::default().with_access(access)).await
    }
}

#[async_trait]
impl Outage for CatalogOutage {
    fn name(&self) -> &'static str {
        match self.cause {
            Cause::UnreachableFile => "unreachable catalog file",
            Cause::Locked => "catalog file locked",
            Cause::ServerDown => "server down",
            Cause::WrongCatalogCredential => "wrong catalog credential",
            Cause::WrongStorageCredential => "wrong storage credential",
        }
    }

    fn expects(&self, err: &SinkError) -> bool {
        match self.cause {
            Cause::WrongStorageCredential => matches!(err, SinkError::Storage(_)),
            _ => matches!(err, SinkError::CatalogUnavailable(_)),
        }
    }

    async fn commit_through(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<OutageOutcome, SinkError> {
        let commit = |sink: Box<dyn CommitSink>, batch: RecordBatch| async move { sink.commit(app, epoch, batch).await };
        match self.cause {
            Cause::UnreachableFile => {
                let dir = self.fixture.catalog.dir.join("no-such-dir").join("deeper");
                let during = IcebergCatalog::new(CatalogKind::Sqlite, dir).open().await.map(|_| CommitOutcome::Committed);
                let after = commit(self.writer(Access::default()).await?, batch).await;
                Ok(OutageOutcome { during, after })
            }
            Cause::Locked => {
                let file = self.fixture.catalog.sqlite_file().expect("a sqlite catalog has a file");
                let sink = self.writer(Access::default()).await?;
                let lock = SqliteLock::take(&file).await?;
                let during = sink.commit(app, epoch, batch.clone()).await;
                lock.release().await?;
                let after = sink.commit(app, epoch, batch).await;
                Ok(OutageOutcome { during, after })
            }
            Cause::ServerDown => {
                let server = self.fixture.catalog.uri().ok_or_else(|| SinkError::CatalogUnavailable("no server".into()))?;
                let proxy = FaultProxy::start(&server).await.map_err(|e| SinkError::CatalogUnavailable(e.to_string()))?;
                let sink = self.writer(Access { uri: Some(proxy.url()), ..Access::default() }).await?;
                proxy.stop();
                let during = sink.commit(app, epoch, batch.clone()).await;
                proxy.restart().await.map_err(|e| SinkError::CatalogUnavailable(e.to_string()))?;
                let after = sink.commit(app, epoch, batch).await;
                Ok(OutageOutcome { during, after })
            }
            Cause::WrongCatalogCredential | Cause::WrongStorageCredential => {
                let key = S3Server::from_env()?.access_key;
                let access = match self.cause {
                    Cause::WrongCatalogCredential => Access { catalog_credential: Some(format!("{key}:wrong")), ..Access::default() },
                    _ => Access { storage_secret: Some("wrong".into()), ..Access::default() },
                };
                let during = commit(self.writer(access).await?, batch.clone()).await;
                let after = commit(self.writer(Access::default()).await?, batch).await;
                Ok(OutageOutcome { during, after })
            }
        }
    }
}

/// Another process's write lock on a SQLite catalog file (`BEGIN EXCLUSIVE`), which blocks
/// every reader and writer of the catalog until released.
struct SqliteLock(sqlx::SqliteConnection);

impl SqliteLock {
    async fn take(file: &std::path::Path) -> Result<Self, SinkError> {
        use sqlx::Connection;
        let unavailable = |e: sqlx::Error| SinkError::CatalogUnavailable(e.to_string());
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
            .await
            .map_err(unavailable)?;
        sqlx::query("BEGIN EXCLUSIVE").execute(&mut conn).await.map_err(unavailable)?;
        Ok(Self(conn))
    }

    async fn release(mut self) -> Result<(), SinkError> {
        sqlx::query("ROLLBACK")
            .execute(&mut self.0)
            .await
            .map(|_| ())
            .map_err(|e| SinkError::CatalogUnavailable(e.to_string()))
    }
}

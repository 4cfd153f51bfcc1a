//! [`PeerSink`]: a peer process behind the [`CommitSink`] trait, driven over JSON lines
//! (`docs/peer-protocol.md`).

use std::sync::{Arc, Mutex as SyncMutex};

use arrow_array::RecordBatch;
use async_trait::async_trait;
use barrier_sink::{AppId, CommitOutcome, CommitSink, Epoch, Hooks, SinkError};
use serde::Deserialize;
use tokio::sync::Mutex;

use super::PeerSpec;
use super::process::{Line, Process, ipc_hex, protocol};
use crate::location::TableLocation;
use crate::outcome::Told;

/// Idle peer processes, of every peer, kept across fixtures: a Python process takes about a
/// second to import its library, a JVM several to start and load Iceberg Java, which every
/// writer of every trial should not pay each (the contention probe alone opens 80 writers). A
/// process that [reopens](Process::reopens) serves any fixture's table once sent `open`; one that
/// does not (a user's command that never said it does) only the table it was started on. A
/// process holds no state between requests but its catalog connection: every request loads the
/// table afresh.
static IDLE: SyncMutex<Vec<Process>> = SyncMutex::new(Vec::new());

/// Stops every idle peer process and removes its scratch directory; a binary that ran peers
/// calls it before it exits (a static is never dropped, and an exit would leave the JVMs'
/// temporary files behind).
pub fn stop_idle() {
    let idle = std::mem::take(&mut *IDLE.lock().expect("pool lock"));
    drop(idle);
}

/// The writers of one fixture's table, which a peer's processes serve.
pub struct Pool {
    peer: &'static PeerSpec,
    location: TableLocation,
}

impl Pool {
    pub fn new(peer: &'static PeerSpec, location: TableLocation) -> Arc<Self> {
        Arc::new(Self { peer, location })
    }

    /// A writer reporting to `hooks`, on an idle process or a new one.
    pub async fn writer(self: &Arc<Self>, hooks: Hooks) -> Result<PeerSink, SinkError> {
        let process = serving(self.peer, &self.location).await?;
        Ok(PeerSink { process: Mutex::new(Some(process)), hooks })
    }

    /// A writer on a table that does not exist, next to this one.
    pub async fn writer_on_missing_table(&self) -> Result<PeerSink, SinkError> {
        let mut missing = self.location.clone();
        match &mut missing {
            TableLocation::Delta { table_path } => *table_path = table_path.with_file_name("no_such_table"),
            TableLocation::Iceberg { table, .. } => *table = "no_such_table".into(),
        }
        let process = serving(self.peer, &missing).await?;
        Ok(PeerSink { process: Mutex::new(Some(process)), hooks: Hooks::default() })
    }
}

/// A process of `peer` serving the table at `location`: an idle one already there, else an idle
/// one that reopens, sent `open` (a process that fails to is dropped), else a new one.
async fn serving(peer: &'static PeerSpec, location: &TableLocation) -> Result<Process, SinkError> {
    let taken = {
        let mut idle = IDLE.lock().expect("pool lock");
        let at = |p: &Process| p.peer == peer.name && p.location == *location;
        let fits = |p: &Process| p.peer == peer.name && p.reopens;
        idle.iter().position(at).or_else(|| idle.iter().position(fits)).map(|i| idle.swap_remove(i))
    };
    if let Some(mut process) = taken
        && (process.location == *location || process.reopen(location).await.is_ok())
    {
        return Ok(process);
    }
    Process::spawn(peer, location).await
}

/// A peer as a [`CommitSink`]. Its `check-passed` and `swap-reached` events are passed to the
/// hooks, which may hold it there; the peer waits for the answer. Its process goes back to the
/// idle ones when it is dropped.
pub struct PeerSink {
    /// `None` once a request was abandoned half-way: the process is then not reusable.
    process: Mutex<Option<Process>>,
    hooks: Hooks,
}

impl Drop for PeerSink {
    fn drop(&mut self) {
        if let Some(process) = self.process.get_mut().take() {
            IDLE.lock().expect("pool lock").push(process);
        }
    }
}

impl PeerSink {
    /// Sends `request` and answers the peer's events until its reply.
    async fn request(&self, request: serde_json::Value) -> Result<serde_json::Value, SinkError> {
        let mut slot = self.process.lock().await;
        // Taken while the request runs: if this future is dropped half-way, the process (killed
        // on drop) goes with it instead of back to the pool.
        let mut process = slot.take().ok_or_else(|| SinkError::Peer("its process was lost".into()))?;
        process.send(&request).await?;
        let reply = loop {
            match process.next().await? {
                Line::Event(event) => {
                    match event.as_str() {
                        "check-passed" => self.hooks.epoch_check_passed().await,
                        "swap-reached" => self.hooks.swap_reached().await,
                        other => return Err(SinkError::Peer(format!("unknown event {other}").into())),
                    }
                    process.send(&serde_json::json!({ "go": true })).await?;
                }
                Line::Ok(value) => break Ok(value),
                Line::Error(error) => break Err(error.into_sink_error()),
                Line::Ready { .. } => return Err(SinkError::Peer("it said ready twice".into())),
            }
        };
        *slot = Some(process);
        reply
    }
}

#[async_trait]
impl CommitSink for PeerSink {
    async fn committed_epoch(&self, app: &AppId) -> Result<Option<Epoch>, SinkError> {
        let value = self.request(serde_json::json!({ "op": "committed_epoch", "app": app.as_str() })).await?;
        let stored: Option<i64> = serde_json::from_value(value).map_err(protocol)?;
        stored.map(Epoch::from_stored).transpose()
    }

    async fn commit(&self, app: &AppId, epoch: Epoch, batch: RecordBatch) -> Result<CommitOutcome, SinkError> {
        let request = serde_json::json!({
            "op": "commit",
            "app": app.as_str(),
            "epoch": epoch.get(),
            "batch": ipc_hex(&batch)?,
        });
        let answer: Answer = serde_json::from_value(self.request(request).await?).map_err(protocol)?;
        match answer.told {
            Told::Committed => {
                self.hooks.committed();
                Ok(CommitOutcome::Committed)
            }
            Told::AlreadyCommitted { committed } => {
                Ok(CommitOutcome::AlreadyCommitted { committed: Epoch::new(committed)? })
            }
            Told::Error { kind } => Err(SinkError::Peer(format!("it answered an error {kind} as a result").into())),
        }
    }

    /// Counted by the peer's own library from the table's current version (pyiceberg: the
    /// record counts of the files a scan plans; deltalake: the rows it reads), as the Rust arms
    /// count with theirs.
    async fn row_count(&self) -> Result<u64, SinkError> {
        serde_json::from_value(self.request(serde_json::json!({ "op": "row_count" })).await?).map_err(protocol)
    }
}

/// A commit's answer, in the form stress logs it (`told`; the round trips beside it are
/// stress's, not read here).
#[derive(Deserialize)]
struct Answer {
    #[serde(flatten)]
    told: Told,
}

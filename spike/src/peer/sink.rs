//! [`PeerSink`]: a peer process behind the [`CommitSink`] trait, driven over JSON lines
//! (`interop/peer.py serve`, whose docstring is the protocol).

use std::process::Stdio;
use std::sync::{Arc, Mutex as SyncMutex};

use arrow_array::RecordBatch;
use async_trait::async_trait;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use super::{Peer, SCRIPT, python};
use crate::error::SinkError;
use crate::fixture::TableLocation;
use crate::hooks::Hooks;
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};
use crate::stress::history::Told;

/// How much of a peer's stderr an error quotes.
const STDERR_KEPT: usize = 4000;

/// Ready peer processes on one table, handed to the fixture's writers and taken back when a
/// writer is dropped: a Python process takes about a second to import its library, which the
/// contention probe's 80 writers should not pay each. A process holds no state between
/// requests but its catalog connection: every request loads the table afresh.
pub struct Pool {
    peer: Peer,
    location: TableLocation,
    idle: SyncMutex<Vec<Process>>,
}

impl Pool {
    pub fn new(peer: Peer, location: TableLocation) -> Arc<Self> {
        Arc::new(Self { peer, location, idle: SyncMutex::new(vec![]) })
    }

    /// A writer reporting to `hooks`, on an idle process or a new one.
    pub async fn writer(self: &Arc<Self>, hooks: Hooks) -> Result<PeerSink, SinkError> {
        let idle = self.idle.lock().expect("pool lock").pop();
        let process = match idle {
            Some(process) => process,
            None => Process::spawn(self.peer, &self.location).await?,
        };
        Ok(PeerSink { process: Mutex::new(Some(process)), pool: Some(Arc::clone(self)), hooks })
    }

    /// A writer on a table that does not exist, next to this one.
    pub async fn writer_on_missing_table(&self) -> Result<PeerSink, SinkError> {
        let mut missing = self.location.clone();
        match &mut missing {
            TableLocation::Delta { table_path } => *table_path = table_path.with_file_name("no_such_table"),
            TableLocation::Iceberg { table, .. } => *table = "no_such_table".into(),
        }
        let process = Process::spawn(self.peer, &missing).await?;
        Ok(PeerSink { process: Mutex::new(Some(process)), pool: None, hooks: Hooks::default() })
    }
}

/// A peer as a [`CommitSink`]. Its `check-passed` and `swap-reached` events are passed to the
/// hooks, which may hold it there; the peer waits for the answer.
pub struct PeerSink {
    /// `None` once a request was abandoned half-way: the process is then not reusable.
    process: Mutex<Option<Process>>,
    pool: Option<Arc<Pool>>,
    hooks: Hooks,
}

impl Drop for PeerSink {
    fn drop(&mut self) {
        if let (Some(pool), Some(process)) = (&self.pool, self.process.get_mut().take()) {
            pool.idle.lock().expect("pool lock").push(process);
        }
    }
}

impl PeerSink {
    /// Sends `request` and answers the peer's events until its reply.
    async fn request(&self, request: serde_json::Value) -> Result<serde_json::Value, SinkError> {
        let mut slot = self.process.lock().await;
        // Taken while the request runs: if this future is dropped half-way, the process (killed
        // on drop) goes with it instead of back to the pool.
        let mut process = slot.take().ok_or_else(|| SinkError::Corrupt("peer process lost".into()))?;
        process.send(&request).await?;
        let reply = loop {
            match process.next().await? {
                Line::Event(event) => {
                    match event.as_str() {
                        "check-passed" => self.hooks.epoch_check_passed().await,
                        "swap-reached" => self.hooks.swap_reached().await,
                        other => return Err(SinkError::Corrupt(format!("peer event {other}"))),
                    }
                    process.send(&serde_json::json!({ "go": true })).await?;
                }
                Line::Ok(value) => break Ok(value),
                Line::Error(error) => break Err(error.into_sink_error()),
                Line::Ready => return Err(SinkError::Corrupt("peer said ready twice".into())),
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
            Told::Error { kind } => Err(SinkError::Corrupt(format!("peer answered an error {kind} as a result"))),
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

/// One line from the peer.
enum Line {
    Ready,
    /// `check-passed` or `swap-reached`: the peer waits for `go`.
    Event(String),
    /// A request's result (`null` included: no committed epoch).
    Ok(serde_json::Value),
    Error(PeerError),
}

impl Line {
    fn parse(line: &str) -> Result<Self, SinkError> {
        let unexpected = || SinkError::Corrupt(format!("peer line {line:?}"));
        let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).map_err(|_| unexpected())?;
        if let Some(ok) = object.remove("ok") {
            Ok(Line::Ok(ok))
        } else if let Some(error) = object.remove("error") {
            Ok(Line::Error(serde_json::from_value(error).map_err(protocol)?))
        } else if let Some(serde_json::Value::String(event)) = object.remove("event") {
            Ok(Line::Event(event))
        } else if object.get("ready") == Some(&serde_json::Value::Bool(true)) {
            Ok(Line::Ready)
        } else {
            Err(unexpected())
        }
    }
}

/// An error the peer reports, by the [`SinkError`] kind it amounts to.
#[derive(Debug, Deserialize)]
struct PeerError {
    kind: String,
    message: String,
    attempts: Option<usize>,
}

impl PeerError {
    fn into_sink_error(self) -> SinkError {
        let PeerError { kind, message, attempts } = self;
        match kind.as_str() {
            "TableNotFound" => SinkError::TableNotFound(message),
            "SchemaMismatch" => SinkError::SchemaMismatch(message),
            "CatalogUnavailable" => SinkError::CatalogUnavailable(message),
            "OutcomeUnknown" => SinkError::OutcomeUnknown(message),
            "Storage" => SinkError::Storage(message),
            "Conflict" => SinkError::Conflict { attempts: attempts.unwrap_or(0) },
            "Iceberg" => SinkError::Iceberg(message),
            "Delta" => SinkError::Delta(message),
            _ => SinkError::Corrupt(format!("peer error {kind}: {message}")),
        }
    }
}

fn protocol(err: serde_json::Error) -> SinkError {
    SinkError::Corrupt(format!("peer protocol: {err}"))
}

/// The batch as an Arrow IPC stream, hex-encoded: exactly the columns, types and nullability
/// the Rust arms are given, so that a peer's library sees the same batch (and the same
/// mismatch in `schema_mismatch`).
fn ipc_hex(batch: &RecordBatch) -> Result<String, SinkError> {
    let mut bytes = vec![];
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &batch.schema())
        .map_err(|e| SinkError::Corrupt(e.to_string()))?;
    writer.write(batch).and_then(|()| writer.finish()).map_err(|e| SinkError::Corrupt(e.to_string()))?;
    drop(writer);
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// One `peer.py serve` process, ready for requests.
struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    /// What the process wrote on stderr (the end of it), for the error when it dies.
    stderr: Arc<SyncMutex<String>>,
    stderr_reader: tokio::task::JoinHandle<()>,
}

impl Process {
    async fn spawn(peer: Peer, location: &TableLocation) -> Result<Self, SinkError> {
        let python = python().map_err(SinkError::Corrupt)?;
        let location = serde_json::to_string(location).expect("a location serializes");
        let mut child = Command::new(&python)
            .args([SCRIPT, "serve", peer.name(), &location])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| SinkError::Corrupt(format!("{}: {e}", python.display())))?;
        let stderr = Arc::new(SyncMutex::new(String::new()));
        let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
        let collected = Arc::clone(&stderr);
        let stderr_reader = tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let mut text = collected.lock().expect("stderr lock");
                text.push_str(&line);
                text.push('\n');
                // The end is what explains a death; a long-lived process's warnings are not.
                if text.len() > 2 * STDERR_KEPT {
                    let cut = text.len() - STDERR_KEPT;
                    let cut = (cut..text.len()).find(|i| text.is_char_boundary(*i)).unwrap_or(cut);
                    text.drain(..cut);
                }
            }
        });
        let mut process = Self {
            stdin: child.stdin.take().expect("piped"),
            stdout: BufReader::new(child.stdout.take().expect("piped")).lines(),
            child,
            stderr,
            stderr_reader,
        };
        match process.next().await? {
            Line::Ready => Ok(process),
            Line::Error(error) => Err(error.into_sink_error()),
            _ => Err(SinkError::Corrupt("peer did not start with ready".into())),
        }
    }

    async fn send(&mut self, message: &serde_json::Value) -> Result<(), SinkError> {
        let line = format!("{message}\n");
        match self.stdin.write_all(line.as_bytes()).await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.died(e.to_string()).await),
        }
    }

    async fn next(&mut self) -> Result<Line, SinkError> {
        let line = match self.stdout.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => return Err(self.died("end of output".into()).await),
            Err(e) => return Err(self.died(e.to_string()).await),
        };
        Line::parse(&line)
    }

    /// The process stopped talking: its exit status and the end of its stderr.
    async fn died(&mut self, why: String) -> SinkError {
        let status = self.child.wait().await.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        // The reader has the last lines once the pipe closes, which the exit does.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), &mut self.stderr_reader).await;
        let stderr = self.stderr.lock().expect("stderr lock").clone();
        SinkError::Corrupt(format!("peer process ({status}): {why}; its stderr ends:\n{stderr}"))
    }
}

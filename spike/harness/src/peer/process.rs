//! One peer process in `serve` mode and its protocol: JSON lines, a request, the events it asks an
//! answer for, its reply (`docs/peer-protocol.md`).

use std::process::Stdio;
use std::sync::{Arc, Mutex as SyncMutex};

use arrow_array::RecordBatch;
use barrier_sink::{ErrorKind, Located, SinkError};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use super::PeerSpec;
use crate::location::TableLocation;

/// How much of a peer's stderr an error quotes.
const STDERR_KEPT: usize = 4000;

/// One line from the peer.
pub(super) enum Line {
    /// It is up; `reopens`: it serves another table when sent `open`.
    Ready {
        reopens: bool,
    },
    /// `check-passed` or `swap-reached`: the peer waits for `go`.
    Event(String),
    /// A request's result (`null` included: no committed epoch).
    Ok(serde_json::Value),
    Error(PeerError),
}

impl Line {
    fn parse(line: &str) -> Result<Self, SinkError> {
        let unexpected = || SinkError::Peer(format!("unexpected line {line:?}").into());
        let mut object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).map_err(|_| unexpected())?;
        if let Some(ok) = object.remove("ok") {
            Ok(Line::Ok(ok))
        } else if let Some(error) = object.remove("error") {
            Ok(Line::Error(serde_json::from_value(error).map_err(protocol)?))
        } else if let Some(serde_json::Value::String(event)) = object.remove("event") {
            Ok(Line::Event(event))
        } else if object.get("ready") == Some(&serde_json::Value::Bool(true)) {
            Ok(Line::Ready { reopens: object.get("reopens") == Some(&serde_json::Value::Bool(true)) })
        } else {
            Err(unexpected())
        }
    }
}

/// An error the peer reports, by the [`SinkError`] kind it amounts to.
#[derive(Debug, Deserialize)]
pub(super) struct PeerError {
    kind: ErrorKind,
    message: String,
    attempts: Option<usize>,
}

/// The peer's own account of an error, the source of the [`SinkError`] it amounts to.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Reported(String);

impl PeerError {
    pub(super) fn into_sink_error(self) -> SinkError {
        let PeerError { kind, message, attempts } = self;
        let source = Box::new(Reported(message));
        match kind {
            ErrorKind::TableNotFound => SinkError::TableNotFound(source),
            ErrorKind::SchemaMismatch => SinkError::SchemaMismatch(source),
            ErrorKind::CatalogUnavailable => SinkError::CatalogUnavailable(source),
            ErrorKind::OutcomeUnknown => SinkError::OutcomeUnknown(source),
            ErrorKind::Storage => SinkError::Storage(source),
            ErrorKind::Conflict => SinkError::Conflict { attempts: attempts.unwrap_or(0) },
            ErrorKind::Iceberg => SinkError::Iceberg(source),
            ErrorKind::Delta => SinkError::Delta(source),
            other => SinkError::Peer(format!("it reported {other}: {}", source.0).into()),
        }
    }
}

pub(super) fn protocol(err: serde_json::Error) -> SinkError {
    SinkError::Peer(Box::new(err))
}

/// The batch as an Arrow IPC stream, hex-encoded: exactly the columns, types and nullability
/// the Rust arms are given, so that a peer's library sees the same batch (and the same
/// mismatch in `schema_mismatch`).
pub(super) fn ipc_hex(batch: &RecordBatch) -> Result<String, SinkError> {
    let mut bytes = vec![];
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &batch.schema())
        .map_err(|e| SinkError::Peer(Box::new(e)))?;
    writer.write(batch).and_then(|()| writer.finish()).map_err(|e| SinkError::Peer(Box::new(e)))?;
    drop(writer);
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// One peer process in `serve` mode, ready for requests.
pub(super) struct Process {
    /// The peer it serves, and the table it has open.
    pub(super) peer: &'static str,
    pub(super) location: TableLocation,
    /// Whether it serves another table when sent `open` (its `ready` line says).
    pub(super) reopens: bool,
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    /// What the process wrote on stderr (the end of it), for the error when it dies.
    stderr: Arc<SyncMutex<String>>,
    stderr_reader: tokio::task::JoinHandle<()>,
    /// The runtime's temporary files, removed with the process (after `child`, killed on drop).
    _scratch: tempfile::TempDir,
}

impl Process {
    pub(super) async fn spawn(peer: &'static PeerSpec, location: &TableLocation) -> Result<Self, SinkError> {
        let scratch = tempfile::tempdir().map_err(|e| SinkError::Peer(Box::new(e)))?;
        let (program, args) = peer.runtime.command(scratch.path()).map_err(|why| SinkError::Peer(why.into()))?;
        let location_json = serde_json::to_string(location).expect("a location serializes");
        let mut child = Command::new(&program)
            .args(args)
            .args(["serve", peer.name, &location_json])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| SinkError::Peer(Located::boxed(program.display(), e)))?;
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
            peer: peer.name,
            location: location.clone(),
            reopens: false,
            stdin: child.stdin.take().expect("piped"),
            stdout: BufReader::new(child.stdout.take().expect("piped")).lines(),
            child,
            stderr,
            stderr_reader,
            _scratch: scratch,
        };
        match process.next().await? {
            Line::Ready { reopens } => {
                process.reopens = reopens;
                Ok(process)
            }
            Line::Error(error) => Err(error.into_sink_error()),
            _ => Err(SinkError::Peer("it did not start with ready".into())),
        }
    }

    /// Has the process serve the table at `location` instead (it must [reopen](Self::reopens)).
    pub(super) async fn reopen(&mut self, location: &TableLocation) -> Result<(), SinkError> {
        let location_json = serde_json::to_value(location).expect("a location serializes");
        self.send(&serde_json::json!({ "op": "open", "location": location_json })).await?;
        match self.next().await? {
            Line::Ok(serde_json::Value::Null) => {
                self.location = location.clone();
                Ok(())
            }
            Line::Error(error) => Err(error.into_sink_error()),
            _ => Err(SinkError::Peer("it did not answer open with null".into())),
        }
    }

    pub(super) async fn send(&mut self, message: &serde_json::Value) -> Result<(), SinkError> {
        let line = format!("{message}\n");
        match self.stdin.write_all(line.as_bytes()).await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.died(e.to_string()).await),
        }
    }

    pub(super) async fn next(&mut self) -> Result<Line, SinkError> {
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
        SinkError::Peer(format!("it stopped ({status}): {why}; its stderr ends:\n{stderr}").into())
    }
}

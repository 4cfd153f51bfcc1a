//! Peer writer processes in a stress run (`stress --peer NAME`, repeatable): a mixed race of
//! Rust writers of one arm and writers of other implementations on one table, one app.
//!
//! Each peer writer is `interop/peer.py stress-worker` ([`crate::peer`]): the loop of
//! [`super::worker`] in Python (from the table's committed epoch, replayed, each epoch until told
//! committed or already committed, errors backing off), logging the same outcome history
//! ([`super::history::Event`], the batch identity in every row's `payload`) into the same log
//! directory under a writer id after the Rust writers', so that the audit and the outcome check
//! cover it unchanged. The parent SIGKILLs peers like any writer; they have no failpoints.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::worker::MAX_CONSECUTIVE_ERRORS;
use super::{StressOptions, app};
use crate::arms::Target;
use crate::error::SinkError;
use crate::fixture::TableLocation;
use crate::peer::{Peer, SCRIPT, python};
use crate::suite::BATCH_ROWS;

/// Why `peers` cannot race on `target`'s table, if they cannot: a peer must write its format,
/// on a catalog it can reach, with its Python installed.
pub fn unfit(target: Target, peers: &[Peer]) -> Option<String> {
    let iceberg = target.arm.build().is_some();
    for peer in peers {
        if peer.iceberg() != iceberg {
            return Some(format!("{} cannot write {target}'s table (another format)", peer.name()));
        }
        if let Some(catalog) = target.catalog.filter(|c| !peer.catalogs().contains(c)) {
            return Some(format!("{} does not run on {}", peer.name(), catalog.name()));
        }
    }
    if peers.is_empty() { None } else { python().err() }
}

/// The command that starts peer writer `id` on the table at `location`, for a run in `dir`:
/// its events go to `dir/logs`, its stderr to `dir/peer-<id>.stderr`, and it creates
/// `dir/peer-<id>.ready` once its library is imported and its catalog open.
pub fn command(peer: Peer, location: &TableLocation, options: &StressOptions, id: usize, dir: &Path) -> std::io::Result<Command> {
    let python = python().map_err(std::io::Error::other)?;
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(dir.join(format!("peer-{id}.stderr")))?;
    let mut command = Command::new(python);
    command
        .args([SCRIPT, "stress-worker", peer.name()])
        .arg(serde_json::to_string(location).expect("a location serializes"))
        .args(["--app", app().as_str(), "--epochs", &options.epochs.to_string(), "--rows", &BATCH_ROWS.to_string()])
        .args(["--id", &id.to_string(), "--max-errors", &MAX_CONSECUTIVE_ERRORS.to_string(), "--logs"])
        .arg(dir.join("logs"))
        .arg("--ready")
        .arg(ready_file(dir, id))
        .stdout(Stdio::null())
        .stderr(stderr);
    Ok(command)
}

fn ready_file(dir: &Path, id: usize) -> PathBuf {
    dir.join(format!("peer-{id}.ready"))
}

/// Waits until every peer writer of `ids` is ready (a writer killed meanwhile is restarted by
/// the parent's loop, which has not begun yet: the deadline bounds a peer that cannot start).
pub async fn wait_ready(dir: &Path, ids: Range<usize>, deadline: Duration) -> Result<(), SinkError> {
    let started = Instant::now();
    for id in ids {
        while !ready_file(dir, id).exists() {
            if started.elapsed() > deadline {
                let stderr = std::fs::read_to_string(dir.join(format!("peer-{id}.stderr"))).unwrap_or_default();
                return Err(SinkError::Corrupt(format!("peer writer {id} never got ready: {stderr}")));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    Ok(())
}

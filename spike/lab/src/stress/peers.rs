//! Peer writer processes in a stress run (`stress --peer NAME`, repeatable): a mixed race of
//! Rust writers of one arm and writers of other implementations on one table, one app.
//!
//! Each peer writer is its runtime's `stress-worker` mode ([`barrier_harness::peer`],
//! `docs/peer-protocol.md`): the loop of [`super::worker`] in its language (from the table's
//! committed epoch, replayed, each epoch until told
//! committed or already committed, errors backing off), logging the same outcome history
//! ([`super::history::Event`], the batch identity in every row's `payload`) into the same log
//! directory under a writer id after the Rust writers', so that the audit and the outcome check
//! cover it unchanged. The parent SIGKILLs peers like any writer; they have no failpoints. With
//! `turns`, a peer waits for the Rust writers' turn at an epoch as [`super::turns`] says.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use barrier_harness::batch::BATCH_ROWS;
use barrier_harness::location::TableLocation;
use barrier_harness::{Error, Peer, Target};

use super::history;
use super::options::{StressOptions, app};
use super::worker::MAX_CONSECUTIVE_ERRORS;

/// Why `peers` cannot race on `target`'s table, if they cannot: a peer must write its format,
/// on a catalog it can reach, with what runs it installed.
pub fn unfit(target: Target, peers: &[Peer]) -> Option<String> {
    for peer in peers {
        if peer.spec().format != target.format() {
            return Some(format!("{peer} cannot write {target}'s table (another format)"));
        }
        if let Err(why) = Target::peer(peer.spec(), target.catalog()) {
            return Some(why);
        }
    }
    peers.iter().find_map(|peer| peer.spec().runtime.unavailable())
}

/// The command that starts peer writer `id` on the table at `location`, for a run in `dir`:
/// its events go to `dir/logs`, its stderr to `dir/peer-<id>.stderr`; it creates
/// `dir/peer-<id>.ready` once its library is imported and its catalog open, and begins once
/// `dir/peers.start` exists ([`start`]).
pub fn command(
    peer: Peer,
    location: &TableLocation,
    options: &StressOptions,
    id: usize,
    dir: &Path,
) -> std::io::Result<Command> {
    // In the run's directory, so that what a killed process leaves goes with the run.
    let scratch = dir.join(format!("peer-{id}.tmp"));
    std::fs::create_dir_all(&scratch)?;
    let (program, args) = peer.spec().runtime.command(&scratch).map_err(std::io::Error::other)?;
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(dir.join(format!("peer-{id}.stderr")))?;
    let mut command = Command::new(program);
    command
        .args(args)
        .args(["stress-worker", peer.name()])
        .arg(serde_json::to_string(location).expect("a location serializes"))
        .args(["--app", app().as_str(), "--epochs", &options.epochs.to_string(), "--rows", &BATCH_ROWS.to_string()])
        .args(["--id", &id.to_string(), "--max-errors", &MAX_CONSECUTIVE_ERRORS.to_string(), "--logs"])
        .arg(dir.join("logs"))
        .arg("--ready")
        .arg(ready_file(dir, id))
        .arg("--start")
        .arg(dir.join(START))
        .stdout(Stdio::null())
        .stderr(stderr);
    if options.turns {
        command.args(["--turns", &options.writers.to_string(), "--peers", &options.peers.len().to_string()]);
    }
    Ok(command)
}

/// The file that lets the peer writers begin.
const START: &str = "peers.start";

fn ready_file(dir: &Path, id: usize) -> PathBuf {
    dir.join(format!("peer-{id}.ready"))
}

/// Lets the peer writers of the run in `dir` begin, once each of the `rust` writers has logged
/// its first attempt: neither side must have run through the epochs before the other arrives
/// (a Python writer takes a second or more to import its library, a Rust writer of the debug
/// build a few hundred milliseconds to open its table).
pub async fn start(dir: &Path, rust: Range<usize>, deadline: Duration) -> Result<(), Error> {
    let begun = |id: usize| std::fs::metadata(history::log_file(&dir.join("logs"), id)).is_ok_and(|m| m.len() > 0);
    wait_for(rust.into_iter().map(|id| (id, begun)), deadline, "writer never logged an attempt").await?;
    std::fs::write(dir.join(START), "").map_err(Error::io(START))
}

/// Waits until every peer writer of `ids` is ready.
pub async fn wait_ready(dir: &Path, ids: Range<usize>, deadline: Duration) -> Result<(), Error> {
    wait_for(
        ids.map(|id| (id, |id| ready_file(dir, id).exists())),
        deadline,
        "peer writer never got ready (its stderr: peer-<id>.stderr)",
    )
    .await
}

/// Polls each writer's condition until it holds. Nothing is restarted yet (the parent's loop
/// has not begun), so the deadline bounds a writer that cannot start at all.
async fn wait_for(
    writers: impl Iterator<Item = (usize, impl Fn(usize) -> bool)>,
    deadline: Duration,
    never: &str,
) -> Result<(), Error> {
    let started = Instant::now();
    for (id, holds) in writers {
        while !holds(id) {
            if started.elapsed() > deadline {
                return Err(Error::Broken(format!("{never}: writer {id}")));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    Ok(())
}

//! A run's writer processes: started in order (peers first, then the Rust writers, then the
//! peers let go), SIGKILLed at random moments, restarted whenever one dies, until every one has
//! finished or the deadline passes.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use barrier_harness::catalogs::Access;
use barrier_harness::location::TableLocation;
use barrier_harness::rng::XorShift;
use barrier_harness::{Error, Target};

use super::audit::Counted;
use super::faults::ServerFaults;
use super::options::StressOptions;
use super::pauses::Pauses;
use super::peers;
use super::worker::WorkerArgs;

/// The writer processes of one run: ids below `options.writers` are the arm's, the rest peers.
pub(super) struct Writers<'a> {
    target: Target,
    dir: PathBuf,
    exe: PathBuf,
    options: &'a StressOptions,
    access: Access,
    location: TableLocation,
    children: Vec<Option<Child>>,
    rng: XorShift,
    pauses: Pauses,
    paused: usize,
    kills: usize,
    crashes: usize,
    error_exits: usize,
    restarts: usize,
}

impl<'a> Writers<'a> {
    pub(super) fn new(
        target: Target,
        dir: &Path,
        exe: &Path,
        options: &'a StressOptions,
        access: &Access,
        location: TableLocation,
    ) -> Self {
        Self {
            target,
            dir: dir.to_path_buf(),
            exe: exe.to_path_buf(),
            options,
            access: access.clone(),
            location,
            children: (0..options.writers + options.peers.len()).map(|_| None).collect(),
            rng: XorShift::new(options.seed),
            pauses: Pauses::default(),
            paused: 0,
            kills: 0,
            crashes: 0,
            error_exits: 0,
            restarts: 0,
        }
    }

    fn spawn(&mut self, id: usize) -> Result<(), Error> {
        let command = match id.checked_sub(self.options.writers).map(|i| self.options.peers[i]) {
            Some(peer) => peers::command(peer, &self.location, self.options, id, &self.dir),
            None => Ok(WorkerArgs::new(self.target, &self.dir, self.options, &self.access, id).command(&self.exe)),
        };
        let child = command.and_then(|mut command| command.spawn()).map_err(Error::io("spawn writer"))?;
        self.children[id] = Some(child);
        Ok(())
    }

    /// Peers first, the Rust writers once the peers are ready, and the peers begin once the Rust
    /// writers have: a race one side had run through before the other arrived would mix nothing.
    pub(super) async fn start(&mut self) -> Result<(), Error> {
        let peers = self.options.writers..self.children.len();
        for id in peers.clone() {
            self.spawn(id)?;
        }
        peers::wait_ready(&self.dir, peers, self.options.deadline).await?;
        for id in 0..self.options.writers {
            self.spawn(id)?;
        }
        peers::start(&self.dir, 0..self.options.writers, self.options.deadline).await
    }

    /// Until every writer has finished or the deadline passes: reaps and restarts the writers
    /// that died, SIGKILLs one at random moments, and lets the server faults strike. Returns
    /// whether every writer finished; kills what still runs at the deadline.
    pub(super) async fn supervise(
        &mut self,
        started: Instant,
        mut server: Option<&mut ServerFaults>,
    ) -> Result<bool, Error> {
        let max_restarts = self.children.len() * (self.options.epochs as usize + self.options.kills + 4)
            + self.options.server_kills * self.children.len() * 4;
        // From now, not from the start: waiting for peers to get ready must not bring the first
        // kill forward.
        let mut next_kill = started.elapsed() + self.pause();
        let mut next_pause = started.elapsed() + self.pause();
        while self.children.iter().any(Option::is_some) && started.elapsed() < self.options.deadline {
            self.reap(max_restarts)?;
            if self.kills < self.options.kills && started.elapsed() >= next_kill {
                self.kill_one()?;
                next_kill = started.elapsed() + self.pause();
            }
            if self.paused < self.options.pauses && started.elapsed() >= next_pause {
                self.pause_one();
                next_pause = started.elapsed() + self.pause() * 10;
            }
            let pids: Vec<u32> = self.children.iter().flatten().map(Child::id).collect();
            self.pauses.tend(pids.into_iter(), &mut self.rng);
            if let Some(server) = server.as_deref_mut() {
                server.maybe_kill(started.elapsed(), &mut self.rng).await?;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let finished = self.children.iter().all(Option::is_none);
        for child in self.children.iter_mut().flatten() {
            let _ = child.kill();
            let _ = child.wait();
        }
        Ok(finished)
    }

    /// A random wait before the next kill (ten of them before the next pause).
    fn pause(&mut self) -> Duration {
        Duration::from_millis(20 + self.rng.below(150))
    }

    /// Reaps every writer that exited, and restarts those that failed while restarts are left.
    fn reap(&mut self, max_restarts: usize) -> Result<(), Error> {
        for id in 0..self.children.len() {
            let Some(child) = self.children[id].as_mut() else { continue };
            let Some(status) = child.try_wait().map_err(Error::io("wait"))? else { continue };
            self.children[id] = None;
            if status.success() {
                continue;
            }
            // A failpoint aborts (a signal); a writer that gave up on errors exits with a code.
            if status.signal().is_some() {
                self.crashes += 1;
            } else {
                self.error_exits += 1;
            }
            if self.restarts < max_restarts {
                self.restarts += 1;
                self.spawn(id)?;
            }
        }
        Ok(())
    }

    /// SIGKILLs a running writer at random (no destructor, no flush, mid-step wherever it is)
    /// and restarts it. One that already exited is reaped (and counted) by [`Writers::reap`].
    fn kill_one(&mut self) -> Result<(), Error> {
        let running: Vec<usize> = (0..self.children.len()).filter(|i| self.children[*i].is_some()).collect();
        if running.is_empty() {
            return Ok(());
        }
        let victim = running[self.rng.below(running.len() as u64) as usize];
        let Some(child) = self.children[victim].as_mut() else { return Ok(()) };
        if !matches!(child.try_wait(), Ok(None)) {
            return Ok(());
        }
        let _ = child.kill();
        let _ = child.wait();
        // Counted as a kill, not a crash: crashes are the deaths the writer caused itself.
        self.kills += 1;
        self.restarts += 1;
        self.spawn(victim)
    }

    /// SIGSTOPs a running writer at random; [`Pauses`] resumes it.
    fn pause_one(&mut self) {
        let running: Vec<u32> = self.children.iter().flatten().map(Child::id).collect();
        if let Some(&pid) = running.get(self.rng.below(running.len() as u64) as usize) {
            self.pauses.stop(pid, &mut self.rng);
            self.paused += 1;
        }
    }

    /// What the parent counted of its writers.
    pub(super) fn counted(&self) -> Counted {
        Counted {
            kills: self.kills,
            crashes: self.crashes,
            error_exits: self.error_exits,
            restarts: self.restarts,
            pauses: self.paused,
            ..Counted::default()
        }
    }
}

//! Paused writers: processes stopped with SIGSTOP for 0.2 to 5 s while the others commit, then
//! resumed: what a writer holding a table it read before the pause meets when it wakes. The parent
//! stops writers at random moments; a writer can stop itself right after its epoch check (its
//! hooks), noting it in its pause log; the parent resumes every stopped writer.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use barrier_harness::rng::XorShift;

/// Writer `id`'s log of the pauses it put itself in, one line each.
pub fn log_file(logs: &Path, id: usize) -> PathBuf {
    logs.join(format!("pauses-{id}.txt"))
}

/// The pauses every writer's log records: the writers' own, each right after a check.
pub fn after_check(logs: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(logs) else { return 0 };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("pauses-"))
        .map(|e| std::fs::read_to_string(e.path()).map_or(0, |text| text.lines().count()))
        .sum()
}

/// Stops this process until a SIGCONT.
pub fn stop_self() {
    // SAFETY: raise(3) with a valid signal number has no memory-safety preconditions.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}

/// Sends `signal` to process `pid`.
fn signal(pid: u32, signal: libc::c_int) {
    // SAFETY: kill(2) with a valid signal number has no memory-safety preconditions; a pid that
    // has exited meanwhile makes it fail with ESRCH, which is harmless here.
    unsafe {
        libc::kill(pid as libc::pid_t, signal);
    }
}

/// Whether process `pid` is stopped (`T` in `/proc/<pid>/stat`).
fn stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit_once(')').map(|(_, rest)| rest.trim_start().starts_with('T')))
        .unwrap_or(false)
}

/// The writers a run has stopped, and when to resume each.
#[derive(Default)]
pub struct Pauses {
    resume_at: Vec<(u32, Instant)>,
}

impl Pauses {
    /// How long a pause lasts: 0.2 to 5 s.
    fn length(rng: &mut XorShift) -> Duration {
        Duration::from_millis(200 + rng.below(4800))
    }

    /// Stops writer process `pid`, to be resumed later.
    pub fn stop(&mut self, pid: u32, rng: &mut XorShift) {
        signal(pid, libc::SIGSTOP);
        self.resume_at.push((pid, Instant::now() + Self::length(rng)));
    }

    /// Schedules the resumption of every writer of `pids` that stopped itself, and resumes
    /// every writer whose pause is over.
    pub fn tend(&mut self, pids: impl Iterator<Item = u32>, rng: &mut XorShift) {
        for pid in pids {
            if !self.resume_at.iter().any(|(p, _)| *p == pid) && stopped(pid) {
                self.resume_at.push((pid, Instant::now() + Self::length(rng)));
            }
        }
        let now = Instant::now();
        self.resume_at.retain(|(pid, at)| {
            let over = *at <= now;
            if over {
                signal(*pid, libc::SIGCONT);
            }
            !over
        });
    }
}

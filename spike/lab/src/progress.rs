//! Progress of a long run, on stderr only (never mixed into stdout, `--json` or `--markdown`): a
//! bar with the elapsed and remaining time when stderr is a terminal, and one short line per
//! finished step otherwise, so that CI logs stay greppable.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    started: Instant,
}

impl Progress {
    /// A run of `total` steps (or units of work), named `what`.
    pub fn new(what: &str, total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} ~{eta} left  {msg}")
                    .expect("a valid template"),
            );
            bar.set_prefix(what.to_string());
            bar
        });
        Self { bar, total, done: 0, started: Instant::now() }
    }

    /// Says what runs now (the bar's message; nothing in a log, where the finished line says it).
    pub fn begin(&self, step: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(step.to_string());
        }
    }

    /// Counts `units` done and reports the step that did them: above the bar in a terminal,
    /// as one line with the time taken and left otherwise.
    pub fn finish(&mut self, units: u64, line: &str) {
        let counted = units.min(self.total - self.done);
        self.done += counted;
        match &self.bar {
            Some(bar) => {
                bar.inc(counted);
                bar.println(line);
            }
            None => {
                let elapsed = self.started.elapsed();
                let left = elapsed.mul_f64((self.total - self.done) as f64 / self.done.max(1) as f64);
                eprintln!(
                    "[{:>w$}/{}] {line} ({} elapsed, ~{} left)",
                    self.done,
                    self.total,
                    clock(elapsed),
                    clock(left),
                    w = self.total.to_string().len()
                );
            }
        }
    }

    pub fn done(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `1m05s`: minutes and seconds.
pub fn clock(d: Duration) -> String {
    format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
}

//! One writer process of a stress run.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::history::{self, Event, Told};
use super::turns::{self, Side};
use super::{StressOptions, app};
use crate::arms::Target;
use crate::batch::{batch, unix_millis};
use crate::catalogs::Access;
use crate::error::SinkError;
use crate::fixture::{Fixture, WriterOptions};
use crate::hooks::CallCounts;
use crate::hooks::failpoints::{STORAGE_ERROR, STORAGE_PARTIAL};
use crate::sink::{CommitOutcome, Epoch};
use crate::suite::BATCH_ROWS;

/// Errors in a row after which a writer gives up and exits (the parent restarts it): longer
/// than any server outage a run injects, so that only a writer that cannot make progress at all
/// ends this way.
pub(super) const MAX_CONSECUTIVE_ERRORS: usize = 300;

/// How a worker reaches the catalog, beyond what its target says.
#[derive(Clone, Debug, Default)]
pub struct Route {
    /// The fault proxy in front of the catalog server.
    pub catalog_uri: Option<String>,
    pub timeout: Option<Duration>,
}

/// Arms the failpoints, then commits every epoch from the table's committed one (replayed) to
/// the last, logging each attempt before it offers the batch and once it has the answer (with
/// `turns`, after waiting for the peers' turn at the epoch, [`turns`]). Returns when every epoch
/// is in the table.
///
/// Each writer also dies the first time it passes each failpoint (its crash log says which it
/// already died at): every epoch's winning attempt passes all of them, so every step of a commit
/// kills a real process in every run that commits anything, whatever the dice do. Likewise, with
/// storage faults, each writer process's first table-file write fails until the writer's log
/// records an answer `Storage`: every run that writes anything injects one, whatever the dice do.
pub async fn worker(target: Target, dir: &Path, options: &StressOptions, route: &Route, id: usize) -> Result<(), SinkError> {
    // A failpoint's panic must kill the process where it stands, like a crash does; it first
    // notes where, so that the audit can show every step was really reached.
    let crash_log = dir.join("logs").join(format!("crashes-{id}.txt"));
    let hook_log = crash_log.clone();
    std::panic::set_hook(Box::new(move |info| {
        let at = info.payload().downcast_ref::<String>().cloned().unwrap_or_else(|| "panic".into());
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&hook_log)
            .and_then(|mut log| writeln!(log, "{at}"));
        std::process::abort()
    }));
    let crashed = std::fs::read_to_string(&crash_log).unwrap_or_default();
    let percent = |rate: f64| (rate * 100.0).clamp(0.0, 100.0);
    for point in target.failpoints() {
        let random = format!("{}%panic({point})", percent(options.fault_rate));
        let once = !crashed.lines().any(|l| l == *point);
        let action = if once { format!("1*panic({point})->{random}") } else { random };
        fail::cfg(*point, &action).map_err(SinkError::Corrupt)?;
    }
    // A quarter of the injected storage failures leave half a file behind.
    let log_path = history::log_file(&dir.join("logs"), id);
    if target.catalog.is_some() && options.storage_fault_rate > 0.0 {
        fail::cfg(STORAGE_PARTIAL, &format!("{}%return", percent(options.storage_fault_rate / 4.0)))
            .map_err(SinkError::Corrupt)?;
        let random = format!("{}%return", percent(options.storage_fault_rate * 3.0 / 4.0));
        let told = std::fs::read_to_string(&log_path).unwrap_or_default();
        let once = !history::events(&told).any(|e| matches!(e.told, Some(Told::Error { kind }) if kind == "Storage"));
        let action = if once { format!("1*return->{random}") } else { random };
        fail::cfg(STORAGE_ERROR, &action).map_err(SinkError::Corrupt)?;
    }
    let fixture = Fixture::open(target, dir);
    let counts = Arc::new(CallCounts::default());
    let access = Access { uri: route.catalog_uri.clone(), timeout: route.timeout, ..Access::default() };
    let sink = fixture
        .writer_with(WriterOptions::counting(Arc::clone(&counts)).with_access(access))
        .await?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| SinkError::Corrupt(e.to_string()))?;
    let app = app();
    let mut errors = Errors::default();
    let mut next = loop {
        match sink.committed_epoch(&app).await {
            Ok(committed) => break committed.map_or(1, |e| e.get() as u64),
            Err(err) => errors.wait(err).await?,
        }
    };
    let pid = std::process::id();
    let mut attempt = 0;
    while next <= options.epochs {
        if options.turns {
            turns::wait(&dir.join("logs"), options.writers, Side::Rust, next).await;
        }
        attempt += 1;
        let mut event = Event {
            writer: id,
            app: app.to_string(),
            epoch: next,
            batch: format!("w{id}-p{pid}-e{next}-a{attempt}"),
            at_ms: unix_millis(),
            told: None,
            loads: 0,
            updates: 0,
        };
        append(&mut log, &event)?;
        let rows = batch(next as i64 * 1000, BATCH_ROWS, &event.batch);
        let result = sink.commit(&app, Epoch::new(next)?, rows).await;
        (event.loads, event.updates) = counts.take();
        (event.at_ms, event.told) = (unix_millis(), Some(Told::of(&result)));
        append(&mut log, &event)?;
        match result {
            Ok(CommitOutcome::Committed | CommitOutcome::AlreadyCommitted { .. }) => {
                next += 1;
                errors = Errors::default();
            }
            Err(err) => errors.wait(err).await?,
        }
    }
    Ok(())
}

fn append(log: &mut std::fs::File, event: &Event) -> Result<(), SinkError> {
    let line = serde_json::to_string(event).expect("serializes");
    // One write per line, unbuffered: a kill leaves whole lines, or a cut last one.
    writeln!(log, "{line}").map_err(|e| SinkError::Corrupt(e.to_string()))
}

/// Consecutive errors, and the pause before trying again: long enough for a server that was
/// killed to come back, short enough not to idle.
#[derive(Default)]
struct Errors(usize);

impl Errors {
    async fn wait(&mut self, err: SinkError) -> Result<(), SinkError> {
        self.0 += 1;
        if self.0 > MAX_CONSECUTIVE_ERRORS {
            return Err(err);
        }
        tokio::time::sleep(Duration::from_millis(20 * self.0.min(10) as u64)).await;
        Ok(())
    }
}

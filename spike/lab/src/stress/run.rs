//! One stress run: the table, the faults from outside, the writers, then the audit.

use std::path::Path;
use std::time::Instant;

use barrier_harness::catalogs::Access;
use barrier_harness::{Error, Fixture, Target};

use super::audit::{self, Audit};
use super::faults::{ServerFaults, proxy_for};
use super::options::{PROXIED_TIMEOUT, StressOptions};
use super::peers;
use super::supervise::Writers;

/// Runs `target` under `options` in `dir`, spawning workers from the executable `exe`.
pub async fn run(target: Target, dir: &Path, exe: &Path, options: &StressOptions) -> Result<Audit, Error> {
    let started = Instant::now();
    if target.arm().is_none() {
        return Err(Error::Broken(format!("{target}: stress races an arm's writers, which peers join with --peer")));
    }
    if let Some(why) = peers::unfit(target, &options.peers) {
        return Err(Error::Broken(format!("--peer: {why}")));
    }
    let fixture = Fixture::create(target, dir).await?;
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(Error::io("logs"))?;
    let proxy = proxy_for(target, options).await?;
    let access = Access {
        uri: proxy.as_ref().map(|p| p.url()),
        timeout: proxy.as_ref().map(|_| PROXIED_TIMEOUT),
        ..Access::default()
    };
    let mut server = ServerFaults::for_target(target, options)?;
    let mut writers = Writers::new(target, dir, exe, options, &access, fixture.location().await?);
    writers.start().await?;
    let finished = writers.supervise(started, server.as_mut()).await?;
    let mut counted = writers.counted();
    counted.server_restarts = server.as_ref().map_or(0, ServerFaults::restarts);
    counted.proxy_faults = proxy.map(|p| p.applied().into_iter().collect()).unwrap_or_default();
    let mut audit = audit::read(&fixture, &logs, options, finished, counted).await?;
    audit.counted.seconds = started.elapsed().as_secs_f64();
    Ok(audit)
}

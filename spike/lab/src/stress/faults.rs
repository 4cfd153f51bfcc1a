//! The faults a stress run's parent injects from outside the writers: the catalog server killed
//! with SIGKILL and brought back, and the fault proxy between the writers and a REST server.

use std::time::Duration;

use barrier_harness::proxy::{Fault, FaultProxy};
use barrier_harness::rng::XorShift;
use barrier_harness::{CatalogKind, Error, Target};

use super::options::StressOptions;

/// The proxy's faults a stress run draws from, for every writer: answers lost after the server
/// applied the commit (with its `Idempotency-Key` answer stored or not), answers delayed past the
/// writer's timeout, commits refused unforwarded. To a writer that sends no key,
/// `UnrecordedAfterForward` is `ResetAfterForward`, so its resets are drawn twice as often. Not
/// `DeliveredTwice`: a writer whose client sends no key is told its own first delivery
/// conflicted, and a guarded arm then answers `AlreadyCommitted` for a batch that is its own, an
/// answer the outcome check could not tell from a wrong one (`lost_response` asserts it instead).
pub const PROXY_FAULTS: [Fault; 5] = [
    Fault::ResetAfterForward,
    Fault::GatewayTimeoutAfterForward,
    Fault::ForwardAfterWriterGaveUp,
    Fault::RefuseUnforwarded,
    Fault::UnrecordedAfterForward,
];

/// The fault proxy in front of `target`'s catalog server, applying [`PROXY_FAULTS`] at random,
/// when the run asks for proxy faults and the catalog is one the proxy can sit in front of.
pub async fn proxy_for(target: Target, options: &StressOptions) -> Result<Option<FaultProxy>, Error> {
    let Some(catalog) = target.catalog() else { return Ok(None) };
    if options.proxy_fault_rate <= 0.0 || !catalog.speaks_rest() {
        return Ok(None);
    }
    let url = catalog.server_url().ok_or_else(|| Error::Broken(format!("{catalog}'s server is not running")))?;
    let proxy = FaultProxy::start(&url).await.map_err(Error::io("fault proxy"))?;
    proxy.at_random(options.proxy_fault_rate, &PROXY_FAULTS, options.seed);
    Ok(Some(proxy))
}

/// Kills the catalog server with SIGKILL and brings it back, `kills` times at random moments of
/// a run, through the script that started it (`<script> kill`, `<script> resume`).
pub struct ServerFaults {
    control: String,
    kills: usize,
    restarts: usize,
    next: Duration,
}

impl ServerFaults {
    /// `None` when the run asks for no server faults, or the target's catalog has no server.
    pub fn for_target(target: Target, options: &StressOptions) -> Result<Option<Self>, Error> {
        let Some(server) = target.catalog().and_then(CatalogKind::server) else { return Ok(None) };
        if options.server_kills == 0 {
            return Ok(None);
        }
        let control = std::env::var(server.control).map_err(|_| {
            Error::Broken(format!("{} is not set (scripts/{} start exports it)", server.control, server.script))
        })?;
        Ok(Some(Self { control, kills: options.server_kills, restarts: 0, next: Duration::from_millis(500) }))
    }

    /// Kills and resumes the server if its next moment has come: down for 0.2 to 1.2 s.
    pub async fn maybe_kill(&mut self, elapsed: Duration, rng: &mut XorShift) -> Result<(), Error> {
        if self.restarts >= self.kills || elapsed < self.next {
            return Ok(());
        }
        self.control("kill").await?;
        tokio::time::sleep(Duration::from_millis(200 + rng.below(1000))).await;
        self.control("resume").await?;
        self.restarts += 1;
        self.next = elapsed + Duration::from_millis(1000 + rng.below(3000));
        Ok(())
    }

    /// How often the server was killed and brought back.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    async fn control(&self, verb: &'static str) -> Result<(), Error> {
        let what = format!("{} {verb}", self.control);
        let status = tokio::process::Command::new(&self.control)
            .arg(verb)
            .stdout(std::process::Stdio::null())
            .status()
            .await
            .map_err(Error::io(what.clone()))?;
        if status.success() { Ok(()) } else { Err(Error::Broken(format!("{what}: {status}"))) }
    }
}

//! What a plain writer is told, and what the table holds, when the answer to its REST commit is
//! lost and its client resends the commit with its `Idempotency-Key` (`patches/rest/`): one trial
//! per REST server, build, duplicate-file check (on, as the library defaults it; off, as Arroyo and
//! Moonlink run it) and fault, `<catalog>::<build>::<check>::<fault>`.
//!
//! The writer has no epoch check of its own (`Unguarded`: the library's own fast append and
//! `Transaction::commit`), so nothing but the client and the library decides what it is told. Two
//! faults of the proxy, each on the writer's one commit:
//! - `unrecorded-after-forward`: the server applies the commit but stores no answer for its key,
//!   so the resend executes as a new request and its 409 reports the writer's own commit. Read as
//!   a conflict, the library would rebase the append onto that commit: refused by the
//!   duplicate-file check ("already referenced") with the check on, so a writer whose commit
//!   landed would be told it failed; appended a second time with the check off.
//! - `forward-after-timeout`: the held request and the resend race in the server, the case the
//!   first fault makes deterministic; the held request's status is printed.
//!
//! Either way the writer must be told `Committed` or `OutcomeUnknown` (an error that says the
//! commit state is unknown, which a caller resolves by reading the table), and the table must
//! hold the commit exactly once. A writer that resends must have sent at least two commit
//! requests, and one that sends no key (the stock client, or a server that advertises none)
//! exactly one, whose lost answer is `OutcomeUnknown`.

#[path = "common/cli.rs"]
mod cli;

use std::process::ExitCode;
use std::time::Duration;

use barrier_harness::CatalogKind;
use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::catalogs::{Access, Place};
use barrier_harness::proxy::{Fault, FaultProxy};
use barrier_iceberg::{Build, Strategy, Table, patched, stock, stock_011};
use barrier_sink::{AppId, CommitOutcome, Epoch, Hooks, SinkError};
use libtest_mimic::Trial;

/// The writer's HTTP timeout: short, because `forward-after-timeout` waits it out.
const TIMEOUT: Duration = Duration::from_secs(3);

const FAULTS: [Fault; 2] = [Fault::UnrecordedAfterForward, Fault::ForwardAfterWriterGaveUp];

fn main() -> ExitCode {
    let mut trials = vec![];
    for kind in CatalogKind::ALL.iter().copied().filter(|kind| kind.speaks_rest()) {
        for build in [Build::Stock, Build::Patched] {
            for check_duplicate in [true, false] {
                for fault in FAULTS {
                    trials.push(trial(kind, build, check_duplicate, fault));
                }
            }
        }
    }
    libtest_mimic::run(&cli::arguments(), trials).exit_code()
}

/// The plain writer on `build`, with the duplicate-file check on or off.
fn unguarded(build: Build, check_duplicate: bool) -> Strategy {
    match (build, check_duplicate) {
        (Build::Stock, true) => Strategy::Stock(&stock::Unguarded { check_duplicate: true }),
        (Build::Stock, false) => Strategy::Stock(&stock::Unguarded { check_duplicate: false }),
        (Build::Patched, true) => Strategy::Patched(&patched::Unguarded { check_duplicate: true }),
        (Build::Patched, false) => Strategy::Patched(&patched::Unguarded { check_duplicate: false }),
        (Build::Stock011, true) => Strategy::Stock011(&stock_011::Unguarded { check_duplicate: true }),
        (Build::Stock011, false) => Strategy::Stock011(&stock_011::Unguarded { check_duplicate: false }),
    }
}

fn trial(kind: CatalogKind, build: Build, check_duplicate: bool, fault: Fault) -> Trial {
    let check = if check_duplicate { "check-on" } else { "check-off" };
    let name = format!("{kind}::{}::{check}::{}", build.name(), fault.name());
    Trial::test(name.clone(), move || {
        if let Some(why) = kind.unavailable() {
            println!("SKIPPED {name}: {why}");
            return Ok(());
        }
        cli::runtime().block_on(async {
            let Sent { told, commits, server, requests } = commit_through(kind, build, check_duplicate, fault).await?;
            let keyed = kind.resends_with_idempotency_key(build);
            println!(
                "{name}: key {}, {requests} commit requests, server {server}, writer told {told}, commits {commits}",
                if keyed { "resent" } else { "none" }
            );
            let told_ok = told == "Committed" || told.starts_with("OutcomeUnknown");
            let requests_ok = if keyed { requests >= 2 } else { requests == 1 };
            if !told_ok || commits != 1 || !requests_ok {
                let want = if keyed { "at least 2" } else { "1" };
                return Err(format!(
                    "{name}: told {told}, {commits} commits, {requests} commit requests; \
                     want Committed or OutcomeUnknown, 1 commit, {want} requests"
                )
                .into());
            }
            Ok(())
        })
    })
}

/// What one commit through the fault proxy came to.
struct Sent {
    /// What the writer was told.
    told: String,
    /// Commits of the epoch the table holds.
    commits: usize,
    /// The server's statuses for the request the fault held or forwarded.
    server: String,
    /// Commit requests the proxy received: the first and any resends.
    requests: usize,
}

/// Commits one batch through the fault proxy with `fault` on its commit request.
async fn commit_through(kind: CatalogKind, build: Build, check_duplicate: bool, fault: Fault) -> Result<Sent, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let place = Place::fresh(kind, dir.path()).map_err(|e| e.to_string())?;
    let server = kind.server_url().ok_or("no server")?;
    let proxy = FaultProxy::start(&server).await.map_err(|e| format!("fault proxy: {e}"))?;
    let direct = place.connection(&Access::default()).map_err(|e| e.to_string())?;
    let access = Access { uri: Some(proxy.url()), timeout: Some(TIMEOUT), ..Access::default() };
    let proxied = place.connection(&access).map_err(|e| e.to_string())?;
    let namespace = place.namespace();
    let table = Table::create(build, &direct, &namespace, "t").await.map_err(|e| e.to_string())?;
    let writer = Table::open(build, &proxied, &namespace, "t")
        .await
        .and_then(|t| t.writer(unguarded(build, check_duplicate), Hooks::default(), None))
        .map_err(|e| e.to_string())?;
    let app = AppId::new("plain").map_err(|e| e.to_string())?;
    let one = Epoch::new(1).map_err(|e| e.to_string())?;
    proxy.inject(fault);
    let told = writer.commit(&app, one, batch(0, BATCH_ROWS, fault.name())).await;
    let report = proxy.fired().await.map_err(|e| e.to_string())?;
    let commits = table.epoch_history(&app).await.map_err(|e| e.to_string())?.len();
    let statuses: Vec<String> = report.server_status.iter().map(u16::to_string).collect();
    let told = match told {
        Ok(CommitOutcome::Committed) => "Committed".to_string(),
        Ok(other) => format!("{other:?}"),
        Err(err @ SinkError::OutcomeUnknown(_)) => format!("OutcomeUnknown ({err})"),
        Err(err) => format!("{:?} ({err})", err.kind()),
    };
    let server = if statuses.is_empty() { "never saw it".into() } else { statuses.join("+") };
    Ok(Sent { told, commits, server, requests: proxy.commits() })
}

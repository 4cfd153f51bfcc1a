//! `stress`: many writer processes per arm, killed and crashed at random, replaying overlapping
//! epochs of one app against one table (Iceberg on a shared catalog, Delta on the local file
//! system), with the catalog server, the network and the storage failing on request; then an
//! audit and a check of every answer the writers were given against the table. Exits non-zero
//! when an arm that claims exactly-once duplicates an epoch, any arm loses one or gave a writer an
//! answer the table contradicts, the writers did not finish in time, or some step of a commit
//! never killed a writer.
//!
//! ```text
//! stress [--writers 8] [--epochs 30] [--kills 12] [--fault-rate 0.03] [--seconds 300]
//!        [--storage-faults P] [--server-kills N] [--proxy-faults P] [--attempts N]
//!        [--seed N] [--arm NAME]... [--peer NAME]... [--turns] [--catalog sqlite|postgres|rest]
//!        [--keep DIR] [--json]
//! ```
//!
//! `--catalog postgres` puts every Iceberg arm on the PostgreSQL server at
//! `$BARRIER_POSTGRES_URL` (scripts/postgres starts one on loopback); `--catalog rest` on the
//! REST catalog at `$BARRIER_REST_URL`, data on its S3 endpoint (scripts/seaweedfs).
//! `--attempts N` makes a soak: rounds on fresh tables until N attempts per arm, one JSON line per
//! round in `DIR/<arm>/soak.jsonl` (DIR from `--keep`, else a temporary directory).
//! `--peer NAME` (repeatable: one process each) adds a writer of another implementation to
//! every arm's race (`pyiceberg-naive`, `pyiceberg-owned-loop` on Iceberg arms; `deltalake-python`
//! on `delta`): a mixed race on one table, one app (`spike::stress`, `spike::peer`). `--turns`
//! makes the two sides take turns at trying epochs first, every third epoch a free race, so that
//! neither side's speed decides whether the race mixes (`spike/src/stress/turns.rs`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use spike::peer::Peer;
use spike::progress::Progress;
use spike::stress::{self, Route, StressOptions};
use spike::{Arm, CatalogKind};

const USAGE: &str = "usage: stress [--writers N] [--epochs N] [--kills N] [--fault-rate P] [--seconds N]
              [--storage-faults P] [--server-kills N] [--proxy-faults P] [--attempts N]
              [--seed N] [--arm NAME]... [--peer NAME]... [--turns] [--catalog sqlite|postgres|rest]
              [--keep DIR] [--json]";

fn arm_named(name: &str) -> Result<Arm, String> {
    spike::arms::arm_named(name).ok_or_else(|| format!("unknown arm {name}"))
}

fn catalog_named(name: &str) -> Result<CatalogKind, String> {
    match CatalogKind::named(name) {
        Some(kind) if kind.profile().shared => Ok(kind),
        _ => Err(format!("--catalog {name}: sqlite, postgres or rest (memory is one process's)")),
    }
}

fn value<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, flag: &str) -> Result<T, String> {
    let raw = args.next().ok_or(format!("{flag} needs a value"))?;
    raw.parse().map_err(|_| format!("{flag} {raw}: not valid"))
}

fn defaults() -> StressOptions {
    StressOptions {
        writers: 8,
        epochs: 30,
        kills: 12,
        fault_rate: 0.03,
        storage_fault_rate: 0.0,
        server_kills: 0,
        proxy_fault_rate: 0.0,
        deadline: Duration::from_secs(300),
        seed: 0x5eed,
        peers: vec![],
        turns: false,
    }
}

async fn worker(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let (mut arm, mut dir, mut id) = (None, None, 0);
    let mut options = defaults();
    let mut catalog = CatalogKind::Sqlite;
    let mut route = Route::default();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--arm" => arm = Some(arm_named(&value::<String>(&mut args, "--arm")?)?),
            "--catalog" => catalog = catalog_named(&value::<String>(&mut args, "--catalog")?)?,
            "--dir" => dir = Some(PathBuf::from(value::<String>(&mut args, "--dir")?)),
            "--epochs" => options.epochs = value(&mut args, "--epochs")?,
            "--fault-rate" => options.fault_rate = value(&mut args, "--fault-rate")?,
            "--storage-faults" => options.storage_fault_rate = value(&mut args, "--storage-faults")?,
            "--catalog-uri" => route.catalog_uri = Some(value(&mut args, "--catalog-uri")?),
            "--timeout-ms" => route.timeout = Some(Duration::from_millis(value(&mut args, "--timeout-ms")?)),
            "--id" => id = value(&mut args, "--id")?,
            "--turns" => options.turns = true,
            "--writers" => options.writers = value(&mut args, "--writers")?,
            other => return Err(format!("worker: unknown argument {other}")),
        }
    }
    let (arm, dir) = (arm.ok_or("worker needs --arm")?, dir.ok_or("worker needs --dir")?);
    stress::worker(stress::target(arm, catalog), &dir, &options, &route, id)
        .await
        .map_err(|e| e.to_string())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("worker") {
        args.next();
        return match worker(args).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(3)
            }
        };
    }
    let mut options = defaults();
    let (mut arms, mut keep, mut json, mut soak) = (vec![], None, false, None);
    let mut catalog = CatalogKind::Sqlite;
    let parsed: Result<(), String> = (|| {
        while let Some(flag) = args.next() {
            match flag.as_str() {
                "--writers" => options.writers = value(&mut args, "--writers")?,
                "--epochs" => options.epochs = value(&mut args, "--epochs")?,
                "--kills" => options.kills = value(&mut args, "--kills")?,
                "--fault-rate" => options.fault_rate = value(&mut args, "--fault-rate")?,
                "--storage-faults" => options.storage_fault_rate = value(&mut args, "--storage-faults")?,
                "--server-kills" => options.server_kills = value(&mut args, "--server-kills")?,
                "--proxy-faults" => options.proxy_fault_rate = value(&mut args, "--proxy-faults")?,
                "--attempts" => soak = Some(value::<usize>(&mut args, "--attempts")?),
                "--seconds" => options.deadline = Duration::from_secs(value(&mut args, "--seconds")?),
                "--seed" => options.seed = value(&mut args, "--seed")?,
                "--arm" => arms.push(arm_named(&value::<String>(&mut args, "--arm")?)?),
                "--peer" => {
                    let name = value::<String>(&mut args, "--peer")?;
                    options.peers.push(Peer::named(&name).ok_or(format!("unknown peer {name}"))?);
                }
                "--turns" => options.turns = true,
                "--catalog" => catalog = catalog_named(&value::<String>(&mut args, "--catalog")?)?,
                "--keep" => {
                    // Absolute, because both formats turn table paths into `file:` URLs.
                    let dir = PathBuf::from(value::<String>(&mut args, "--keep")?);
                    std::fs::create_dir_all(&dir).map_err(|e| format!("--keep {}: {e}", dir.display()))?;
                    keep = Some(dir.canonicalize().map_err(|e| format!("--keep {}: {e}", dir.display()))?);
                }
                "--json" => json = true,
                _ => return Err(format!("unknown argument {flag}\n{USAGE}")),
            }
        }
        if let Some(why) = catalog.unavailable() {
            return Err(format!("--catalog {}: {why}", catalog.name()));
        }
        Ok(())
    })();
    if let Err(message) = parsed {
        eprintln!("{message}");
        return ExitCode::from(2);
    }
    if arms.is_empty() {
        arms = Arm::ALL.to_vec();
    }
    let exe = std::env::current_exe().expect("own executable");
    let scratch = tempfile::tempdir().expect("temp dir");
    let root = keep.unwrap_or_else(|| scratch.path().to_path_buf());
    let per_arm = soak.map_or(1, |attempts| attempts as u64);
    let mut progress = Progress::new("stress", arms.len() as u64 * per_arm);
    let mut audits = vec![];
    for arm in arms {
        let target = stress::target(arm, catalog);
        let dir = root.join(target.to_string().replace('/', "-"));
        progress.begin(&format!("{target}: {} writers, epochs 1..={}", options.writers, options.epochs));
        let audit = match soak {
            Some(attempts) => stress::soak(target, &dir, &exe, &options, attempts, &mut progress).await,
            None => stress::run(target, &dir, &exe, &options).await,
        };
        match audit {
            Ok(audit) => {
                let verdict = if audit.as_expected() { "as expected" } else { "UNEXPECTED" };
                // A soak has counted its rounds already; the arm's line closes it.
                let units = if soak.is_some() { 0 } else { 1 };
                progress.finish(units, &format!("stress: {target}: {}: {verdict}", audit.summary()));
                for violation in audit.outcomes.violations.iter().take(20) {
                    progress.finish(0, &format!("stress: {target}: violation: {violation}"));
                }
                audits.push(audit);
            }
            Err(err) => {
                progress.done();
                eprintln!("stress: {target}: error: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    progress.done();
    if json {
        println!("{}", serde_json::to_string_pretty(&audits).expect("serializes"));
    }
    if audits.iter().all(stress::Audit::as_expected) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

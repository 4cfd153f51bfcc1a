//! `stress`: many writer processes per arm, killed and crashed at random, replaying overlapping
//! epochs of one app against one table (Iceberg on a SQLite catalog, Delta on the local
//! filesystem); then an audit. Exits non-zero when an arm that claims exactly-once duplicates an
//! epoch, any arm loses one, the writers did not finish in time, or some step of a commit never
//! killed a writer.
//!
//! ```text
//! stress [--writers 8] [--epochs 30] [--kills 12] [--fault-rate 0.03] [--seconds 300]
//!        [--seed N] [--arm NAME]... [--catalog sqlite|postgres|rest] [--keep DIR] [--json]
//! ```
//!
//! `--catalog postgres` puts every Iceberg arm on the PostgreSQL server at
//! `$BARRIER_POSTGRES_URL` (scripts/postgres starts one on loopback); `--catalog rest` on the
//! REST catalog at `$BARRIER_REST_URL`, data on its S3 endpoint (scripts/seaweedfs).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use spike::{Arm, CatalogKind};
use spike::stress::{self, StressOptions};

const USAGE: &str = "usage: stress [--writers N] [--epochs N] [--kills N] [--fault-rate P] [--seconds N]
              [--seed N] [--arm NAME]... [--catalog sqlite|postgres|rest] [--keep DIR] [--json]";

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

async fn worker(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let (mut arm, mut dir, mut epochs, mut rate, mut id) = (None, None, 0, 0.0, 0);
    let mut catalog = CatalogKind::Sqlite;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--arm" => arm = Some(arm_named(&value::<String>(&mut args, "--arm")?)?),
            "--catalog" => catalog = catalog_named(&value::<String>(&mut args, "--catalog")?)?,
            "--dir" => dir = Some(PathBuf::from(value::<String>(&mut args, "--dir")?)),
            "--epochs" => epochs = value(&mut args, "--epochs")?,
            "--fault-rate" => rate = value(&mut args, "--fault-rate")?,
            "--id" => id = value(&mut args, "--id")?,
            other => return Err(format!("worker: unknown argument {other}")),
        }
    }
    let (arm, dir) = (arm.ok_or("worker needs --arm")?, dir.ok_or("worker needs --dir")?);
    stress::worker(stress::target(arm, catalog), &dir, epochs, rate, id)
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
    let mut options = StressOptions {
        writers: 8,
        epochs: 30,
        kills: 12,
        fault_rate: 0.03,
        deadline: Duration::from_secs(300),
        seed: 0x5eed,
    };
    let (mut arms, mut keep, mut json) = (vec![], None, false);
    let mut catalog = CatalogKind::Sqlite;
    let parsed: Result<(), String> = (|| {
        while let Some(flag) = args.next() {
            match flag.as_str() {
                "--writers" => options.writers = value(&mut args, "--writers")?,
                "--epochs" => options.epochs = value(&mut args, "--epochs")?,
                "--kills" => options.kills = value(&mut args, "--kills")?,
                "--fault-rate" => options.fault_rate = value(&mut args, "--fault-rate")?,
                "--seconds" => options.deadline = Duration::from_secs(value(&mut args, "--seconds")?),
                "--seed" => options.seed = value(&mut args, "--seed")?,
                "--arm" => arms.push(arm_named(&value::<String>(&mut args, "--arm")?)?),
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
    let mut audits = vec![];
    for arm in arms {
        let target = stress::target(arm, catalog);
        let label = target.to_string();
        eprintln!("stress: {label}: {} writers, epochs 1..={}", options.writers, options.epochs);
        match stress::run(target, &root.join(label.replace('/', "-")), &exe, &options).await {
            Ok(audit) => {
                eprintln!(
                    "stress: {label}: {} attempts, {} lost swaps, {} kills, {} crashes ({}), {} duplicates ({:.1} per 1000 attempts), {} lost, rows {}/{}, left behind: {}: {}",
                    audit.attempts,
                    audit.lost_swaps,
                    audit.kills,
                    audit.crashes,
                    audit.crashes_at.iter().map(|(at, n)| format!("{at} {n}")).collect::<Vec<_>>().join(", "),
                    audit.duplicates,
                    audit.duplicates_per_thousand_attempts,
                    audit.lost_epochs.len(),
                    audit.rows,
                    audit.rows_expected,
                    spike::leftovers::summary(&audit.left_behind),
                    if audit.as_expected() { "as expected" } else { "UNEXPECTED" },
                );
                audits.push(audit);
            }
            Err(err) => {
                eprintln!("stress: {label}: error: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&audits).expect("serializes"));
    }
    if audits.iter().all(stress::Audit::as_expected) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

//! `stress`: many writer processes per arm, killed and crashed at random, replaying overlapping
//! epochs of one app against one table (Iceberg on a shared catalog, Delta on the local file
//! system), with the catalog server, the network and the storage failing on request; then an
//! audit and a check of every answer the writers were given against the table. Exits non-zero
//! when an arm that claims exactly-once duplicates an epoch, any arm loses one or gave a writer an
//! answer the table contradicts, the writers did not finish in time, or some step of a commit
//! never killed a writer.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use barrier_harness::{Arm, CatalogKind, Peer, Target};
use barrier_lab::progress::Progress;
use barrier_lab::stress::{self, StressOptions, WorkerArgs, parse_arm, parse_catalog};
use clap::{Parser, Subcommand};

/// Many writer processes per arm on one table each, killed and crashed at random, with faults
/// on request; then every answer a writer was given checked against the table.
#[derive(Parser)]
#[command(name = "stress", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// One writer process of a run (the parent starts it).
    #[command(hide = true)]
    Worker(WorkerArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    /// Writer processes of the arm.
    #[arg(long, default_value_t = 8)]
    writers: usize,
    /// Epochs every writer walks up to.
    #[arg(long, default_value_t = 30)]
    epochs: u64,
    /// SIGKILLs, in all, at random moments.
    #[arg(long, default_value_t = 12)]
    kills: usize,
    /// Probability that a writer aborts at each failpoint it passes.
    #[arg(long, value_name = "P", default_value_t = 0.03)]
    fault_rate: f64,
    /// Deadline of each run.
    #[arg(long, value_name = "N", default_value_t = 300)]
    seconds: u64,
    /// Probability that a write of a table file fails (Iceberg; a quarter leave half the file).
    #[arg(long = "storage-faults", value_name = "P", default_value_t = 0.0)]
    storage_fault_rate: f64,
    /// Times the catalog server is killed with SIGKILL and brought back (postgres, rest).
    #[arg(long, value_name = "N", default_value_t = 0)]
    server_kills: usize,
    /// Probability that the fault proxy applies a fault to a commit request (rest).
    #[arg(long = "proxy-faults", value_name = "P", default_value_t = 0.0)]
    proxy_fault_rate: f64,
    /// SIGSTOPs, in all, at random moments; each writer is resumed 0.2 to 5 s later.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pauses: usize,
    /// Probability that a writer stops itself right after its epoch check passes (resumed 0.2
    /// to 5 s later): a paused writer between its check and its swap.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pause_after_check: f64,
    /// Every attempt at an epoch offers the same rows, as a source that replays deterministically
    /// does (by default each attempt offers a batch of its own, so that the outcome check can tell
    /// whose batch the table holds).
    #[arg(long)]
    same_batches: bool,
    /// A soak: rounds on fresh tables until N attempts per arm, one JSON line per round in
    /// DIR/<arm>/soak.jsonl (DIR from --keep, else a temporary directory).
    #[arg(long, value_name = "N")]
    attempts: Option<usize>,
    #[arg(long, default_value_t = 0x5eed)]
    seed: u64,
    /// An arm to run (repeatable; default: every arm of the suite). `iceberg-naive@patched` is
    /// the patched build's naive arm.
    #[arg(long = "arm", value_name = "NAME", value_parser = parse_arm)]
    arms: Vec<Arm>,
    /// A writer of another implementation in every arm's race (repeatable, one process each):
    /// pyiceberg-naive, pyiceberg-owned-loop, java-iceberg-validator, java-iceberg-naive,
    /// go-iceberg-assert-ref, go-iceberg-naive on Iceberg arms; deltalake-python on delta.
    #[arg(long = "peer", value_name = "NAME", value_parser = parse_peer)]
    peers: Vec<Peer>,
    /// With peers: the two sides take turns at trying epochs first, every third epoch a free
    /// race, so that neither side's speed decides whether the race mixes.
    #[arg(long)]
    turns: bool,
    /// The catalog of the Iceberg arms: one several processes share.
    #[arg(long, value_parser = parse_catalog, default_value = "sqlite")]
    catalog: CatalogKind,
    /// Keep every table and log under DIR.
    #[arg(long, value_name = "DIR", value_parser = absolute_dir)]
    keep: Option<PathBuf>,
    /// Print the audits as JSON on stdout.
    #[arg(long)]
    json: bool,
}

fn parse_peer(name: &str) -> Result<Peer, String> {
    Peer::named(name).ok_or_else(|| {
        let names: Vec<&str> = Peer::ALL.iter().map(|p| p.name()).collect();
        format!("unknown peer {name} (one of {})", names.join(", "))
    })
}

/// Created if missing and made absolute, because both formats turn table paths into `file:` URLs.
fn absolute_dir(dir: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
    PathBuf::from(dir).canonicalize().map_err(|e| format!("{dir}: {e}"))
}

impl RunArgs {
    fn options(&self) -> StressOptions {
        StressOptions {
            writers: self.writers,
            epochs: self.epochs,
            kills: self.kills,
            fault_rate: self.fault_rate,
            storage_fault_rate: self.storage_fault_rate,
            server_kills: self.server_kills,
            proxy_fault_rate: self.proxy_fault_rate,
            deadline: Duration::from_secs(self.seconds),
            seed: self.seed,
            peers: self.peers.clone(),
            turns: self.turns,
            pauses: self.pauses,
            pause_after_check: self.pause_after_check,
            same_batches: self.same_batches,
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Worker(worker)) = cli.command {
        return match stress::worker(&worker).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{}", e.report());
                ExitCode::from(3)
            }
        };
    }
    let args = cli.run;
    if let Some(why) = args.catalog.unavailable() {
        eprintln!("--catalog {}: {why}", args.catalog);
        return ExitCode::from(2);
    }
    let options = args.options();
    // By default every arm of the suite whose build reaches the catalog (0.11.0's has only memory).
    let reaches = |arm: &Arm| !Target::on(*arm, &[args.catalog]).is_empty();
    let arms: Vec<Arm> = if args.arms.is_empty() { Arm::suite().filter(reaches).collect() } else { args.arms.clone() };
    if let Some(arm) = arms.iter().find(|arm| !reaches(arm)) {
        eprintln!("--arm {}: its build has no {} catalog", arm.label(), args.catalog);
        return ExitCode::from(2);
    }
    let exe = std::env::current_exe().expect("own executable");
    let scratch = tempfile::tempdir().expect("temp dir");
    let root = args.keep.clone().unwrap_or_else(|| scratch.path().to_path_buf());
    let per_arm = args.attempts.map_or(1, |attempts| attempts as u64);
    let mut progress = Progress::new("stress", arms.len() as u64 * per_arm);
    let mut audits = vec![];
    for arm in arms {
        let target = Target::with_catalog(arm, args.catalog);
        let dir = root.join(target.slug());
        progress.begin(&format!("{target}: {} writers, epochs 1..={}", options.writers, options.epochs));
        let audit = match args.attempts {
            Some(attempts) => stress::soak(target, &dir, &exe, &options, attempts, &mut progress).await,
            None => stress::run(target, &dir, &exe, &options).await,
        };
        match audit {
            Ok(audit) => {
                let verdict = if audit.as_expected() { "as expected" } else { "UNEXPECTED" };
                // A soak has counted its rounds already; the arm's line closes it.
                let units = if args.attempts.is_some() { 0 } else { 1 };
                progress.finish(units, &format!("stress: {target}: {}: {verdict}", audit.summary()));
                for violation in audit.outcomes.violations.iter().take(20) {
                    progress.finish(0, &format!("stress: {target}: violation: {violation}"));
                }
                audits.push(audit);
            }
            Err(err) => {
                progress.done();
                eprintln!("stress: {target}: error: {}", err.report());
                return ExitCode::FAILURE;
            }
        }
    }
    progress.done();
    if args.json {
        let json: Vec<serde_json::Value> = audits.iter().map(stress::Audit::to_json).collect();
        println!("{}", serde_json::to_string_pretty(&json).expect("serializes"));
    }
    if audits.iter().all(stress::Audit::as_expected) { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

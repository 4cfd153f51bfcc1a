//! `verdict`: builds fresh tables on the embedded defaults (in-process and SQLite catalogs, local
//! filesystem), runs every scenario for every arm and catalog, prints the matrix, and exits
//! non-zero when an arm deviates from its recorded expectation. Then decides the kill list from
//! what it observed (`barrier_lab::killlist`) and prints it; `--check FINDINGS.md` also exits
//! non-zero when the table FINDINGS.md carries is not the one this run decided. `--peer` judges a
//! peer (this project's, or a user's command speaking `docs/peer-protocol.md`) in the same matrix:
//! held to its claim like an arm, outside the kill list.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use barrier_harness::suite::PROBE_ROUNDS;
use barrier_harness::{Arm, CatalogKind, Peer, PeerSpec};
use barrier_lab::killlist;
use barrier_lab::progress::Progress;
use barrier_lab::verdict::{self, Options};
use clap::Parser;

/// Runs every scenario on every arm and catalog on fresh tables, prints the matrix and the kill
/// list decided from it, and exits non-zero if any arm deviates from its recorded expectation.
#[derive(Parser)]
#[command(name = "verdict")]
struct Cli {
    /// Print the matrix as JSON on stdout (progress still goes to stderr).
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print only the kill-list table, as FINDINGS.md carries it.
    #[arg(long)]
    markdown: bool,
    /// Fail if the kill-list table in FILE differs from this run's.
    #[arg(long, value_name = "FILE", value_parser = readable)]
    check: Option<PathBuf>,
    /// Leave every table under DIR (which must be empty) and write DIR/manifest.json.
    #[arg(long, value_name = "DIR", value_parser = empty_dir)]
    keep: Option<PathBuf>,
    /// Rounds of contention_probe per arm and catalog.
    #[arg(long, value_name = "N", default_value_t = PROBE_ROUNDS)]
    rounds: usize,
    /// Run the Iceberg arms on catalog C (repeatable; default: the embedded ones, memory and
    /// sqlite; postgres and rest need their server running: scripts/postgres, scripts/seaweedfs).
    #[arg(long = "catalog", value_name = "C", value_parser = available_catalog)]
    catalogs: Vec<CatalogKind>,
    /// Also judge a peer (repeatable): NAME, one of this project's, or NAME=COMMAND, a user's
    /// Iceberg sink that claims exactly-once, whose COMMAND (run by `sh -c`, given `serve NAME
    /// LOCATION`) speaks docs/peer-protocol.md. It runs on the catalogs given that it reaches:
    /// sqlite by default.
    #[arg(long = "peer", value_name = "NAME[=COMMAND]", value_parser = peer)]
    peers: Vec<&'static PeerSpec>,
    /// Run the peers alone: no arms, so no kill list.
    #[arg(long, requires = "peers", conflicts_with_all = ["markdown", "check"])]
    only_peers: bool,
    /// Run nothing: read the matrix a test run saved in DIR ($BARRIER_RESULTS: every cell of the
    /// catalogs asked for must be there), then print and check it as if it had just run. The test
    /// command's kill-list check, which runs each cell once, in the suite's own trials.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["keep", "peers", "only_peers"])]
    from: Option<PathBuf>,
    /// With --from: write every saved cell that kept its table to FILE, as --keep's manifest.json
    /// (what scripts/interop reads).
    #[arg(long, value_name = "FILE", requires = "from")]
    manifest: Option<PathBuf>,
}

fn peer(arg: &str) -> Result<&'static PeerSpec, String> {
    let spec = match arg.split_once('=') {
        None => Peer::named(arg).map(Peer::spec).ok_or_else(|| {
            let names: Vec<&str> = Peer::ALL.iter().map(|p| p.name()).collect();
            format!("unknown peer {arg} (one of {}, or NAME=COMMAND)", names.join(", "))
        })?,
        Some((name, command)) => {
            let taken = Peer::named(name).is_some() || Arm::all().any(|arm| arm.name() == name);
            if name.is_empty() || name.contains(['/', ' ']) || taken {
                return Err(format!("{name:?}: a peer's name must be new, with no space or slash"));
            }
            if command.trim().is_empty() {
                return Err(format!("{name}: no command"));
            }
            PeerSpec::user(name, command)
        }
    };
    match spec.runtime.unavailable() {
        Some(why) => Err(why),
        None => Ok(spec),
    }
}

/// Read up front: a wrong path should not cost a whole run.
fn readable(file: &str) -> Result<PathBuf, String> {
    std::fs::read_to_string(file).map(|_| PathBuf::from(file)).map_err(|e| format!("{file}: {e}"))
}

/// Created if missing, made absolute (both formats turn table paths into `file:` URLs), and
/// required to be empty.
fn empty_dir(dir: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
    let dir = PathBuf::from(dir).canonicalize().map_err(|e| format!("{dir}: {e}"))?;
    if std::fs::read_dir(&dir).map_err(|e| e.to_string())?.next().is_some() {
        return Err(format!("{}: directory is not empty", dir.display()));
    }
    Ok(dir)
}

fn available_catalog(name: &str) -> Result<CatalogKind, String> {
    let kind = CatalogKind::named(name).ok_or_else(|| {
        let names: Vec<&str> = CatalogKind::ALL.iter().map(|c| c.name()).collect();
        format!("unknown catalog {name} (one of {})", names.join(", "))
    })?;
    match kind.unavailable() {
        Some(why) => Err(why),
        None => Ok(kind),
    }
}

/// The matrix of `catalogs` a test run saved in `dir`, and (`manifest`) every saved table listed.
fn saved(dir: &Path, catalogs: &[CatalogKind], manifest: Option<&Path>) -> Result<verdict::Report, String> {
    if let Some(file) = manifest {
        let every = verdict::saved(dir, None)?;
        verdict::write_manifest(&every, file).map_err(|e| format!("{}: {e}", file.display()))?;
        eprintln!("verdict: {} saved tables listed in {}", every.cells.len(), file.display());
    }
    let report = verdict::saved(dir, Some(catalogs))?;
    eprintln!("verdict: {} cells read from {}", report.cells.len(), dir.display());
    Ok(report)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let catalogs = if cli.catalogs.is_empty() { CatalogKind::embedded() } else { cli.catalogs };
    let options =
        Options { keep: cli.keep, probe_rounds: cli.rounds, catalogs, arms: !cli.only_peers, peers: cli.peers };
    let report = match &cli.from {
        Some(dir) => saved(dir, &options.catalogs, cli.manifest.as_deref()),
        None => {
            let mut progress = Progress::new("verdict", verdict::cells(&options));
            let report = verdict::run(&options, &mut progress).await;
            progress.done();
            barrier_harness::peer::stop_idle();
            report.map_err(|e| e.to_string())
        }
    };
    let report = match report {
        Ok(report) => report,
        Err(err) => {
            eprintln!("verdict: {err}");
            return ExitCode::from(2);
        }
    };
    if cli.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("report serializes"));
    } else if cli.markdown {
        print!("{}", killlist::render(&report));
    } else if !options.arms {
        println!("\n{}", verdict::render(&report));
    } else {
        println!(
            "\n{}\nThe kill list, decided from this run:\n\n{}",
            verdict::render(&report),
            killlist::render(&report)
        );
    }
    let mut failed = false;
    if let Some(file) = &cli.check {
        let drift = match std::fs::read_to_string(file) {
            Ok(findings) => killlist::drift(&findings, &report),
            Err(err) => Some(format!("{}: {err}", file.display())),
        };
        match drift {
            None => eprintln!("verdict: the kill-list table in {} matches this run", file.display()),
            Some(why) => {
                eprintln!("verdict --check {}: {why}", file.display());
                eprintln!("(regenerate it with `verdict --markdown` if the change is intended)");
                failed = true;
            }
        }
    }
    if let Some(keep) = &options.keep {
        eprintln!("tables and manifest.json left under {}", keep.display());
    }
    if !report.as_expected() {
        eprintln!("verdict: at least one arm deviated from its recorded expectation");
        failed = true;
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

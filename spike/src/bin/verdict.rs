//! `verdict`: builds fresh tables on the embedded defaults (in-process and SQLite catalogs, local
//! filesystem), runs every scenario for every arm and catalog, prints the matrix, and exits
//! non-zero when an arm deviates from its recorded expectation.
//!
//! ```text
//! verdict [--json] [--keep DIR] [--rounds N]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use spike::suite::PROBE_ROUNDS;
use spike::verdict::{self, Options};

const USAGE: &str = "usage: verdict [--json] [--keep DIR] [--rounds N]
  --json       print the matrix as JSON on stdout (progress still goes to stderr)
  --keep DIR   leave every table under DIR and write DIR/manifest.json
  --rounds N   rounds of contention_probe per arm and catalog (default 40)";

fn parse() -> Result<(Options, bool), String> {
    let mut options = Options {
        keep: None,
        probe_rounds: PROBE_ROUNDS,
    };
    let mut json = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--keep" => {
                let dir = PathBuf::from(args.next().ok_or("--keep needs a directory")?);
                std::fs::create_dir_all(&dir).map_err(|e| format!("--keep {}: {e}", dir.display()))?;
                let dir = dir.canonicalize().map_err(|e| format!("--keep {}: {e}", dir.display()))?;
                if std::fs::read_dir(&dir).map_err(|e| e.to_string())?.next().is_some() {
                    return Err(format!("--keep {}: directory is not empty", dir.display()));
                }
                options.keep = Some(dir);
            }
            "--rounds" => {
                let n = args.next().ok_or("--rounds needs a number")?;
                options.probe_rounds = n.parse().map_err(|_| format!("--rounds {n}: not a number"))?;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok((options, json))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let (options, json) = match parse() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let report = match verdict::run(&options, &mut std::io::stderr()).await {
        Ok(report) => report,
        Err(err) => {
            eprintln!("verdict: {err}");
            return ExitCode::from(2);
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).expect("report serializes"));
    } else {
        println!("\n{}", verdict::render(&report));
    }
    if let Some(keep) = &options.keep {
        eprintln!("tables and manifest.json left under {}", keep.display());
    }
    if report.as_expected() {
        ExitCode::SUCCESS
    } else {
        eprintln!("verdict: at least one arm deviated from its recorded expectation");
        ExitCode::FAILURE
    }
}

//! `verdict`: builds fresh tables on the embedded defaults (in-process and SQLite catalogs, local
//! filesystem), runs every scenario for every arm and catalog, prints the matrix, and exits
//! non-zero when an arm deviates from its recorded expectation. Then decides the kill list from
//! what it observed (`spike::killlist`) and prints it; `--check FINDINGS.md` also exits non-zero
//! when the table FINDINGS.md carries is not the one this run decided.
//!
//! ```text
//! verdict [--json | --markdown] [--check FILE] [--keep DIR] [--rounds N] [--catalog NAME]...
//! ```
//!
//! `--catalog` (repeatable) puts the Iceberg arms on other catalogs than the embedded defaults
//! (`memory`, `sqlite`); `rest` and `postgres` need their server running (`scripts/seaweedfs`,
//! `scripts/postgres`).

use std::path::PathBuf;
use std::process::ExitCode;

use spike::progress::Progress;
use spike::{CatalogKind, killlist};
use spike::suite::PROBE_ROUNDS;
use spike::verdict::{self, Options};

const USAGE: &str = "usage: verdict [--json | --markdown] [--check FILE] [--keep DIR] [--rounds N] [--catalog NAME]...
  --json       print the matrix as JSON on stdout (progress still goes to stderr)
  --markdown   print only the kill-list table, as FINDINGS.md carries it
  --check FILE fail if the kill-list table in FILE differs from this run's
  --keep DIR   leave every table under DIR and write DIR/manifest.json
  --rounds N   rounds of contention_probe per arm and catalog (default 40)
  --catalog C  run the Iceberg arms on catalog C (memory, sqlite, postgres, rest; repeatable;
               default memory and sqlite)";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    Markdown,
}

struct Args {
    options: Options,
    output: Output,
    check: Option<PathBuf>,
}

fn parse() -> Result<Args, String> {
    let mut options = Options {
        keep: None,
        probe_rounds: PROBE_ROUNDS,
        catalogs: vec![],
    };
    let mut output = Output::Text;
    let mut check = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => output = Output::Json,
            "--markdown" => output = Output::Markdown,
            "--check" => {
                let file = PathBuf::from(args.next().ok_or("--check needs a file")?);
                // Read up front: a wrong path should not cost a whole run.
                std::fs::read_to_string(&file).map_err(|e| format!("--check {}: {e}", file.display()))?;
                check = Some(file);
            }
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
            "--catalog" => {
                let name = args.next().ok_or("--catalog needs a name")?;
                let kind = CatalogKind::named(&name).ok_or_else(|| format!("--catalog {name}: unknown catalog"))?;
                if let Some(why) = kind.unavailable() {
                    return Err(format!("--catalog {name}: {why}"));
                }
                options.catalogs.push(kind);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if options.catalogs.is_empty() {
        options.catalogs = CatalogKind::ALL.to_vec();
    }
    Ok(Args { options, output, check })
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let Args { options, output, check } = match parse() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut progress = Progress::new("verdict", verdict::cells(&options));
    let report = verdict::run(&options, &mut progress).await;
    progress.done();
    let report = match report {
        Ok(report) => report,
        Err(err) => {
            eprintln!("verdict: {err}");
            return ExitCode::from(2);
        }
    };
    match output {
        Output::Json => println!("{}", serde_json::to_string_pretty(&report).expect("report serializes")),
        Output::Markdown => print!("{}", killlist::render(&report)),
        Output::Text => println!("\n{}\nThe kill list, decided from this run:\n\n{}", verdict::render(&report), killlist::render(&report)),
    }
    let mut failed = false;
    if let Some(file) = &check {
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

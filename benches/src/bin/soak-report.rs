//! `soak-report`: the soak table FINDINGS.md quotes, from the `soak.jsonl` files `stress
//! --attempts N --keep DIR` writes (one line per round), so that the table is regenerated from a
//! run's saved rounds and not copied by hand. A soak stopped before its target still has every
//! finished round in its file; the table says how many attempts that is.
//!
//! ```text
//! soak-report [--json] FILE...
//! ```
//!
//! Markdown by default; `--json` prints one merged audit per file, in the shape of `stress
//! --json`'s, for `charts --stress`.

use std::process::ExitCode;

use barrier_benches::soak::{STEPS, Soak, read};
use serde_json::Value;

/// The soak table FINDINGS.md quotes, from the `soak.jsonl` files `stress --attempts N --keep DIR`
/// writes.
#[derive(clap::Parser)]
#[command(name = "soak-report")]
struct Cli {
    /// One merged audit per file, as JSON, in the shape of `stress --json`'s (for `charts --stress`).
    #[arg(long)]
    json: bool,
    #[arg(required = true, value_name = "FILE")]
    files: Vec<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let Cli { json: json_out, files } = clap::Parser::parse();
    let soaks = match files.iter().map(|f| read(f)).collect::<Result<Vec<_>, _>>() {
        Ok(soaks) => soaks,
        Err(e) => {
            eprintln!("soak-report: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json_out {
        let audits: Vec<Value> = soaks.iter().map(Soak::audit).collect();
        println!("{}", serde_json::to_string_pretty(&audits).expect("JSON values serialize"));
        return ExitCode::SUCCESS;
    }
    println!(
        "| target | rounds | attempts / goal | told `Committed` | lost swaps | kills | crashes ({}) | pauses (right after a check) | server restarts | proxy faults | storage faults | unknown outcomes resolved | duplicates | lost | violations | rows / expected | left behind | duration |",
        STEPS.map(|s| s.trim_start_matches("barrier.")).join(" / ")
    );
    println!("|{}", "---|".repeat(18));
    for soak in &soaks {
        println!("{}", soak.row());
    }
    let runs: Vec<String> = soaks
        .iter()
        .filter_map(|s| Some(format!("{} {}", s.run["commit"].as_str()?, s.run["date"].as_str()?)))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if !runs.is_empty() {
        println!("\nRuns: {}.", runs.join("; "));
    }
    ExitCode::SUCCESS
}

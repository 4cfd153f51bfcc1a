//! What a test run saves for the tables FINDINGS.md carries: each test binary appends one JSON
//! line per trial to `$BARRIER_RESULTS/<binary>.jsonl`, and `scripts/test` writes the run's
//! summary (`summary.json`: commit, date, tier, per-binary counts, wall time per step) beside
//! them. `findings` (in `barrier-benches`) renders the tables from a saved directory; nothing is
//! saved where the variable is unset (a developer's own `cargo test`).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

/// The variable naming the directory a run saves its results in.
pub const RESULTS: &str = "BARRIER_RESULTS";

/// The variable naming a directory under which the suite's trials leave their tables
/// (`<target>/<scenario>`, as `verdict --keep` does), for `scripts/interop` to read; without it
/// each trial's table is in a temporary directory, removed with the trial.
pub const KEEP: &str = "BARRIER_KEEP";

/// Where the trial of `scenario` on the target whose slug is `slug` leaves its table, if the run
/// keeps tables.
pub fn kept(slug: &str, scenario: &str) -> Option<PathBuf> {
    std::env::var_os(KEEP).map(|dir| PathBuf::from(dir).join(slug).join(scenario))
}

/// Appends `line` to `<binary>.jsonl` in the run's results directory, if the run saves any. One
/// `write` per line on a file opened for appending, so that trials running in parallel never
/// interleave their lines. A failure to save is an error of the trial: a run that claims to have
/// saved its results must have.
pub fn save(binary: &str, line: &impl Serialize) -> Result<(), String> {
    let Some(dir) = std::env::var_os(RESULTS).map(PathBuf::from) else { return Ok(()) };
    let path = dir.join(format!("{binary}.jsonl"));
    let mut text = serde_json::to_string(line).map_err(|e| format!("{}: {e}", path.display()))?;
    text.push('\n');
    std::fs::create_dir_all(&dir)
        .and_then(|()| OpenOptions::new().create(true).append(true).open(&path))
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

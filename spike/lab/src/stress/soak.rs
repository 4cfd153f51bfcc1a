//! A soak: stress runs again and again on fresh tables until a number of attempts is reached.

use std::io::Write;
use std::path::Path;

use barrier_harness::leftovers;
use barrier_harness::{Error, Target};

use super::audit::Audit;
use super::options::StressOptions;
use super::run::run;
use crate::progress::Progress;

/// Runs `target` again and again, each round on a fresh table under `dir/round-N`, until the
/// rounds have made `attempts` attempts or one round is not as expected. Appends one JSON line
/// per round to `dir/soak.jsonl` (the options first) and reports each round's attempts to
/// `progress`.
pub async fn soak(
    target: Target,
    dir: &Path,
    exe: &Path,
    options: &StressOptions,
    attempts: usize,
    progress: &mut Progress,
) -> Result<Audit, Error> {
    std::fs::create_dir_all(dir).map_err(Error::io("soak dir"))?;
    let journal_path = dir.join("soak.jsonl");
    let mut journal =
        std::fs::OpenOptions::new().create(true).append(true).open(&journal_path).map_err(Error::io("soak.jsonl"))?;
    let header =
        serde_json::json!({ "target": target.to_string(), "attempts": attempts, "options": format!("{options:?}") });
    writeln!(journal, "{header}").map_err(Error::io("soak.jsonl"))?;
    let mut total: Option<Audit> = None;
    for round in 1.. {
        let options = StressOptions { seed: options.seed.wrapping_add(round as u64), ..options.clone() };
        progress.begin(&format!("{target} round {round}"));
        let audit = run(target, &dir.join(format!("round-{round}")), exe, &options).await?;
        let mut line = audit.to_json();
        line["round"] = round.into();
        line["left_behind"] = leftovers::summary(&audit.held.left_behind.0).into();
        writeln!(journal, "{line}").map_err(Error::io("soak.jsonl"))?;
        let (expected, made) = (audit.as_expected(), audit.counted.attempts);
        let total = match total.as_mut() {
            Some(total) => {
                *total += audit;
                total
            }
            None => total.insert(audit),
        };
        progress.finish(
            made as u64,
            &format!(
                "{target} round {round}: {}/{attempts} attempts, {} duplicates, {} lost, {} violations{}",
                total.counted.attempts,
                total.held.duplicates,
                total.held.lost_epochs.len(),
                total.outcomes.violations.len(),
                if expected { "" } else { "; round NOT as expected" },
            ),
        );
        if !expected || total.counted.attempts >= attempts {
            break;
        }
    }
    Ok(total.expect("at least one round"))
}

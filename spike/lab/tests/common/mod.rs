//! Trials for `libtest-mimic`: one per target and scenario, named as the kill list cites them
//! (`barrier_lab::names`), so that a test FINDINGS.md cites is the test that runs.

use barrier_harness::suite;
use barrier_harness::{Fixture, Scenario, Target};
use barrier_lab::names;
use barrier_lab::tier::{COVERED, Tier};
use barrier_lab::verdict::Cell;
use libtest_mimic::{Failed, Trial};

mod cli;
pub use cli::{arguments, runtime};

/// The cells this run's tier runs, in order; the number left to the full run is printed once,
/// with what in CI still covers them.
pub fn tiered(cells: impl Iterator<Item = (Target, Scenario)>) -> impl Iterator<Item = (Target, Scenario)> {
    let tier = Tier::current();
    let (run, left): (Vec<_>, Vec<_>) = cells.partition(|(target, scenario)| tier.runs(*target, *scenario));
    if !left.is_empty() {
        println!("{} cells left to the full run (`scripts/test --full`); covered in CI by {COVERED}", left.len());
    }
    run.into_iter()
}

/// The trial that runs `scenario` on a fresh table of `target` and asserts the arm did what it
/// is expected to, holding what `hold` returns while it runs (the failpoint tests' serial lock).
/// A target whose catalog server is not running, or a peer without its Python, prints SKIPPED
/// with the reason and passes.
pub fn trial<H: 'static>(target: Target, scenario: Scenario, hold: fn() -> H) -> Trial {
    let name = names::test(target, scenario);
    Trial::test(names::trial(target, scenario), move || {
        let _held = hold();
        if let Some(why) = target.unavailable() {
            println!("SKIPPED {name}: {why}");
            return Ok(());
        }
        runtime().block_on(async {
            let scratch = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
            let kept = barrier_lab::record::kept(&target.slug(), scenario.name());
            let dir = kept.clone().unwrap_or_else(|| scratch.path().to_path_buf());
            let fixture = Fixture::create(target, &dir).await.map_err(|e| format!("fixture: {}", e.report()))?;
            let finding = suite::run(scenario, &fixture, suite::PROBE_ROUNDS)
                .await
                .map_err(|e| Failed::from(format!("{target} {scenario}: {}", e.report())))?;
            println!("{target} {scenario}: {}", finding.observed);
            let passed = finding.passed;
            let table = match kept {
                Some(_) => fixture.location().await.ok(),
                None => None,
            };
            let cell = Cell::new(target, finding, table);
            let known = target.fails_in(scenario);
            let line =
                serde_json::json!({ "test": name, "label": target.label(), "known_failure": known, "cell": cell });
            barrier_lab::record::save(names::binary(target, scenario), &line).map_err(Failed::from)?;
            if passed {
                Ok(())
            } else {
                Err(format!(
                    "{target} {scenario}: expected {}, observed {}",
                    cell.finding.expected, cell.finding.observed
                )
                .into())
            }
        })
    })
}

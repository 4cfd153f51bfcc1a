//! Trials for `libtest-mimic`: one per target and scenario, named as the kill list cites them
//! (`barrier_lab::names`), so that a test FINDINGS.md cites is the test that runs.

use barrier_harness::suite;
use barrier_harness::{Fixture, Scenario, Target};
use barrier_lab::names;
use libtest_mimic::{Failed, Trial};

mod cli;
pub use cli::{arguments, runtime};

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
            let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
            let fixture = Fixture::create(target, dir.path()).await.map_err(|e| format!("fixture: {}", e.report()))?;
            let finding = suite::run(scenario, &fixture, suite::PROBE_ROUNDS)
                .await
                .map_err(|e| Failed::from(format!("{target} {scenario}: {}", e.report())))?;
            println!("{target} {scenario}: {}", finding.observed);
            if finding.passed {
                Ok(())
            } else {
                Err(format!("{target} {scenario}: expected {}, observed {}", finding.expected, finding.observed).into())
            }
        })
    })
}

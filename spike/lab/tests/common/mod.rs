//! Trials for `libtest-mimic`: one per target and scenario, named as the kill list cites them
//! (`barrier_lab::names`), so that a test FINDINGS.md cites is the test that runs.

use barrier_harness::suite;
use barrier_harness::{Fixture, Scenario, Target};
use barrier_lab::names;
use libtest_mimic::{Arguments, Failed, Trial};

/// The test binary's arguments. `--show-output`, which `scripts/test` passes to every test
/// binary, is what libtest-mimic always does (it captures nothing), and it does not know the flag.
/// The trials wait on catalogs, servers and peer processes more than they compute: unless
/// `--test-threads` says otherwise, four run at a time (libtest's default is one per core).
pub fn arguments() -> Arguments {
    let mut arguments = Arguments::from_iter(std::env::args().filter(|arg| arg != "--show-output"));
    arguments.test_threads.get_or_insert(4);
    arguments
}

/// A runtime per trial, as `#[tokio::test(flavor = "multi_thread", worker_threads = 2)]` makes.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
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

//! Commits stopped by failpoints, on every arm and catalog. A binary of its own because failpoints
//! are process-global; each trial holds `fail::FailScenario`, which runs them one at a time and
//! clears every failpoint after it.

mod common;

use std::process::ExitCode;

use barrier_harness::{CatalogKind, Scenario, Target};
use barrier_sink::fail::FailScenario;

fn main() -> ExitCode {
    let trials = Target::suite(CatalogKind::ALL)
        .into_iter()
        .flat_map(|target| {
            let scenarios = Scenario::ALL.iter().copied().filter(|s| s.spec().exclusive);
            scenarios.map(move |scenario| common::trial(target, scenario, FailScenario::setup))
        })
        .collect();
    libtest_mimic::run(&common::arguments(), trials).exit_code()
}

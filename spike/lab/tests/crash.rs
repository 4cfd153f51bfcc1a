//! Commits stopped by failpoints, on every arm and catalog. A binary of its own because failpoints
//! are process-global; each trial holds `fail::FailScenario`, which runs them one at a time and
//! clears every failpoint after it.

mod common;

use std::process::ExitCode;

use barrier_harness::{CatalogKind, Scenario, Target};
use barrier_sink::fail::FailScenario;

fn main() -> ExitCode {
    let cells = Target::suite(CatalogKind::ALL)
        .into_iter()
        .flat_map(|target| Scenario::ALL.iter().filter(|s| s.spec().exclusive).map(move |s| (target, *s)));
    let trials =
        common::tiered(cells).map(|(target, scenario)| common::trial(target, scenario, FailScenario::setup)).collect();
    libtest_mimic::run(&common::arguments(), trials).exit_code()
}

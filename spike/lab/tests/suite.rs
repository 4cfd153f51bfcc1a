//! Every generic body of `barrier_harness::suite` on every arm and catalog: one trial per arm,
//! catalog and scenario, `<arm>::<catalog>::<scenario>`. The failpoint body is in `crash.rs`:
//! failpoints are process-global and must not fire in these parallel tests.

mod common;

use std::process::ExitCode;

use barrier_harness::{CatalogKind, Scenario, Target};

fn main() -> ExitCode {
    let trials = Target::suite(CatalogKind::ALL)
        .into_iter()
        .flat_map(|target| {
            let scenarios = Scenario::ALL.iter().copied().filter(|s| !s.spec().exclusive);
            scenarios.map(move |scenario| common::trial(target, scenario, || ()))
        })
        .collect();
    libtest_mimic::run(&common::arguments(), trials).exit_code()
}

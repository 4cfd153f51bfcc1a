//! Every generic body of `barrier_harness::suite` on every arm and catalog: one trial per arm,
//! catalog and scenario, `<arm>::<catalog>::<scenario>`. The failpoint body is in `crash.rs`:
//! failpoints are process-global and must not fire in these parallel tests. In CI's tier the
//! cells `barrier_lab::tier` leaves to the full run are not trials (their count is printed).

mod common;

use std::process::ExitCode;

use barrier_harness::{CatalogKind, Scenario, Target};

fn main() -> ExitCode {
    let cells = Target::suite(CatalogKind::ALL)
        .into_iter()
        .flat_map(|target| Scenario::ALL.iter().filter(|s| !s.spec().exclusive).map(move |s| (target, *s)));
    let trials = common::tiered(cells).map(|(target, scenario)| common::trial(target, scenario, || ())).collect();
    libtest_mimic::run(&common::arguments(), trials).exit_code()
}

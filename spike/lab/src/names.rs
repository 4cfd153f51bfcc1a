//! The tests' names: the test that runs each scenario on each target, as the kill list cites it
//! and as the test binaries name their trials (`tests/suite.rs`, `tests/crash.rs`,
//! `tests/peers.rs`). Derived here, once, from the types.

use barrier_harness::{Scenario, Target};

/// The test binary a scenario's test on `target` is in: `peers` for a peer; `crash` for a body
/// that must run alone (its failpoints are process-global); `suite` for every other.
pub fn binary(target: Target, scenario: Scenario) -> &'static str {
    if target.peer_spec().is_some() {
        "peers"
    } else if scenario.spec().exclusive {
        "crash"
    } else {
        "suite"
    }
}

/// The test's name inside its binary: `<arm>::<catalog>::<scenario>` (Delta: `<arm>::<scenario>`).
pub fn trial(target: Target, scenario: Scenario) -> String {
    let module = target.arm().map_or_else(|| target.name().replace('-', "_"), |arm| arm.test_module());
    match target.catalog() {
        None => format!("{module}::{scenario}"),
        Some(catalog) => format!("{module}::{catalog}::{scenario}"),
    }
}

/// The test's whole name: `<binary>::<trial>`.
pub fn test(target: Target, scenario: Scenario) -> String {
    format!("{}::{}", binary(target, scenario), trial(target, scenario))
}

#[cfg(test)]
mod tests {
    use barrier_harness::{CatalogKind, DeltaArm, IcebergArm, Peer};

    use super::*;

    #[test]
    fn names_are_those_findings_cites() {
        let naive = Target::Iceberg(IcebergArm::NaiveStock, CatalogKind::Sqlite);
        assert_eq!(test(naive, Scenario::HeldWindow), "suite::iceberg_naive_stock::sqlite::held_window");
        let delta = Target::Delta(DeltaArm::Delta);
        assert_eq!(test(delta, Scenario::AbortedCommitLosesNothing), "crash::delta::aborted_commit_loses_nothing");
        let peer = Target::peer(Peer::PyicebergOwnedLoop.spec(), Some(CatalogKind::Rest)).unwrap();
        assert_eq!(test(peer, Scenario::HeldAtSwap), "peers::pyiceberg_owned_loop::rest::held_at_swap");
    }
}

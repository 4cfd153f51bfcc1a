//! The two tiers of the test run: the test command (`scripts/test`, what CI runs, within 35
//! minutes on a fresh machine) and the full run (`scripts/test --full`, what FINDINGS.md's
//! figures are taken from). The full run runs every cell. CI leaves a cell to the full run only
//! where it runs code another CI cell runs, and says which ([`full_run_only`]): the test binaries
//! and `docs/build-cost.md` read the same rules.
//!
//! The rule: every body runs, in CI, on the first catalog of each kind of client a target
//! reaches (`CatalogKind::client`: in-process, SQL, REST), in the registry's order (for the arms
//! `memory`, `sqlite` and `rest`); on the others, CI runs what a catalog can decide: the forced
//! interleavings (held windows, failpoints), the faults (lost answers, outages), every known
//! failure, and the free races of a target that claims nothing (they find its duplicates). What
//! the others add (the same client against another database or server) is what
//! the catalog contract (`tests/contract`) probes on each of them, in CI.

use barrier_harness::catalogs::CatalogKind;
use barrier_harness::{Scenario, Target};

/// The variable that says which tier runs (`full`; anything else, or nothing, is CI's).
pub const TIER: &str = "BARRIER_TIER";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Ci,
    Full,
}

impl Tier {
    /// The tier this process runs in.
    pub fn current() -> Tier {
        match std::env::var(TIER).as_deref() {
            Ok("full") => Tier::Full,
            _ => Tier::Ci,
        }
    }

    /// Whether this tier runs the suite's `scenario` on `target`.
    pub fn runs(self, target: Target, scenario: Scenario) -> bool {
        self == Tier::Full || full_run_only(target, scenario).is_none()
    }

    /// Whether this tier runs `stress` on `catalog`.
    pub fn stresses(self, catalog: CatalogKind) -> bool {
        self == Tier::Full || stress_full_run_only(catalog).is_none()
    }
}

/// What in CI still covers a suite cell left to the full run.
pub const COVERED: &str = "the same body on the first catalog of the same client (the same sink code), and the \
                           catalog contract on this catalog (what the body relies on from it)";

/// Why CI leaves `scenario` on `target` to the full run ([`COVERED`]); `None` where CI runs it.
pub fn full_run_only(target: Target, scenario: Scenario) -> Option<&'static str> {
    let catalog = target.catalog()?;
    let free_race = matches!(scenario, Scenario::ConcurrentWritersCommitOnce | Scenario::ContentionProbe);
    let decides = scenario.spec().forced
        || matches!(scenario, Scenario::LostResponse | Scenario::CatalogUnavailable)
        || target.fails_in(scenario).is_some()
        || (free_race && !target.claims_exactly_once());
    (!decides && !first_of_its_client(target, catalog)).then_some(COVERED)
}

/// Whether `catalog` is the first, in the registry's order, of the catalogs with its client that
/// `target`'s writer reaches.
fn first_of_its_client(target: Target, catalog: CatalogKind) -> bool {
    let reached = |kind: CatalogKind| match target {
        Target::Peer(peer) => peer.spec().catalogs.contains(&kind),
        _ => target.fixture_build().is_none_or(|build| kind.reached_by(build)),
    };
    let first = CatalogKind::ALL.iter().copied().find(|kind| kind.client() == catalog.client() && reached(*kind));
    first == Some(catalog)
}

/// Why CI leaves `stress` on `catalog` to the full run, and what still covers it; `None` where
/// CI runs it: the first shared catalog of each client (`sqlite`, `rest`).
pub fn stress_full_run_only(catalog: CatalogKind) -> Option<&'static str> {
    let first = CatalogKind::ALL.iter().copied().find(|kind| kind.shared() && kind.client() == catalog.client());
    (first != Some(catalog)).then_some(
        "every arm's stress on the first shared catalog of the same client (the same writers, crashes and faults), \
         and on this catalog the contract, the forced bodies and the lost answers",
    )
}

#[cfg(test)]
mod tests {
    use barrier_harness::{IcebergArm, Peer};

    use super::*;

    #[test]
    fn every_body_runs_once_per_client_and_the_forced_ones_everywhere() {
        let on = |catalog| Target::Iceberg(IcebergArm::CatalogGuard, catalog);
        for catalog in [CatalogKind::Memory, CatalogKind::Sqlite, CatalogKind::Rest] {
            assert_eq!(full_run_only(on(catalog), Scenario::ContentionProbe), None, "{catalog}");
        }
        for catalog in [CatalogKind::Postgres, CatalogKind::Rustberg, CatalogKind::RestFixture] {
            assert!(full_run_only(on(catalog), Scenario::ContentionProbe).is_some(), "{catalog}");
            for scenario in
                [Scenario::HeldWindow, Scenario::HeldAtSwap, Scenario::LostResponse, Scenario::CatalogUnavailable]
            {
                assert_eq!(full_run_only(on(catalog), scenario), None, "{catalog} {scenario}");
            }
        }
        // A known failure stays on every catalog, and so do the duplicates a free race finds.
        let arroyo = Target::Iceberg(IcebergArm::AsArroyo, CatalogKind::Postgres);
        assert_eq!(full_run_only(arroyo, Scenario::ReplayWritesNothing), None);
        assert_eq!(full_run_only(arroyo, Scenario::ContentionProbe), None);
        assert!(full_run_only(arroyo, Scenario::MissingTable).is_some());
        // The JVM peers' first REST catalog is the Java REST fixture.
        let java = |catalog| Target::peer(Peer::JavaIcebergValidator.spec(), Some(catalog)).unwrap();
        assert_eq!(full_run_only(java(CatalogKind::RestFixture), Scenario::ReplayWritesNothing), None);
        assert!(full_run_only(java(CatalogKind::Postgres), Scenario::ReplayWritesNothing).is_some());
        assert_eq!(stress_full_run_only(CatalogKind::Sqlite), None);
        assert_eq!(stress_full_run_only(CatalogKind::Rest), None);
        assert!(stress_full_run_only(CatalogKind::Postgres).is_some());
        assert!(stress_full_run_only(CatalogKind::Rustberg).is_some());
    }
}

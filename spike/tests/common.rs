//! Instantiates a generic body for every target: one `mod` per arm and catalog, one test per body.

use spike::suite::{self, Finding};
use spike::{Fixture, Target, killlist};

/// Runs `scenario` on a fresh table of `target` and asserts the arm did what it is expected to.
/// `test` is the calling test's path, which must be the name the kill list cites for it. A
/// target whose catalog server is not running, or a peer without its Python, prints SKIPPED
/// with the reason and passes.
pub async fn check(scenario: &'static str, target: Target, test: &str) -> Option<Finding> {
    assert_eq!(test, killlist::test_name(target, scenario), "FINDINGS.md would cite a test that does not exist");
    if let Some(why) = target.unavailable() {
        println!("SKIPPED {test}: {why}");
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let fixture = Fixture::create(target, dir.path()).await.expect("fixture");
    let finding = suite::run(scenario, &fixture, suite::PROBE_ROUNDS)
        .await
        .unwrap_or_else(|e| panic!("{target} {scenario}: {e}"));
    println!("{target} {scenario}: {}", finding.observed);
    assert!(
        finding.passed,
        "{target} {scenario}: expected {}, observed {}",
        finding.expected, finding.observed
    );
    Some(finding)
}

/// `targets!(prelude; scenario_a, scenario_b, ...)` writes, for every target, a module holding
/// one `#[tokio::test]` per scenario, so a failure names its arm, build, catalog and body. Each
/// test first evaluates `prelude` and holds its value (the failpoint tests' serial lock).
#[macro_export]
macro_rules! targets {
    ($prelude:expr; $($scenario:ident),+ $(,)?) => {
        $crate::targets!(@target delta, spike::Arm::Delta, None, $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_naive_stock, spike::Arm::IcebergNaive(spike::Build::Stock), $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_catalog_guard, spike::Arm::IcebergCatalogGuard, $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_action, spike::Arm::IcebergAction, $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_requirement, spike::Arm::IcebergRequirement, $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_validator, spike::Arm::IcebergValidator, $prelude; $($scenario),+);
        $crate::targets!(@catalogs iceberg_naive_patched, spike::Arm::IcebergNaive(spike::Build::Patched), $prelude; $($scenario),+);
    };
    (@catalogs $module:ident, $arm:expr, $prelude:expr; $($scenario:ident),+) => {
        mod $module {
            $crate::targets!(@target memory, $arm, Some(spike::CatalogKind::Memory), $prelude; $($scenario),+);
            $crate::targets!(@target sqlite, $arm, Some(spike::CatalogKind::Sqlite), $prelude; $($scenario),+);
            $crate::targets!(@target rest, $arm, Some(spike::CatalogKind::Rest), $prelude; $($scenario),+);
        }
    };
    (@target $module:ident, $arm:expr, $catalog:expr, $prelude:expr; $($scenario:ident),+) => {
        mod $module {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $scenario() {
                    let _held = $prelude;
                    let target = spike::Target { arm: $arm, catalog: $catalog };
                    let test = concat!(module_path!(), "::", stringify!($scenario));
                    $crate::common::check(stringify!($scenario), target, test).await;
                }
            )+
        }
    };
}

/// `peer_targets!(iceberg [MODULE: PEER, ...] [scenario, ...])` writes, for each Iceberg peer,
/// a module with one module per catalog it runs on (`spike::peer::Peer::catalogs`: `sqlite`,
/// `rest`); `peer_targets!(delta MODULE, PEER; scenario, ...)` the module of a Delta peer. Named
/// `peers::<peer>::<catalog>::<scenario>` like `targets!`'s tests.
#[macro_export]
macro_rules! peer_targets {
    (iceberg [$($module:ident: $peer:expr),+ $(,)?] $scenarios:tt) => {
        $($crate::peer_targets!(@iceberg $module, $peer, $scenarios);)+
    };
    (@iceberg $module:ident, $peer:expr, [$($scenario:ident),+ $(,)?]) => {
        mod $module {
            $crate::targets!(@target sqlite, spike::Arm::Peer($peer), Some(spike::CatalogKind::Sqlite), (); $($scenario),+);
            $crate::targets!(@target rest, spike::Arm::Peer($peer), Some(spike::CatalogKind::Rest), (); $($scenario),+);
        }
    };
    (delta $module:ident, $peer:expr; $($scenario:ident),+ $(,)?) => {
        $crate::targets!(@target $module, spike::Arm::Peer($peer), None, (); $($scenario),+);
    };
}

//! Commits stopped by failpoints, on every arm and catalog. A binary of its own because failpoints
//! are process-global; each test holds `fail::FailScenario`, which runs them one at a time.

mod common;

mod serial {
    /// Holds the process-wide failpoint lock for one test, and clears every failpoint after it.
    pub fn scenario() -> fail::FailScenario<'static> {
        fail::FailScenario::setup()
    }
}

macro_rules! crash_targets {
    ($($module:ident => $arm:expr, $catalog:expr;)+) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $module() {
                let _serial = serial::scenario();
                let target = spike::Target { arm: $arm, catalog: $catalog };
                let test = concat!(module_path!(), "::", stringify!($module));
                common::check("aborted_commit_loses_nothing", target, test).await;
            }
        )+
    };
}

use spike::{Arm, Build, CatalogKind};

crash_targets! {
    delta => Arm::Delta, None;
    iceberg_naive_stock_memory => Arm::IcebergNaive(Build::Stock), Some(CatalogKind::Memory);
    iceberg_naive_stock_sqlite => Arm::IcebergNaive(Build::Stock), Some(CatalogKind::Sqlite);
    iceberg_catalog_guard_memory => Arm::IcebergCatalogGuard, Some(CatalogKind::Memory);
    iceberg_catalog_guard_sqlite => Arm::IcebergCatalogGuard, Some(CatalogKind::Sqlite);
    iceberg_action_memory => Arm::IcebergAction, Some(CatalogKind::Memory);
    iceberg_action_sqlite => Arm::IcebergAction, Some(CatalogKind::Sqlite);
    iceberg_requirement_memory => Arm::IcebergRequirement, Some(CatalogKind::Memory);
    iceberg_requirement_sqlite => Arm::IcebergRequirement, Some(CatalogKind::Sqlite);
    iceberg_validator_memory => Arm::IcebergValidator, Some(CatalogKind::Memory);
    iceberg_validator_sqlite => Arm::IcebergValidator, Some(CatalogKind::Sqlite);
    iceberg_naive_patched_memory => Arm::IcebergNaive(Build::Patched), Some(CatalogKind::Memory);
    iceberg_naive_patched_sqlite => Arm::IcebergNaive(Build::Patched), Some(CatalogKind::Sqlite);
}

//! One trial per catalog and property of an arm's table, `<catalog>::<property>`, for the test
//! binaries that measure one arm beyond the suite (`file_key.rs`, `snapshot_id.rs`): a fresh
//! fixture per trial, the property's observation printed, `SKIPPED` with the reason where the
//! catalog's server is unavailable.

use barrier_harness::{CatalogKind, Fixture, IcebergArm, Target};
use barrier_sink::{AppId, Epoch};
use libtest_mimic::{Failed, Trial};

use crate::cli;

/// What a trial checks on a fresh table: `Ok` with what it observed, `Err` with why it failed.
pub type Property = for<'a> fn(&'a Fixture) -> futures::future::BoxFuture<'a, Result<String, String>>;

pub fn trial(arm: IcebergArm, kind: CatalogKind, name: &'static str, property: Property) -> Trial {
    Trial::test(format!("{kind}::{name}"), move || {
        let target = Target::Iceberg(arm, kind);
        if let Some(why) = target.unavailable() {
            println!("SKIPPED {kind}::{name}: {why}");
            return Ok(());
        }
        cli::runtime().block_on(async {
            let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
            let fixture = Fixture::create(target, dir.path()).await.map_err(|e| format!("fixture: {}", e.report()))?;
            let observed = property(&fixture).await.map_err(|e| Failed::from(format!("{kind}::{name}: {e}")))?;
            println!("{kind}::{name}: {observed}");
            Ok(())
        })
    })
}

pub fn app() -> AppId {
    AppId::new("app-a").expect("not empty")
}

pub fn epoch(n: u64) -> Epoch {
    Epoch::new(n).expect("in range")
}

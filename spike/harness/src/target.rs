//! A target: one arm on the table it writes. An Iceberg arm always names its catalog; a Delta arm
//! never does (its log on the local file system is its catalog).

use std::fmt;

use barrier_sink::Failpoint;

use crate::arms::{Arm, DeltaArm, IcebergArm};
use crate::catalogs::CatalogKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Delta(DeltaArm),
    Iceberg(IcebergArm, CatalogKind),
}

/// Delta's tables are on the local file system, which the matrix names as their catalog.
pub const LOCAL_FS: &str = "local-fs";

/// Delta's crate, which the matrix names as the build of its arms.
pub const DELTA_BUILD: &str = "deltalake-core 0.32.4";

impl Target {
    /// The arm on each of `catalogs` its build reaches (a Delta arm, which has no catalog, once).
    pub fn on(arm: Arm, catalogs: &[CatalogKind]) -> Vec<Target> {
        match arm {
            Arm::Delta(arm) => vec![Target::Delta(arm)],
            Arm::Iceberg(arm) => catalogs
                .iter()
                .filter(|catalog| catalog.reached_by(arm.build()))
                .map(|catalog| Target::Iceberg(arm, *catalog))
                .collect(),
        }
    }

    /// Every arm of the suite on `catalogs`, in the order the matrix prints them.
    pub fn suite(catalogs: &[CatalogKind]) -> Vec<Target> {
        Arm::suite().flat_map(|arm| Target::on(arm, catalogs)).collect()
    }

    /// The arm on `catalog`, if it is an Iceberg arm (a Delta arm ignores it).
    pub fn with_catalog(arm: Arm, catalog: CatalogKind) -> Target {
        match arm {
            Arm::Delta(arm) => Target::Delta(arm),
            Arm::Iceberg(arm) => Target::Iceberg(arm, catalog),
        }
    }

    pub fn arm(self) -> Arm {
        match self {
            Target::Delta(arm) => Arm::Delta(arm),
            Target::Iceberg(arm, _) => Arm::Iceberg(arm),
        }
    }

    pub fn catalog(self) -> Option<CatalogKind> {
        match self {
            Target::Delta(_) => None,
            Target::Iceberg(_, catalog) => Some(catalog),
        }
    }

    /// The writer's client resends a lost commit with its `Idempotency-Key`, and the server
    /// honours the key: the patched build's REST client on a catalog that advertises keys.
    pub fn resends_with_idempotency_key(self) -> bool {
        self.catalog().zip(self.arm().build()).is_some_and(|(c, b)| c.resends_with_idempotency_key(b))
    }

    pub fn catalog_name(self) -> &'static str {
        self.catalog().map_or(LOCAL_FS, CatalogKind::name)
    }

    /// What writes the table: the iceberg-rust build, Delta's crate, or a peer's library.
    pub fn build_name(self) -> &'static str {
        match (self.arm().peer(), self) {
            (Some(peer), _) => peer.library,
            (None, Target::Delta(_)) => DELTA_BUILD,
            (None, Target::Iceberg(arm, _)) => arm.build().name(),
        }
    }

    /// Why this target cannot run in this process, if it cannot: its catalog server is not
    /// running, or (a peer) what runs it is missing.
    pub fn unavailable(self) -> Option<String> {
        let runtime = self.arm().peer().and_then(|peer| peer.runtime.unavailable());
        runtime.or_else(|| self.catalog().and_then(CatalogKind::unavailable))
    }

    /// The failpoints a commit of this target passes, in order.
    pub fn failpoints(self) -> &'static [Failpoint] {
        match self.catalog() {
            None => &Failpoint::DELTA,
            Some(catalog) => catalog.failpoints(),
        }
    }

    /// The target as a path segment: `arm-build-catalog`.
    pub fn slug(self) -> String {
        self.to_string().replace('/', "-")
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arm = self.arm();
        match (self, arm.peer()) {
            (Target::Delta(_), _) => write!(f, "{arm}"),
            (Target::Iceberg(_, catalog), Some(_)) => write!(f, "{arm}/{catalog}"),
            (Target::Iceberg(iceberg, catalog), None) => write!(f, "{arm}/{}/{catalog}", iceberg.build().name()),
        }
    }
}

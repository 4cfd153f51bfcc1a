//! The arms, and the targets they run on: an arm on one catalog (Delta on the file system).

use std::fmt;

use serde::Serialize;

pub use crate::catalogs::CatalogKind;
use crate::peer::Peer;

/// Which iceberg-rust the arm links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Build {
    /// 0.10.1 from crates.io.
    Stock,
    /// 0.10.1 from vendor/, with patches/ applied.
    Patched,
}

impl Build {
    pub fn name(self) -> &'static str {
        match self {
            Build::Stock => "stock",
            Build::Patched => "patched",
        }
    }
}

/// One way of making the commit conditional, or (the floors) of not making it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arm {
    Delta,
    IcebergNaive(Build),
    IcebergCatalogGuard,
    IcebergAction,
    IcebergRequirement,
    IcebergValidator,
    /// Benchmarks' floor: Delta's append without a `txn` action or a check.
    DeltaPlain,
    /// Benchmarks' floor: a stock fast append with no check at all.
    IcebergUnguarded,
    /// Another implementation, in a Python process of its own (`crate::peer`), on a table the
    /// Rust fixtures create: measured beside the arms, not part of `verdict` or the kill list.
    Peer(Peer),
}

impl Arm {
    pub const ALL: [Arm; 7] = [
        Arm::Delta,
        Arm::IcebergNaive(Build::Stock),
        Arm::IcebergCatalogGuard,
        Arm::IcebergAction,
        Arm::IcebergRequirement,
        Arm::IcebergValidator,
        Arm::IcebergNaive(Build::Patched),
    ];

    /// The floors the benchmarks measure the arms against; not part of the suite.
    pub const FLOORS: [Arm; 2] = [Arm::DeltaPlain, Arm::IcebergUnguarded];

    pub fn name(self) -> &'static str {
        match self {
            Arm::Delta => "delta",
            Arm::DeltaPlain => "delta-plain",
            Arm::IcebergUnguarded => "iceberg-unguarded",
            Arm::IcebergNaive(_) => "iceberg-naive",
            Arm::IcebergCatalogGuard => "iceberg-catalog-guard",
            Arm::IcebergAction => "iceberg-action",
            Arm::IcebergRequirement => "iceberg-requirement",
            Arm::IcebergValidator => "iceberg-validator",
            Arm::Peer(peer) => peer.name(),
        }
    }

    /// Which iceberg-rust the arm links; `None` for Delta, which is not iceberg-rust. A peer
    /// links none: this is the build whose fixture creates and audits its table (stock for an
    /// Iceberg peer, `None` for a Delta one).
    pub fn build(self) -> Option<Build> {
        match self {
            Arm::Peer(peer) => peer.iceberg().then_some(Build::Stock),
            Arm::Delta | Arm::DeltaPlain => None,
            Arm::IcebergNaive(build) => Some(build),
            Arm::IcebergCatalogGuard | Arm::IcebergUnguarded => Some(Build::Stock),
            Arm::IcebergAction | Arm::IcebergRequirement | Arm::IcebergValidator => Some(Build::Patched),
        }
    }

    /// Whether the arm claims at most one commit per `(app, epoch)` under races. The suite holds
    /// every arm to its claim, and holds `iceberg-naive` to the duplicate it is known to make.
    pub fn claims_exactly_once(self) -> bool {
        match self {
            Arm::Peer(peer) => peer.claims_exactly_once(),
            arm => !matches!(arm, Arm::IcebergNaive(_) | Arm::DeltaPlain | Arm::IcebergUnguarded),
        }
    }

    /// Why the scenario cannot run on this arm, if it cannot (the peers': [`Peer::not_applicable`]).
    pub fn not_applicable(self, scenario: &str) -> Option<&'static str> {
        match self {
            Arm::Peer(peer) => peer.not_applicable(scenario),
            _ => None,
        }
    }
}

/// The arm's name on the command line: the suite's name, with `@patched` for the patched
/// build's `iceberg-naive`.
pub fn arm_label(arm: Arm) -> String {
    match arm {
        Arm::IcebergNaive(Build::Patched) => format!("{}@patched", arm.name()),
        _ => arm.name().to_string(),
    }
}

/// The arm named `label` (see [`arm_label`]), among the suite's arms and the floors.
pub fn arm_named(label: &str) -> Option<Arm> {
    Arm::ALL.into_iter().chain(Arm::FLOORS).find(|arm| arm_label(*arm) == label)
}

/// One arm on one catalog (Delta runs on the local filesystem, with no catalog).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub arm: Arm,
    pub catalog: Option<CatalogKind>,
}

impl Target {
    /// Every target on the embedded defaults, in the order the matrix prints them.
    pub fn all() -> Vec<Target> {
        Target::all_on(&CatalogKind::ALL)
    }

    /// Every arm of the suite on `catalogs` (Delta once, on the file system).
    pub fn all_on(catalogs: &[CatalogKind]) -> Vec<Target> {
        Arm::ALL.into_iter().flat_map(|arm| Target::on(arm, catalogs)).collect()
    }

    /// The arm on the embedded defaults.
    pub fn of(arm: Arm) -> Vec<Target> {
        Target::on(arm, &CatalogKind::ALL)
    }

    /// The arm on each of `catalogs` (Delta, which has no catalog, once).
    pub fn on(arm: Arm, catalogs: &[CatalogKind]) -> Vec<Target> {
        match arm.build() {
            None => vec![Target { arm, catalog: None }],
            Some(_) => catalogs.iter().map(|c| Target { arm, catalog: Some(*c) }).collect(),
        }
    }

    pub fn catalog_name(self) -> &'static str {
        self.catalog.map_or("local-fs", CatalogKind::name)
    }

    pub fn build_name(self) -> &'static str {
        match self.arm {
            Arm::Peer(peer) => peer.library(),
            arm => arm.build().map_or("deltalake-core 0.32.4", Build::name),
        }
    }

    /// Why this target cannot run in this process, if it cannot: its catalog server is not
    /// running, or (a peer) the Python that runs it is missing.
    pub fn unavailable(self) -> Option<String> {
        let python = match self.arm {
            Arm::Peer(_) => crate::peer::python().err(),
            _ => None,
        };
        python.or_else(|| self.catalog.and_then(CatalogKind::unavailable))
    }

    /// The failpoints a commit of this target passes, in order (see [`crate::hooks::failpoints`]).
    pub fn failpoints(self) -> &'static [&'static str] {
        match self.catalog {
            None => &crate::hooks::failpoints::DELTA,
            Some(catalog) => catalog.profile().failpoints,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.arm, self.arm.build()) {
            (Arm::Peer(_), Some(_)) => write!(f, "{}/{}", self.arm.name(), self.catalog_name()),
            (_, None) => write!(f, "{}", self.arm.name()),
            (_, Some(build)) => write!(f, "{}/{}/{}", self.arm.name(), build.name(), self.catalog_name()),
        }
    }
}

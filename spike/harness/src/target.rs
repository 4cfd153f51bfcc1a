//! A target: an arm or a peer on the table it writes. An Iceberg target always names its catalog;
//! a Delta target never does (its log on the local file system is its catalog).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use barrier_iceberg::Build;
use barrier_sink::Failpoint;

use crate::arms::{Arm, DeltaArm, IcebergArm};
use crate::catalogs::CatalogKind;
use crate::peer::PeerSpec;

/// A table format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Delta,
    Iceberg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Delta(DeltaArm),
    Iceberg(IcebergArm, CatalogKind),
    /// A peer on a catalog it reaches: made only by [`Target::peer`].
    Peer(PeerTarget),
}

/// A peer on a catalog it reaches (`None`: Delta's local log). Its fields are private so that
/// only [`Target::peer`], which refuses an unreachable catalog, makes one.
#[derive(Clone, Copy, Debug)]
pub struct PeerTarget {
    spec: &'static PeerSpec,
    catalog: Option<CatalogKind>,
}

impl PeerTarget {
    pub fn spec(&self) -> &'static PeerSpec {
        self.spec
    }

    /// Its catalog; `None` for Delta's local log.
    pub fn catalog(&self) -> Option<CatalogKind> {
        self.catalog
    }

    /// A peer is one by its name (a user's peer is a new spec, made once).
    fn key(&self) -> (&'static str, Option<CatalogKind>) {
        (self.spec.name, self.catalog)
    }
}

impl PartialEq for PeerTarget {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for PeerTarget {}

impl Hash for PeerTarget {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for PeerTarget {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PeerTarget {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
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

    /// The peer on `catalog` (`None` for Delta's local log), or why it cannot be: a Delta peer
    /// names no catalog, and an Iceberg peer one its library reaches from its own process.
    pub fn peer(spec: &'static PeerSpec, catalog: Option<CatalogKind>) -> Result<Target, String> {
        match (spec.format, catalog) {
            (Format::Delta, None) => Ok(Target::Peer(PeerTarget { spec, catalog })),
            (Format::Delta, Some(catalog)) => {
                Err(format!("{} writes Delta, which has no catalog {catalog}", spec.name))
            }
            (Format::Iceberg, Some(c)) if spec.catalogs.contains(&c) => Ok(Target::Peer(PeerTarget { spec, catalog })),
            (Format::Iceberg, Some(catalog)) => Err(format!("{} does not reach the {catalog} catalog", spec.name)),
            (Format::Iceberg, None) => Err(format!("{} writes Iceberg, which needs a catalog", spec.name)),
        }
    }

    /// The peer on each of `catalogs` it reaches (a Delta peer, which has no catalog, once).
    pub fn peer_on(spec: &'static PeerSpec, catalogs: &[CatalogKind]) -> Vec<Target> {
        match spec.format {
            Format::Delta => Target::peer(spec, None).into_iter().collect(),
            Format::Iceberg => catalogs.iter().filter_map(|c| Target::peer(spec, Some(*c)).ok()).collect(),
        }
    }

    /// The arm, if an arm writes the table.
    pub fn arm(self) -> Option<Arm> {
        self.writer().ok()
    }

    /// The peer, if a peer writes the table.
    pub fn peer_spec(self) -> Option<&'static PeerSpec> {
        self.writer().err()
    }

    pub fn format(self) -> Format {
        match self {
            Target::Delta(_) => Format::Delta,
            Target::Iceberg(..) => Format::Iceberg,
            Target::Peer(peer) => peer.spec.format,
        }
    }

    /// The arm's or the peer's name.
    pub fn name(self) -> &'static str {
        match self.writer() {
            Ok(arm) => arm.name(),
            Err(peer) => peer.name,
        }
    }

    /// The name on the command line: the arm's label ([`Arm::label`]) or the peer's name.
    pub fn label(self) -> String {
        match self.writer() {
            Ok(arm) => arm.label(),
            Err(peer) => peer.name.to_string(),
        }
    }

    /// Whether what writes the table claims at most one commit per `(app, epoch)` under races.
    pub fn claims_exactly_once(self) -> bool {
        match self.writer() {
            Ok(arm) => arm.claims_exactly_once(),
            Err(peer) => peer.claims_exactly_once,
        }
    }

    /// Why the scenario's body must fail on this target, if it must (an arm's or a peer's
    /// [`crate::arms::Hazards::fails_in`]).
    pub fn fails_in(self, scenario: crate::Scenario) -> Option<&'static str> {
        match self.writer() {
            Ok(arm) => arm.fails_in(scenario),
            Err(peer) => peer.fails_in(scenario, self.catalog()),
        }
    }

    /// Why it can stall under `stress`, if it can ([`crate::arms::Hazards::stalls`]).
    pub fn stalls(self) -> Option<&'static str> {
        match self.writer() {
            Ok(arm) => arm.stalls(),
            Err(peer) => peer.hazards.stalls,
        }
    }

    /// What writes the table: an arm, or else a peer.
    fn writer(self) -> Result<Arm, &'static PeerSpec> {
        match self {
            Target::Delta(arm) => Ok(Arm::Delta(arm)),
            Target::Iceberg(arm, _) => Ok(Arm::Iceberg(arm)),
            Target::Peer(peer) => Err(peer.spec),
        }
    }

    pub fn catalog(self) -> Option<CatalogKind> {
        match self {
            Target::Delta(_) => None,
            Target::Iceberg(_, catalog) => Some(catalog),
            Target::Peer(peer) => peer.catalog,
        }
    }

    /// The iceberg-rust build the fixture creates, audits and rewrites the table with: the arm's,
    /// or (for a peer, which links none) stock. `None` for Delta.
    pub fn fixture_build(self) -> Option<Build> {
        match (self, self.format()) {
            (Target::Iceberg(arm, _), _) => Some(arm.build()),
            (_, Format::Iceberg) => Some(Build::Stock),
            (_, Format::Delta) => None,
        }
    }

    /// The writer's client resends a lost commit with its `Idempotency-Key`, and the server
    /// honours the key: the patched build's REST client on a catalog that advertises keys.
    pub fn resends_with_idempotency_key(self) -> bool {
        match self {
            Target::Iceberg(arm, catalog) => catalog.resends_with_idempotency_key(arm.build()),
            _ => false,
        }
    }

    pub fn catalog_name(self) -> &'static str {
        self.catalog().map_or(LOCAL_FS, CatalogKind::name)
    }

    /// What writes the table: the iceberg-rust build, Delta's crate, or a peer's library.
    pub fn build_name(self) -> &'static str {
        match self {
            Target::Delta(_) => DELTA_BUILD,
            Target::Iceberg(arm, _) => arm.build().name(),
            Target::Peer(peer) => peer.spec.library,
        }
    }

    /// Why this target cannot run in this process, if it cannot: its catalog server is not
    /// running, or (a peer) what runs it is missing.
    pub fn unavailable(self) -> Option<String> {
        let runtime = self.peer_spec().and_then(|peer| peer.runtime.unavailable());
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
        let name = self.name();
        match *self {
            Target::Delta(_) | Target::Peer(PeerTarget { catalog: None, .. }) => write!(f, "{name}"),
            Target::Peer(PeerTarget { catalog: Some(catalog), .. }) => write!(f, "{name}/{catalog}"),
            Target::Iceberg(iceberg, catalog) => write!(f, "{name}/{}/{catalog}", iceberg.build().name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peer::Peer;

    #[test]
    fn a_peer_is_a_target_only_on_a_catalog_it_reaches() {
        let java = Peer::JavaIcebergValidator.spec();
        assert!(Target::peer(java, Some(CatalogKind::Postgres)).is_ok());
        assert!(Target::peer(java, Some(CatalogKind::Memory)).is_err());
        assert!(Target::peer(java, None).is_err());
        let delta = Peer::DeltalakePython.spec();
        assert!(Target::peer(delta, None).is_ok());
        assert!(Target::peer(delta, Some(CatalogKind::Sqlite)).is_err());
        let on: Vec<CatalogKind> = Target::peer_on(java, CatalogKind::ALL).iter().filter_map(|t| t.catalog()).collect();
        assert_eq!(on, java.catalogs, "every catalog it reaches, memory not among them");
        assert!(!on.contains(&CatalogKind::Memory));
        assert_eq!(Target::peer_on(delta, CatalogKind::ALL).len(), 1);
    }
}

//! The arms: every way of making the commit conditional this project measures, and the floors that
//! make none, each this project's own sink (the peers, other implementations measured beside them,
//! are [`crate::peer`]'s). One registry entry each, per format
//! ([`DeltaArm`], [`IcebergArm`]); [`Arm`] is either.
//!
//! Adding an arm is its module in its format's crate (an Iceberg arm: a `CommitStrategy`) and its
//! entry here: the suite's tests, `verdict`, the kill list, `stress` and the benchmarks take it
//! from the registry.

use std::fmt;

pub use barrier_iceberg::Build;
use barrier_iceberg::{Strategy, patched, stock, stock_011};
use barrier_sink::Footprint;

use crate::registry::registry;
use crate::scenario::Scenario;

/// What an arm is for, and what writes its commits.
pub enum Kind<S> {
    /// An arm of the suite, `verdict` and `stress`: this project's sink. `column` is its title in
    /// the kill list, if the kill list decides it.
    Suite { sink: S, column: Option<&'static str> },
    /// A benchmark floor: this project's sink with no check. Claims nothing; not in the suite.
    Floor { sink: S },
}

/// What the registry says of an arm.
pub struct ArmSpec<S> {
    /// As tests, `verdict`, the benchmarks and FINDINGS.md spell it.
    pub name: &'static str,
    /// Whether the arm claims at most one commit per `(app, epoch)` under races. The suite holds
    /// every arm to its claim, and holds an arm that does not claim it to the duplicate it makes.
    pub claims_exactly_once: bool,
    /// Where an arm that claims exactly-once is known to fail, and why.
    pub hazards: Hazards,
    pub kind: Kind<S>,
}

/// The failures of an arm that claims exactly-once which this project measured and asserts,
/// rather than hides: a test holds the arm to each of them, and to its claim everywhere else.
#[derive(Clone, Copy, Debug)]
pub struct Hazards {
    /// The scenarios whose body it fails, and why: the suite asserts the failure there (a body
    /// that passes instead fails its test).
    pub fails_in: &'static [(Scenario, &'static str)],
    /// Why it can stop making progress under `stress` (a writer told the same refusal for ever),
    /// if it can: `stress` then stops its stuck writers and asserts 0 duplicates and 0 violations
    /// instead of every epoch committed.
    pub stalls: Option<&'static str>,
}

impl Hazards {
    pub const NONE: Hazards = Hazards { fails_in: &[], stalls: None };
}

impl<S> ArmSpec<S> {
    /// This project's sink for the arm.
    pub fn sink(&self) -> &S {
        match &self.kind {
            Kind::Suite { sink, .. } | Kind::Floor { sink } => sink,
        }
    }
}

/// This project's Delta sinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaSink {
    /// With a `txn` action, checked on the snapshot it commits on.
    Txn,
    /// The same append with no `txn` and no check.
    Plain,
}

registry! {
    /// The arms on Delta, whose log on the file system is its own catalog.
    pub enum DeltaArm: ArmSpec<DeltaSink> {
        /// The control: Delta's protocol has an action for exactly this, `txn (appId, version)`.
        Delta => ArmSpec {
            name: "delta",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: DeltaSink::Txn, column: Some("Delta (`delta`, the control)") },
        },
        /// The benchmarks' floor for `delta`.
        DeltaPlain => ArmSpec { name: "delta-plain", claims_exactly_once: false, hazards: Hazards::NONE, kind: Kind::Floor { sink: DeltaSink::Plain } },
    }
}

registry! {
    /// The arms on Iceberg, each on a catalog.
    pub enum IcebergArm: ArmSpec<Strategy> {
        /// The original experiment's sink: checks on a loaded table, enforced by nothing.
        NaiveStock => ArmSpec {
            name: "iceberg-naive",
            claims_exactly_once: false, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Stock(&stock::Naive), column: Some("stock naive (`iceberg-naive`)") },
        },
        /// The check in the `load_table` of a `Catalog` decorator the transaction commits through.
        CatalogGuard => ArmSpec {
            name: "iceberg-catalog-guard",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite {
                sink: Strategy::Stock(&stock::CatalogGuard),
                column: Some("stock catalog guard (`iceberg-catalog-guard`)"),
            },
        },
        /// The stock fast append's duplicate-file check, on data files named from the epoch.
        FileKey => ArmSpec {
            name: "iceberg-file-key",
            claims_exactly_once: true,
            hazards: Hazards {
                fails_in: &[(
                    Scenario::EpochsSurviveRewrite,
                    "a rewrite leaves the epoch's files dead in `main`: the duplicate-file check passes a replay of the same batch",
                )],
                stalls: Some(
                    "an attempt that dies after writing its data files leaves the epoch's names claimed; a replay whose \
                     bytes differ (every `stress` attempt writes a batch of its own) is told `EpochClaimed` for ever",
                ),
            },
            kind: Kind::Suite {
                sink: Strategy::Stock(&stock::FileKey { create_only: true }),
                column: Some("stock file key (`iceberg-file-key`)"),
            },
        },
        /// The check in a `TransactionAction` (patch 1, an experiment, not proposed upstream).
        Action => ArmSpec {
            name: "iceberg-action",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Patched(&patched::Action), column: Some("patch 1 (`iceberg-action`)") },
        },
        /// The check in the sink, `main` asserted where it checked (patch 2); the sink owns the loop.
        Requirement => ArmSpec {
            name: "iceberg-requirement",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite {
                sink: Strategy::Patched(&patched::Requirement),
                column: Some("patch 2 (`iceberg-requirement`)"),
            },
        },
        /// The check in a `SnapshotAncestryValidator` on the fast append (patch 3).
        Validator => ArmSpec {
            name: "iceberg-validator",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite {
                sink: Strategy::Patched(&patched::Validator { rebase: patched::Rebase::EveryAttempt }),
                column: Some("patch 3 (`iceberg-validator`)"),
            },
        },
        /// The epoch as the id of the snapshot that commits it (patch 5, an experiment):
        /// RisingWave's key, refused by the fast append on the refreshed base.
        SnapshotId => ArmSpec {
            name: "iceberg-snapshot-id",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Patched(&patched::SnapshotId), column: Some("patch 5 (`iceberg-snapshot-id`)") },
        },
        /// The check on the held table, the commit on it with no refresh and no rebase (patch 4,
        /// shape (b), an experiment): one round trip per commit; the sink owns the loop.
        NoRebase => ArmSpec {
            name: "iceberg-no-rebase",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Patched(&patched::NoRebase), column: Some("patch 4 (`iceberg-no-rebase`)") },
        },
        /// `iceberg-validator` whose first attempt runs on its held table without a refresh
        /// (patch 4, shape (a)): the same check, measured beside it.
        ValidatorFirstOnBase => ArmSpec {
            name: "iceberg-validator-first-on-base",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Patched(&patched::Validator { rebase: patched::Rebase::AfterConflict }), column: None },
        },
        /// Flink's Iceberg committer reproduced: its checkpoint id read once by an ancestry walk,
        /// then Java's rebasing retry (apache/iceberg #14425). Flink claims exactly-once; the
        /// suite holds this reproduction to the duplicates its races make instead.
        AsFlink => ArmSpec {
            name: "as-flink",
            claims_exactly_once: false,
            hazards: Hazards {
                fails_in: &[
                    (Scenario::EpochsSurviveExpiry, "its checkpoint id lives only in snapshot summaries: once they expire the walk finds nothing and a replay commits again (Flink calls that restore best effort, apache/iceberg #5846, #4137)"),
                    (Scenario::LostResponse, "a commit delivered twice comes back as a conflict and the retry rebases the append onto its own first delivery, with no duplicate-file check (Java has none) to stop it: the epoch twice"),
                ],
                stalls: None,
            },
            kind: Kind::Suite { sink: Strategy::Stock(&stock::AsFlink), column: None },
        },
        /// Arroyo's Iceberg commit reproduced: its commit id looked for in the current snapshot
        /// only, the duplicate-file check off. Arroyo claims exactly-once; the suite holds this
        /// reproduction to the duplicates its races make instead.
        AsArroyo => ArmSpec {
            name: "as-arroyo",
            claims_exactly_once: false,
            hazards: Hazards {
                fails_in: &[
                    (Scenario::ReplayWritesNothing, "only its exact commit id in the current snapshot is recognised: an older epoch commits again"),
                    (Scenario::DistinctEpochsAccumulate, "only its exact commit id in the current snapshot is recognised: under another app's newer commit, an older epoch commits again"),
                    (Scenario::WriterBehindCommitsOnce, "only its exact commit id in the current snapshot is recognised: a writer behind replays an older epoch, which commits again"),
                    (Scenario::EpochsSurviveExpiry, "only its exact commit id in the current snapshot is recognised: under another app's newer commit a replay commits again"),
                    (Scenario::LostResponse, "a commit delivered twice comes back as a conflict and the retry rebases the append onto its own first delivery, the duplicate-file check off (arroyo #942): the epoch twice"),
                ],
                stalls: None,
            },
            kind: Kind::Suite { sink: Strategy::Stock(&stock::AsArroyo), column: None },
        },
        /// Kafka Connect's coordinator reproduced on patch 3: offsets read at load must equal those
        /// on every refreshed base (apache/iceberg #14510).
        AsKafkaConnect => ArmSpec {
            name: "as-kafka-connect",
            claims_exactly_once: true,
            hazards: Hazards {
                fails_in: &[(Scenario::EpochsSurviveExpiry, "its offsets live only in snapshot summaries (Kafka Connect also commits them to its consumer group, outside the table; here the caller replays): once they expire, a replay of the last epoch commits again")],
                stalls: None,
            },
            kind: Kind::Suite { sink: Strategy::Patched(&patched::AsKafkaConnect), column: None },
        },
        /// Materialize's sink reproduced on patch 4: a reload, its frontier check, an append with
        /// no rebase, its own loop (MaterializeInc/materialize #38441).
        AsMaterialize => ArmSpec {
            name: "as-materialize",
            claims_exactly_once: true,
            hazards: Hazards {
                fails_in: &[(Scenario::EpochsSurviveExpiry, "its frontier lives only in snapshot summaries: once they expire, a replay of the last epoch commits again")],
                stalls: None,
            },
            kind: Kind::Suite { sink: Strategy::Patched(&patched::AsMaterialize), column: None },
        },
        /// The naive sink on the patched build: the patches change no existing behaviour.
        NaivePatched => ArmSpec {
            name: "iceberg-naive",
            claims_exactly_once: false, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Patched(&patched::Naive), column: None },
        },
        /// The original sink on iceberg 0.11.0, the newest release (memory catalog only): does the
        /// stock answer still hold there?
        NaiveStock011 => ArmSpec {
            name: "iceberg-naive",
            claims_exactly_once: false, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Stock011(&stock_011::Naive), column: None },
        },
        /// `iceberg-catalog-guard` on iceberg 0.11.0: do the unpromised properties it relies on hold?
        CatalogGuardStock011 => ArmSpec {
            name: "iceberg-catalog-guard",
            claims_exactly_once: true, hazards: Hazards::NONE,
            kind: Kind::Suite { sink: Strategy::Stock011(&stock_011::CatalogGuard), column: None },
        },
        /// The benchmarks' floor: a stock fast append, no check, holding its table.
        Unguarded =>
            ArmSpec { name: "iceberg-unguarded", claims_exactly_once: false, hazards: Hazards::NONE, kind: Kind::Floor { sink: Strategy::Stock(&stock::Unguarded { check_duplicate: true }) } },
    }
}

impl IcebergArm {
    /// The iceberg-rust build the arm links, which its fixture creates and audits its table with.
    pub fn build(self) -> Build {
        self.spec().sink().build()
    }
}

/// An arm of either format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arm {
    Delta(DeltaArm),
    Iceberg(IcebergArm),
}

impl Arm {
    /// Every arm: Delta's, then Iceberg's, each in its registry's order.
    pub fn all() -> impl Iterator<Item = Arm> {
        let delta = DeltaArm::ALL.iter().map(|a| Arm::Delta(*a));
        delta.chain(IcebergArm::ALL.iter().map(|a| Arm::Iceberg(*a)))
    }

    /// The arms of the suite, in the order the matrix prints them.
    pub fn suite() -> impl Iterator<Item = Arm> {
        Arm::all().filter(|arm| matches!(arm.view().kind, View::Suite { .. }))
    }

    /// The kill list's columns: the arms it decides, with their titles, Iceberg's first and
    /// Delta, the control, last.
    pub fn columns() -> Vec<(Arm, &'static str)> {
        let iceberg = IcebergArm::ALL.iter().map(|a| Arm::Iceberg(*a));
        let delta = DeltaArm::ALL.iter().map(|a| Arm::Delta(*a));
        iceberg.chain(delta).filter_map(|arm| arm.column().map(|title| (arm, title))).collect()
    }

    pub fn name(self) -> &'static str {
        self.view().name
    }

    pub fn claims_exactly_once(self) -> bool {
        self.view().claims_exactly_once
    }

    /// Why the arm is known to fail `scenario`'s body, if it is ([`Hazards::fails_in`]).
    pub fn fails_in(self, scenario: Scenario) -> Option<&'static str> {
        self.view().hazards.fails_in.iter().find(|(s, _)| *s == scenario).map(|(_, why)| *why)
    }

    /// Why the arm can stall under `stress`, if it can ([`Hazards::stalls`]).
    pub fn stalls(self) -> Option<&'static str> {
        self.view().hazards.stalls
    }

    pub fn column(self) -> Option<&'static str> {
        match self.view().kind {
            View::Suite { column } => column,
            _ => None,
        }
    }

    /// The iceberg-rust this arm links; `None` for Delta.
    pub fn build(self) -> Option<Build> {
        match self {
            Arm::Delta(_) => None,
            Arm::Iceberg(arm) => Some(arm.build()),
        }
    }

    /// Whether another arm on the same iceberg-rust release bears the same name (on the other
    /// build).
    fn shares_its_name(self) -> bool {
        let version = |arm: Arm| arm.build().map(Build::version);
        Arm::all().filter(|other| other.name() == self.name() && version(*other) == version(self)).count() > 1
    }

    /// Whether it runs on another release than 0.10.1, the one the arms were designed on.
    fn on_another_release(self) -> bool {
        self.build().is_some_and(|build| build.version() != Build::Stock.version())
    }

    /// The arm's name on the command line: its name, with `@patched` for an arm whose name the
    /// stock build's arm bears too, and `@stock-0.11.0` for one on another release.
    pub fn label(self) -> String {
        match self.build() {
            Some(build) if self.on_another_release() => format!("{}@{}", self.name(), build.name()),
            Some(Build::Patched) if self.shares_its_name() => format!("{}@patched", self.name()),
            _ => self.name().to_string(),
        }
    }

    /// The arm named `label` (see [`Arm::label`]).
    pub fn labelled(label: &str) -> Option<Arm> {
        Arm::all().find(|arm| arm.label() == label)
    }

    /// The module its tests are in: its name in snake case, with its build where another arm
    /// bears the same name.
    pub fn test_module(self) -> String {
        let module = self.name().replace('-', "_");
        match self.build() {
            Some(build) if self.shares_its_name() || self.on_another_release() => {
                format!("{module}_{}", build.name().replace(['-', '.'], "_"))
            }
            _ => module,
        }
    }

    /// What the arm's own code adds to carry its check (kill condition 4), for an arm of the
    /// suite; a floor carries no check.
    pub fn footprint(self) -> Option<Footprint> {
        match self {
            Arm::Delta(arm) => match arm.spec().kind {
                Kind::Suite { sink: DeltaSink::Txn, .. } => Some(barrier_delta::DeltaSink::FOOTPRINT),
                _ => None,
            },
            Arm::Iceberg(arm) => match &arm.spec().kind {
                Kind::Suite { sink, .. } => Some(sink.footprint()),
                _ => None,
            },
        }
    }

    /// The format-independent part of the arm's spec.
    fn view(self) -> ArmView {
        match self {
            Arm::Delta(arm) => ArmView::of(arm.spec()),
            Arm::Iceberg(arm) => ArmView::of(arm.spec()),
        }
    }
}

/// An arm's spec, whichever sink type its format has.
struct ArmView {
    name: &'static str,
    claims_exactly_once: bool,
    hazards: Hazards,
    kind: View,
}

enum View {
    Suite { column: Option<&'static str> },
    Floor,
}

impl ArmView {
    fn of<S>(spec: &'static ArmSpec<S>) -> Self {
        let kind = match &spec.kind {
            Kind::Suite { column, .. } => View::Suite { column: *column },
            Kind::Floor { .. } => View::Floor,
        };
        Self { name: spec.name, claims_exactly_once: spec.claims_exactly_once, hazards: spec.hazards, kind }
    }
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Arm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_test_modules_are_derived_from_names_and_builds() {
        let naive = |arm| Arm::Iceberg(arm);
        assert_eq!(naive(IcebergArm::NaiveStock).label(), "iceberg-naive");
        assert_eq!(naive(IcebergArm::NaivePatched).label(), "iceberg-naive@patched");
        assert_eq!(naive(IcebergArm::NaiveStock).test_module(), "iceberg_naive_stock");
        assert_eq!(naive(IcebergArm::NaivePatched).test_module(), "iceberg_naive_patched");
        assert_eq!(Arm::Iceberg(IcebergArm::CatalogGuard).test_module(), "iceberg_catalog_guard");
        // On another release, the build is in both, so the 0.10.1 arms keep their names.
        assert_eq!(Arm::Iceberg(IcebergArm::NaiveStock011).test_module(), "iceberg_naive_stock_0_11_0");
        assert_eq!(Arm::Iceberg(IcebergArm::CatalogGuardStock011).label(), "iceberg-catalog-guard@stock-0.11.0");
        assert_eq!(Arm::Iceberg(IcebergArm::CatalogGuard).label(), "iceberg-catalog-guard");
        assert_eq!(Arm::Delta(DeltaArm::Delta).test_module(), "delta");
        for arm in Arm::all() {
            assert_eq!(Arm::labelled(&arm.label()), Some(arm), "{arm}");
        }
    }

    #[test]
    fn the_matrix_and_the_kill_list_keep_their_order() {
        let suite: Vec<String> = Arm::suite().map(Arm::label).collect();
        assert_eq!(
            suite,
            [
                "delta",
                "iceberg-naive",
                "iceberg-catalog-guard",
                "iceberg-file-key",
                "iceberg-action",
                "iceberg-requirement",
                "iceberg-validator",
                "iceberg-snapshot-id",
                "iceberg-no-rebase",
                "iceberg-validator-first-on-base",
                "as-flink",
                "as-arroyo",
                "as-kafka-connect",
                "as-materialize",
                "iceberg-naive@patched",
                "iceberg-naive@stock-0.11.0",
                "iceberg-catalog-guard@stock-0.11.0",
            ]
        );
        let columns: Vec<&str> = Arm::columns().into_iter().map(|(arm, _)| arm.name()).collect();
        assert_eq!(
            columns,
            [
                "iceberg-naive",
                "iceberg-catalog-guard",
                "iceberg-file-key",
                "iceberg-action",
                "iceberg-requirement",
                "iceberg-validator",
                "iceberg-snapshot-id",
                "iceberg-no-rebase",
                "delta"
            ]
        );
    }
}

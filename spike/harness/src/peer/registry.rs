//! The peers' registry: each peer a process speaking `docs/peer-protocol.md`, in some runtime,
//! with some library. Adding a peer is its implementation of the protocol and one entry here.

use crate::arms::Hazards;
use crate::catalogs::CatalogKind;
use crate::interop::Runtime;
use crate::registry::registry;
use crate::scenario::Scenario;
use crate::target::Format;

/// What the registry says of a peer (and what `verdict --peer NAME=COMMAND` says of a user's).
#[derive(Debug)]
pub struct PeerSpec {
    /// As the tests, `verdict`, `stress --peer` and FINDINGS.md spell it; what `serve` is given.
    pub name: &'static str,
    /// The format of the tables it writes.
    pub format: Format,
    /// Whether the peer claims at most one commit per `(app, epoch)` under races: the suite holds
    /// it to its claim, as it holds an arm.
    pub claims_exactly_once: bool,
    /// Where a peer that claims exactly-once is known to fail (or one that does not, to fail to
    /// duplicate), and why: asserted, as for an arm.
    pub hazards: Hazards,
    /// The catalogs its hazards were measured on and hold on (`None`: every one it reaches); on
    /// another it is held to its claim.
    pub hazards_on: Option<&'static [CatalogKind]>,
    /// The library it commits with (its version: [`PeerSpec::version`]).
    pub library: &'static str,
    pub runtime: Runtime,
    /// The catalogs its library reaches a table on from another process (`memory` is one
    /// process's). Empty for Delta, whose log on the local file system is its catalog.
    pub catalogs: &'static [CatalogKind],
    /// The scenarios it cannot run, and why. Every other one runs as on the Rust arms.
    pub not_applicable: &'static [(Scenario, &'static str)],
}

const PEER_FAILPOINTS: (Scenario, &str) = (
    Scenario::AbortedCommitLosesNothing,
    "its failpoints are in the Rust write path; a peer dies by SIGKILL in the mixed race instead",
);
const PEER_OUTAGES: (Scenario, &str) = (
    Scenario::CatalogUnavailable,
    "its outages are made on a Rust writer's own catalog connection (a lock it takes, the fault proxy, its credentials)",
);
const PEER_PROXY: (Scenario, &str) =
    (Scenario::LostResponse, "the fault proxy sits in front of the Rust writers' REST client only");

/// What no peer can run: the faults act on the Rust writer's own connection, failpoints and proxy.
const PEER_FAULTS: &[(Scenario, &str)] = &[PEER_OUTAGES, PEER_FAILPOINTS, PEER_PROXY];

/// Why `go-iceberg-naive` does not commit twice when held (after its check, at the swap, past a
/// rewrite, as a zombie): what iceberg-go's SQL catalog does with a stale append.
const GO_SQL_NO_RETRY: &str = "iceberg-go 0.7.0's SQL catalog refuses the stale append's own `main` requirement, checked before its conditional UPDATE, with an error that is not ErrCommitFailed, so the library's retry (which would replay the append onto the winner) never runs and the writer, looking, is told the epoch; it duplicates only when the UPDATE itself loses the race (ErrCommitFailed, then replayed), as in `contention_probe`'s free races";

/// pyiceberg on the SQLite file and the REST servers (PostgreSQL would need a driver the venv
/// does not install).
const PYICEBERG: &[CatalogKind] = &[CatalogKind::Sqlite, CatalogKind::Rest];

/// The SQL catalogs: iceberg-go's SQL catalog on the SQLite file and the PostgreSQL server.
const SQL_CATALOGS: &[CatalogKind] = &[CatalogKind::Sqlite, CatalogKind::Postgres];

/// Every catalog another process reaches: the SQLite file, the PostgreSQL server, and the REST
/// servers with their warehouse on S3.
const SHARED_CATALOGS: &[CatalogKind] =
    &[CatalogKind::Sqlite, CatalogKind::Postgres, CatalogKind::Rest, CatalogKind::Rustberg, CatalogKind::RestFixture];

/// Where the JVM and Go peers run: their SQL catalogs on the SQLite file and the PostgreSQL server
/// (Iceberg Java's JDBC catalog, iceberg-go's SQL catalog), and their REST catalogs against Iceberg
/// Java's own REST server (S3FileIO; iceberg-go's S3 IO). Both clients also reach `rest` and
/// `rustberg` (FINDINGS.md has a run on `rest`); the test command runs them on one REST server, the
/// reference one, to keep its time.
const JVM_AND_GO_CATALOGS: &[CatalogKind] = &[CatalogKind::Sqlite, CatalogKind::Postgres, CatalogKind::RestFixture];

registry! {
    /// The peers this project measures.
    pub enum Peer: PeerSpec {
        /// pyiceberg: load, check, append with the library's retry as the table configures it.
        PyicebergNaive => PeerSpec {
            name: "pyiceberg-naive", format: Format::Iceberg, claims_exactly_once: false, hazards: Hazards::NONE, hazards_on: None,
            library: "pyiceberg", runtime: Runtime::Python, catalogs: PYICEBERG, not_applicable: PEER_FAULTS,
        },
        /// pyiceberg: the library's retry off for its own commits; on `CommitFailedException` it
        /// reloads, checks again and retries (the Python twin of `iceberg-requirement`).
        PyicebergOwnedLoop => PeerSpec {
            name: "pyiceberg-owned-loop", format: Format::Iceberg, claims_exactly_once: true, hazards: Hazards::NONE, hazards_on: None,
            library: "pyiceberg", runtime: Runtime::Python, catalogs: PYICEBERG, not_applicable: PEER_FAULTS,
        },
        /// Iceberg Java: load, check, then the append with `validateWith(SnapshotAncestryValidator)`
        /// over the epoch, which the library runs on every base it applies the append to.
        JavaIcebergValidator => PeerSpec {
            name: "java-iceberg-validator", format: Format::Iceberg, claims_exactly_once: true, hazards: Hazards::NONE, hazards_on: None,
            library: "iceberg-java", runtime: Runtime::Jvm, catalogs: JVM_AND_GO_CATALOGS, not_applicable: PEER_FAULTS,
        },
        /// Iceberg Java: check once, then the append with the library's retry (Flink `IcebergSink`'s
        /// shape).
        JavaIcebergNaive => PeerSpec {
            name: "java-iceberg-naive", format: Format::Iceberg, claims_exactly_once: false, hazards: Hazards::NONE, hazards_on: None,
            library: "iceberg-java", runtime: Runtime::Jvm, catalogs: JVM_AND_GO_CATALOGS, not_applicable: PEER_FAULTS,
        },
        /// iceberg-go: load, check, then the append in a transaction that asserts `main` at the
        /// loaded head (`Transaction.AssertRefSnapshotID`); on `ErrCommitFailed` it reloads, checks
        /// again and retries (the Go twin of `iceberg-requirement`).
        GoIcebergAssertRef => PeerSpec {
            name: "go-iceberg-assert-ref", format: Format::Iceberg, claims_exactly_once: true, hazards: Hazards::NONE, hazards_on: None,
            library: "iceberg-go", runtime: Runtime::Go, catalogs: JVM_AND_GO_CATALOGS, not_applicable: PEER_FAULTS,
        },
        /// iceberg-go: check once, then the append with the library's retry, which replays it onto
        /// the refreshed head.
        GoIcebergNaive => PeerSpec {
            name: "go-iceberg-naive", format: Format::Iceberg, claims_exactly_once: false,
            hazards: Hazards {
                fails_in: &[
                    (Scenario::HeldWindow, GO_SQL_NO_RETRY),
                    (Scenario::HeldAtSwap, GO_SQL_NO_RETRY),
                    (Scenario::EpochsSurviveRewrite, GO_SQL_NO_RETRY),
                    (Scenario::ZombieOtherBatch, GO_SQL_NO_RETRY),
                ],
                stalls: None,
            },
            hazards_on: Some(SQL_CATALOGS),
            library: "iceberg-go", runtime: Runtime::Go, catalogs: JVM_AND_GO_CATALOGS, not_applicable: PEER_FAULTS,
        },
        /// `write_deltalake` with a `txn` (`CommitProperties(app_transactions=...)`) on the table
        /// the version was read from; on `CommitFailedError` it reloads and checks again.
        DeltalakePython => PeerSpec {
            name: "deltalake-python", format: Format::Delta, claims_exactly_once: true, hazards: Hazards::NONE, hazards_on: None,
            library: "deltalake", runtime: Runtime::Python, catalogs: &[],
            not_applicable: &[
                PEER_OUTAGES,
                PEER_FAILPOINTS,
                PEER_PROXY,
                (Scenario::HeldAtSwap, "delta-rs attempts the log's next version inside its Rust commit, which no Python hook reaches"),
            ],
        },
    }
}

impl PeerSpec {
    /// A user's peer, `verdict --peer NAME=COMMAND`: `COMMAND` (a shell command) speaks the
    /// protocol for an Iceberg sink named `NAME` that claims exactly-once, on the catalogs another
    /// process reaches with nothing but a file (`sqlite`) or a server (`postgres`, `rest`,
    /// `rustberg`, `rest-fixture`). What it cannot run is what no peer can. Made once per process, so leaked.
    pub fn user(name: &str, command: &str) -> &'static PeerSpec {
        Box::leak(Box::new(PeerSpec {
            name: Box::leak(name.into()),
            format: Format::Iceberg,
            claims_exactly_once: true,
            hazards: Hazards::NONE,
            hazards_on: None,
            library: "user's command",
            runtime: Runtime::Command(Box::leak(command.into())),
            catalogs: SHARED_CATALOGS,
            not_applicable: PEER_FAULTS,
        }))
    }

    /// The library's version, as `interop/requirements.txt`, `interop/java/pom.xml` or
    /// `interop/go/go.mod` pins it; `None` for a user's command, which pins its own.
    pub fn version(&self) -> Option<&'static str> {
        let pinned = match self.runtime {
            Runtime::Python => crate::interop::REQUIREMENTS
                .lines()
                .filter(|line| line.starts_with(self.library))
                .find_map(|line| line.split_once("==").map(|(_, version)| version.trim()))
                .expect("interop/requirements.txt pins every Python peer's library"),
            Runtime::Jvm => crate::interop::JAVA_POM
                .split_once("<iceberg.version>")
                .and_then(|(_, rest)| rest.split_once("</iceberg.version>"))
                .map(|(version, _)| version.trim())
                .expect("interop/java/pom.xml pins Iceberg Java"),
            Runtime::Go => crate::interop::GO_MOD
                .lines()
                .find_map(|line| line.trim().strip_prefix("github.com/apache/iceberg-go v"))
                .expect("interop/go/go.mod pins iceberg-go"),
            Runtime::Command(_) => return None,
        };
        Some(pinned)
    }

    /// Why the scenario cannot run on this peer, if it cannot.
    pub fn not_applicable(&self, scenario: Scenario) -> Option<&'static str> {
        self.not_applicable.iter().find(|(s, _)| *s == scenario).map(|(_, why)| *why)
    }

    /// Why the scenario's body must fail on this peer on `catalog`, if it must
    /// ([`Hazards::fails_in`], where its hazards hold).
    pub fn fails_in(&self, scenario: Scenario, catalog: Option<CatalogKind>) -> Option<&'static str> {
        let holds = match (self.hazards_on, catalog) {
            (Some(on), Some(catalog)) => on.contains(&catalog),
            _ => true,
        };
        let hazard = self.hazards.fails_in.iter().find(|(s, _)| *s == scenario);
        hazard.filter(|_| holds).map(|(_, why)| *why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_peer_names_its_pinned_library() {
        assert_eq!(Peer::PyicebergNaive.spec().version(), Some("0.12.0"));
        assert_eq!(Peer::DeltalakePython.spec().version(), Some("1.6.6"));
        assert_eq!(Peer::JavaIcebergValidator.spec().version(), Some("1.12.0"));
        assert_eq!(Peer::GoIcebergAssertRef.spec().version(), Some("0.7.0"));
        assert_eq!(PeerSpec::user("mine", "./my-sink").version(), None);
    }

    #[test]
    fn a_hazard_holds_only_on_the_catalogs_it_was_measured_on() {
        let naive = Peer::GoIcebergNaive.spec();
        assert!(naive.fails_in(Scenario::HeldWindow, Some(CatalogKind::Sqlite)).is_some());
        assert!(naive.fails_in(Scenario::HeldWindow, Some(CatalogKind::Postgres)).is_some());
        assert_eq!(naive.fails_in(Scenario::HeldWindow, Some(CatalogKind::Rest)), None);
        assert_eq!(naive.fails_in(Scenario::ReplayWritesNothing, Some(CatalogKind::Sqlite)), None);
    }

    #[test]
    fn no_peer_bears_an_arms_name() {
        for peer in Peer::ALL {
            assert!(crate::Arm::all().all(|arm| arm.name() != peer.name()), "{peer}");
        }
    }

    #[test]
    fn scenarios_a_peer_cannot_run_are_named_with_the_reason() {
        let user = PeerSpec::user("mine", "./my-sink");
        for spec in Peer::ALL.iter().map(|peer| peer.spec()).chain([user]) {
            for scenario in [Scenario::CatalogUnavailable, Scenario::AbortedCommitLosesNothing, Scenario::LostResponse]
            {
                assert!(spec.not_applicable(scenario).is_some(), "{} {scenario}", spec.name);
            }
            for scenario in [Scenario::ReplayWritesNothing, Scenario::HeldWindow, Scenario::ContentionProbe] {
                assert_eq!(spec.not_applicable(scenario), None, "{} {scenario}", spec.name);
            }
        }
        assert!(Peer::DeltalakePython.spec().not_applicable(Scenario::HeldAtSwap).is_some());
        assert_eq!(Peer::PyicebergOwnedLoop.spec().not_applicable(Scenario::HeldAtSwap), None);
    }
}

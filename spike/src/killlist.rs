//! The kill list, decided from a `verdict` run and from the arms' own source: one cell per kill
//! condition and arm, each "triggered", "not triggered" or "not yet", with the names of the tests
//! that decide it.
//!
//! Conditions 1 to 3 are decided by what the suite's bodies observed in the run just made, on
//! every catalog of the arm: an arm is exactly-once when every body ran as recorded, the held
//! window held on every catalog, and no body saw an `(app, epoch)` committed twice. Condition 4 is
//! decided by reading the arm's own files ([`footprint`]). The rules are in [`decide`]; nothing
//! here names an outcome per arm. FINDINGS.md carries [`render`]'s table between [`BEGIN`] and
//! [`END`], and `verdict --check FINDINGS.md` fails when the two differ.
//!
//! Limits: "not triggered" for condition 2 rests on the construction of the fixtures (a sink gets
//! a catalog and a warehouse directory, nothing else), and for condition 4 on a scan of source
//! text for the extension points and write-path internals listed in [`EXTENSION_POINTS`] and
//! [`WRITE_PATH_INTERNALS`]; the stress runs and the benchmarks corroborate but are not re-run.

use std::collections::BTreeMap;
use std::fmt;

use crate::arms::{Arm, Build, CatalogKind, Target};
use crate::verdict::{Cell, Report};

/// Where FINDINGS.md's generated table starts and ends.
pub const BEGIN: &str =
    "<!-- verdict --markdown: begin (generated; `verdict --check FINDINGS.md` fails if edited) -->";
pub const END: &str = "<!-- verdict --markdown: end -->";

/// The four conditions under which the answer is "no" for Iceberg, as README.md states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    DestinationSpecific,
    ExternalStore,
    SpecGap,
    OwnsWritePath,
}

impl Kill {
    pub const ALL: [Kill; 4] = [
        Kill::DestinationSpecific,
        Kill::ExternalStore,
        Kill::SpecGap,
        Kill::OwnsWritePath,
    ];

    pub fn statement(self) -> &'static str {
        match self {
            Kill::DestinationSpecific => {
                "1. needs a destination-specific architecture, not the same `CommitSink` shape as Delta"
            }
            Kill::ExternalStore => {
                "2. needs an external transactional store to make the epoch check atomic with the commit"
            }
            Kill::SpecGap => "3. cannot express the commit at all, and the gap is in the specification",
            Kill::OwnsWritePath => "4. owns more than a trait's worth of the write path",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Triggered,
    NotTriggered,
    /// Condition 3's exemption: the gap is in the implementation, not in the specification.
    NotYet,
    /// A body errored, misreported or deviated from its recorded expectation: no evidence.
    Undecided,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Triggered => "triggered",
            Status::NotTriggered => "not triggered",
            Status::NotYet => "not yet",
            Status::Undecided => "UNDECIDED",
        })
    }
}

/// A column of the matrix: one arm, which is one build's way of carrying the epoch.
pub struct Column {
    pub title: &'static str,
    pub arm: Arm,
}

pub const COLUMNS: [Column; 6] = [
    Column {
        title: "stock naive (`iceberg-naive`)",
        arm: Arm::IcebergNaive(Build::Stock),
    },
    Column {
        title: "stock catalog guard (`iceberg-catalog-guard`)",
        arm: Arm::IcebergCatalogGuard,
    },
    Column {
        title: "patch 1 (`iceberg-action`)",
        arm: Arm::IcebergAction,
    },
    Column {
        title: "patch 2 (`iceberg-requirement`)",
        arm: Arm::IcebergRequirement,
    },
    Column {
        title: "patch 3 (`iceberg-validator`)",
        arm: Arm::IcebergValidator,
    },
    Column {
        title: "Delta (`delta`, the control)",
        arm: Arm::Delta,
    },
];

/// The test that runs `scenario` on `target`: `spike/tests/crash.rs` for the failpoint body,
/// `spike/tests/peers.rs` for a peer's, `spike/tests/suite.rs` for the others, each
/// `<arm>::<catalog>::<scenario>`. The tests assert that they bear this name.
pub fn test_name(target: Target, scenario: &str) -> String {
    let module = match target.arm {
        Arm::IcebergNaive(build) => format!("iceberg_naive_{}", build.name()),
        arm => arm.name().replace('-', "_"),
    };
    let binary = match target.arm {
        Arm::Peer(_) => "peers",
        _ if scenario == "aborted_commit_loses_nothing" => "crash",
        _ => "suite",
    };
    match target.catalog {
        None => format!("{binary}::{module}::{scenario}"),
        Some(c) => format!("{binary}::{module}::{}::{scenario}", c.name()),
    }
}

/// An extension point of a table library, and the source text that shows an arm uses it.
pub struct ExtensionPoint {
    pub name: &'static str,
    pub markers: &'static [&'static str],
}

/// Every hook an arm could use to carry the check. "A trait's worth" is one of them.
pub const EXTENSION_POINTS: [ExtensionPoint; 5] = [
    ExtensionPoint {
        name: "`Catalog` decorator",
        markers: &["impl Catalog for"],
    },
    ExtensionPoint {
        name: "`TransactionAction`",
        markers: &["TransactionAction for"],
    },
    ExtensionPoint {
        name: "`Transaction::assert_ref_snapshot_id`",
        markers: &[".assert_ref_snapshot_id("],
    },
    ExtensionPoint {
        name: "`TransactionValidator`",
        markers: &["TransactionValidator for", ".validate_with("],
    },
    ExtensionPoint {
        name: "Delta `txn`",
        markers: &[".with_application_transaction("],
    },
];

/// What producing a commit consists of, below the extension points: an arm that names one of
/// these builds part of the write path itself.
pub const WRITE_PATH_INTERNALS: [&str; 7] = [
    "TableCommit::builder",
    "ManifestWriter",
    "ManifestListWriter",
    "SnapshotProducer",
    "TableMetadataBuilder",
    "Snapshot::builder",
    "write_commit_entry",
];

/// The files an arm adds to carry its check: its strategy, plus what exists only for it.
/// Shared code every arm runs (the `IcebergSink`, writing Parquet, the epoch lookup) is not
/// counted; for Delta the whole sink is, since it has no shared part.
pub fn files(arm: Arm) -> &'static [(&'static str, &'static str)] {
    match arm {
        Arm::Delta => &[("spike/src/delta.rs", include_str!("delta.rs"))],
        Arm::IcebergNaive(_) => &[("spike/src/iceberg/naive.rs", include_str!("iceberg/naive.rs"))],
        Arm::IcebergCatalogGuard => &[
            (
                "spike/src/stock/catalog_guard.rs",
                include_str!("stock/catalog_guard.rs"),
            ),
            (
                "spike/src/iceberg/commit_catalog.rs",
                include_str!("iceberg/commit_catalog.rs"),
            ),
        ],
        Arm::IcebergAction => &[("spike/src/patched/action.rs", include_str!("patched/action.rs"))],
        Arm::IcebergRequirement => &[
            (
                "spike/src/patched/requirement.rs",
                include_str!("patched/requirement.rs"),
            ),
            ("spike/src/retry.rs", include_str!("retry.rs")),
        ],
        Arm::IcebergValidator => &[(
            "spike/src/patched/validator.rs",
            include_str!("patched/validator.rs"),
        )],
        Arm::DeltaPlain | Arm::IcebergUnguarded | Arm::Peer(_) => &[],
    }
}

/// What an arm's own files hold, read from their source.
#[derive(Debug, PartialEq, Eq)]
pub struct Footprint {
    pub files: Vec<&'static str>,
    /// Lines that are neither blank nor comments, tests excluded.
    pub code_lines: usize,
    pub extension_points: Vec<&'static str>,
    pub internals: Vec<&'static str>,
}

/// The lines of `source` that are code: no blank lines, no comments, nothing from `#[cfg(test)]` on.
fn code(source: &str) -> impl Iterator<Item = &str> {
    source
        .lines()
        .map(str::trim)
        .take_while(|line| *line != "#[cfg(test)]")
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
}

pub fn footprint_of(files: &[(&'static str, &'static str)]) -> Footprint {
    let lines: Vec<&str> = files.iter().flat_map(|(_, source)| code(source)).collect();
    let names = |line_holds: &dyn Fn(&str) -> bool| lines.iter().any(|line| line_holds(line));
    Footprint {
        files: files.iter().map(|(path, _)| *path).collect(),
        code_lines: lines.len(),
        extension_points: EXTENSION_POINTS
            .iter()
            .filter(|point| names(&|line| point.markers.iter().any(|m| line.contains(m))))
            .map(|point| point.name)
            .collect(),
        internals: WRITE_PATH_INTERNALS
            .into_iter()
            .filter(|item| names(&|line| line.contains(item)))
            .collect(),
    }
}

pub fn footprint(arm: Arm) -> Footprint {
    footprint_of(files(arm))
}

/// What one arm's bodies observed, on every catalog it ran on.
struct Observed<'a> {
    cells: Vec<&'a Cell>,
    /// The catalogs of the run.
    catalogs: &'a [CatalogKind],
}

fn duplicated(cell: &Cell) -> bool {
    let f = &cell.finding;
    let distinct: std::collections::BTreeSet<_> = f.committed.iter().collect();
    distinct.len() < f.committed.len() || f.contention.as_ref().is_some_and(|c| c.duplicated > 0)
}

/// The bodies whose interleaving is forced (a held window, failpoints), so that the same code
/// decides them the same way in every run. The unforced races (`concurrent_writers_commit_once`,
/// `contention_probe`) count against an arm when they duplicate but are not cited, since whether
/// an unguarded race duplicates varies run to run.
const FORCED: [&str; 3] = ["held_window", "held_at_swap", "aborted_commit_loses_nothing"];

impl<'a> Observed<'a> {
    fn of(report: &'a Report, arm: Arm) -> Self {
        let cells = report.cells.iter().filter(|c| c.target.arm == arm).collect();
        Self { cells, catalogs: &report.catalogs }
    }

    fn broken(&self) -> Vec<&'a Cell> {
        self.cells.iter().copied().filter(|c| !c.finding.passed).collect()
    }

    fn duplicates(&self) -> Vec<&'a Cell> {
        self.cells.iter().copied().filter(|c| duplicated(c)).collect()
    }

    /// The duplicates to cite: the forced ones if there are any.
    fn cited_duplicates(&self) -> Vec<&'a Cell> {
        let dups = self.duplicates();
        let forced: Vec<&Cell> = dups
            .iter()
            .copied()
            .filter(|c| FORCED.contains(&c.finding.scenario))
            .collect();
        if forced.is_empty() { dups } else { forced }
    }

    fn held_everywhere(&self, arm: Arm) -> bool {
        Target::on(arm, self.catalogs).into_iter().all(|target| {
            self.cells
                .iter()
                .any(|c| c.target == target && c.finding.scenario == "held_window")
        })
    }

    /// Every body ran as recorded, the held window held on every catalog, no duplicate anywhere.
    fn exactly_once(&self, arm: Arm) -> bool {
        !self.cells.is_empty()
            && self.broken().is_empty()
            && self.duplicates().is_empty()
            && self.held_everywhere(arm)
    }

    fn of_scenarios(&self, scenarios: &[&str]) -> Vec<&'a Cell> {
        self.cells
            .iter()
            .copied()
            .filter(|c| scenarios.contains(&c.finding.scenario))
            .collect()
    }
}


/// One decided cell of the matrix.
#[derive(Debug, PartialEq, Eq)]
pub struct Decision {
    pub status: Status,
    /// Test names, catalogs folded into `*` where a body decided on every catalog.
    pub tests: Vec<String>,
    pub because: String,
}

/// Test names for `cells`, with one name per body when it ran on every catalog of the run.
fn names(cells: &[&Cell], catalogs: &[CatalogKind]) -> Vec<String> {
    let mut by_body: BTreeMap<(String, &str), Vec<Target>> = BTreeMap::new();
    for cell in cells {
        let any = Target {
            arm: cell.target.arm,
            catalog: cell.target.catalog.map(|_| CatalogKind::Memory),
        };
        by_body
            .entry((test_name(any, cell.finding.scenario), cell.finding.scenario))
            .or_default()
            .push(cell.target);
    }
    let mut out = vec![];
    for ((_, scenario), targets) in by_body {
        let all = Target::on(targets[0].arm, catalogs);
        if targets.len() > 1 && all.iter().all(|t| targets.contains(t)) {
            let name = test_name(targets[0], scenario);
            let catalog = targets[0].catalog.map_or("", CatalogKind::name);
            out.push(name.replacen(&format!("::{catalog}::"), "::*::", 1));
        } else {
            out.extend(targets.iter().map(|t| test_name(*t, scenario)));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Every body of the arm: its module of the suite, and of the failpoint tests.
fn whole_arm(cells: &[&Cell], catalogs: &[CatalogKind]) -> Vec<String> {
    let mut out: Vec<String> = names(cells, catalogs)
        .into_iter()
        .map(|name| {
            let mut parts = name.splitn(3, "::");
            let (binary, module) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
            format!("{binary}::{module}::*")
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn decision(status: Status, cells: &[&Cell], catalogs: &[CatalogKind], because: impl Into<String>) -> Decision {
    Decision {
        status,
        tests: names(cells, catalogs),
        because: because.into(),
    }
}

/// The rules. For an arm whose bodies errored or deviated, conditions 1 to 3 are undecided.
/// 1 and 2: not triggered when the arm is exactly-once through the one `CommitSink` on the catalog
///    alone; triggered when a body committed an epoch twice (its check is not atomic with the
///    commit, so that design would need something outside the table, or another shape).
/// 3: not triggered when exactly-once; for an arm that duplicates, "not yet" when another Iceberg
///    arm holds on the same catalogs (the spec's requirements and swap suffice; the missing piece
///    is in iceberg-rust's API), triggered when none does.
/// 4: triggered when the arm's own files build a write-path internal or use more than one
///    extension point.
pub fn decide(report: &Report, arm: Arm, kill: Kill) -> Decision {
    let seen = Observed::of(report, arm);
    if kill == Kill::OwnsWritePath {
        let fp = footprint(arm);
        let points = if fp.extension_points.is_empty() {
            "no extension point".to_string()
        } else {
            fp.extension_points.join(" + ")
        };
        let summary = format!("{}: {} lines, {points}", fp.files.join(" + "), fp.code_lines);
        return if !fp.internals.is_empty() {
            Decision {
                status: Status::Triggered,
                tests: vec![],
                because: format!("{summary}; builds {}", fp.internals.join(", ")),
            }
        } else if fp.extension_points.len() > 1 {
            Decision {
                status: Status::Triggered,
                tests: vec![],
                because: format!("{summary}: more than one"),
            }
        } else {
            Decision {
                status: Status::NotTriggered,
                tests: vec![],
                because: format!("{summary}, builds no commit internals"),
            }
        };
    }
    let broken = seen.broken();
    let dups = seen.duplicates();
    let cats = report.catalogs.as_slice();
    if !broken.is_empty() && dups.is_empty() || seen.cells.is_empty() {
        return decision(Status::Undecided, &broken, cats, "bodies did not run as recorded");
    }
    let once = seen.exactly_once(arm);
    match kill {
        Kill::DestinationSpecific if once => Decision {
            status: Status::NotTriggered,
            tests: whole_arm(&seen.cells, cats),
            because: "exactly-once in every body, through `CommitSink` alone".into(),
        },
        Kill::ExternalStore if once => decision(
            Status::NotTriggered,
            &seen.of_scenarios(&FORCED),
            cats,
            "both held windows and every crash point held on the catalog alone",
        ),
        Kill::SpecGap if once => decision(
            Status::NotTriggered,
            &seen.of_scenarios(&["held_window"]),
            cats,
            "expressed",
        ),
        Kill::DestinationSpecific | Kill::ExternalStore if !dups.is_empty() => decision(
            Status::Triggered,
            &seen.cited_duplicates(),
            cats,
            "an epoch committed twice",
        ),
        Kill::SpecGap if !dups.is_empty() => {
            let holders: Vec<Arm> = Arm::ALL
                .into_iter()
                .filter(|other| *other != arm && other.build().is_some())
                .filter(|other| Observed::of(report, *other).exactly_once(*other))
                .collect();
            let mut cells = seen.cited_duplicates();
            cells.extend(
                holders
                    .iter()
                    .flat_map(|other| Observed::of(report, *other).of_scenarios(&["held_window"])),
            );
            if holders.is_empty() {
                decision(
                    Status::Triggered,
                    &cells,
                    cats,
                    "no Iceberg arm holds on these catalogs",
                )
            } else {
                let by: Vec<&str> = holders.iter().map(|a| a.name()).collect();
                decision(
                    Status::NotYet,
                    &cells,
                    cats,
                    format!("duplicates, but {} hold on the same catalogs", by.join(", ")),
                )
            }
        }
        _ => decision(Status::Undecided, &broken, cats, "bodies did not run as recorded"),
    }
}

/// The answer for a column: "yes" when no condition is triggered, undecided or "not yet".
pub fn answer(decisions: &[Decision]) -> &'static str {
    if decisions.iter().all(|d| d.status == Status::NotTriggered) {
        "**yes**"
    } else if decisions.iter().any(|d| d.status == Status::Undecided) {
        "**UNDECIDED**"
    } else {
        "**no**"
    }
}

/// The matrix as the Markdown table FINDINGS.md carries between [`BEGIN`] and [`END`].
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    out.push_str("| kill condition |");
    for column in &COLUMNS {
        out.push_str(&format!(" {} |", column.title));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(COLUMNS.len()));
    out.push('\n');
    let decided: Vec<Vec<Decision>> = COLUMNS
        .iter()
        .map(|c| Kill::ALL.iter().map(|k| decide(report, c.arm, *k)).collect())
        .collect();
    for (k, kill) in Kill::ALL.iter().enumerate() {
        out.push_str(&format!("| {} |", kill.statement()));
        for column in &decided {
            let d = &column[k];
            let tests = if d.tests.is_empty() {
                String::new()
            } else {
                format!(
                    "; {}",
                    d.tests
                        .iter()
                        .map(|t| format!("`{t}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push_str(&format!(" **{}**: {}{tests} |", d.status, d.because));
        }
        out.push('\n');
    }
    out.push_str("| **answer** |");
    for column in &decided {
        out.push_str(&format!(" {} |", answer(column)));
    }
    out.push('\n');
    out
}

/// The generated table FINDINGS.md holds, or why it holds none.
pub fn recorded(findings: &str) -> Result<&str, String> {
    let start = findings.find(BEGIN).ok_or_else(|| format!("no line {BEGIN}"))? + BEGIN.len();
    let end = findings[start..]
        .find(END)
        .ok_or_else(|| format!("no line {END} after the start"))?
        + start;
    Ok(findings[start..end].trim_matches('\n'))
}

/// `None` when FINDINGS.md's table is the one `report` renders; otherwise what differs.
pub fn drift(findings: &str, report: &Report) -> Option<String> {
    let expected = render(report);
    let recorded = match recorded(findings) {
        Ok(recorded) => recorded,
        Err(why) => return Some(why),
    };
    if recorded == expected.trim_matches('\n') {
        return None;
    }
    let mut out = String::from("the kill-list table in FINDINGS.md differs from this run:\n");
    for (i, (was, now)) in recorded.lines().zip(expected.lines()).enumerate() {
        if was != now {
            out.push_str(&format!(
                "line {}:\n  FINDINGS.md: {was}\n  this run:    {now}\n",
                i + 1
            ));
        }
    }
    let (a, b) = (recorded.lines().count(), expected.lines().count());
    if a != b {
        out.push_str(&format!("FINDINGS.md has {a} lines, this run {b}\n"));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::{Contention, Finding, SCENARIOS};

    fn cell(target: Target, scenario: &'static str, committed: &[&str]) -> Cell {
        Cell {
            target,
            arm: target.arm.name(),
            build: target.build_name(),
            catalog: target.catalog_name(),
            finding: Finding {
                scenario,
                passed: true,
                expected: String::new(),
                observed: String::new(),
                committed: committed.iter().map(|s| s.to_string()).collect(),
                rows: 0,
                rows_expected: 0,
                contention: (scenario == "contention_probe").then_some(Contention {
                    rounds: 4,
                    overlapped: 4,
                    duplicated: 0,
                }),
            },
            table: None,
        }
    }

    /// Every arm exactly-once on every catalog, except those listed, whose held window duplicated.
    fn report(duplicating: &[Arm]) -> Report {
        let mut cells = vec![];
        for target in Target::all() {
            for scenario in SCENARIOS {
                let committed: &[&str] = if scenario == "held_window" && duplicating.contains(&target.arm) {
                    &["a:1", "a:1"]
                } else {
                    &["a:1"]
                };
                cells.push(cell(target, scenario, committed));
            }
        }
        Report {
            probe_rounds: 4,
            catalogs: CatalogKind::ALL.to_vec(),
            cells,
        }
    }

    fn status(report: &Report, arm: Arm, kill: Kill) -> Status {
        decide(report, arm, kill).status
    }

    const NAIVE: [Arm; 2] = [Arm::IcebergNaive(Build::Stock), Arm::IcebergNaive(Build::Patched)];

    #[test]
    fn a_duplicate_triggers_one_and_two_and_makes_three_not_yet_while_another_arm_holds() {
        let r = report(&NAIVE);
        let naive = Arm::IcebergNaive(Build::Stock);
        assert_eq!(status(&r, naive, Kill::DestinationSpecific), Status::Triggered);
        assert_eq!(status(&r, naive, Kill::ExternalStore), Status::Triggered);
        assert_eq!(status(&r, naive, Kill::SpecGap), Status::NotYet);
        for kill in [Kill::DestinationSpecific, Kill::ExternalStore, Kill::SpecGap] {
            assert_eq!(status(&r, Arm::IcebergValidator, kill), Status::NotTriggered);
        }
    }

    #[test]
    fn three_is_triggered_when_no_iceberg_arm_holds() {
        let all_iceberg: Vec<Arm> = Arm::ALL.into_iter().filter(|a| a.build().is_some()).collect();
        let r = report(&all_iceberg);
        assert_eq!(
            status(&r, Arm::IcebergValidator, Kill::SpecGap),
            Status::Triggered
        );
        assert_eq!(status(&r, Arm::Delta, Kill::SpecGap), Status::NotTriggered);
    }

    #[test]
    fn a_deviating_body_leaves_the_arm_undecided() {
        let mut r = report(&NAIVE);
        let held = r
            .cells
            .iter_mut()
            .find(|c| c.target.arm == Arm::IcebergAction && c.finding.scenario == "held_window");
        held.expect("cell").finding.passed = false;
        assert_eq!(
            status(&r, Arm::IcebergAction, Kill::DestinationSpecific),
            Status::Undecided
        );
    }

    #[test]
    fn an_unforced_duplicate_counts_but_only_forced_ones_are_cited() {
        let mut r = report(&NAIVE);
        let race = r
            .cells
            .iter_mut()
            .find(|c| c.target.arm == Arm::IcebergAction && c.finding.scenario == "contention_probe");
        race.and_then(|c| c.finding.contention.as_mut())
            .expect("probe")
            .duplicated = 1;
        let action = decide(&r, Arm::IcebergAction, Kill::DestinationSpecific);
        assert_eq!(action.status, Status::Triggered);
        assert_eq!(
            action.tests,
            vec!["suite::iceberg_action::memory::contention_probe".to_string()]
        );
        let naive = decide(&r, Arm::IcebergNaive(Build::Stock), Kill::DestinationSpecific);
        assert_eq!(
            naive.tests,
            vec!["suite::iceberg_naive_stock::*::held_window".to_string()]
        );
    }

    #[test]
    fn four_counts_extension_points_and_internals() {
        let one = footprint_of(&[("a.rs", "impl TransactionAction for X {}\n// impl Catalog for Y\n")]);
        assert_eq!(one.extension_points, vec!["`TransactionAction`"]);
        assert_eq!(one.code_lines, 1);
        let two = footprint_of(&[
            ("a.rs", "impl Catalog for Y {}\n"),
            ("b.rs", "tx.assert_ref_snapshot_id(r)\n"),
        ]);
        assert_eq!(two.extension_points.len(), 2);
        let owns = footprint_of(&[(
            "a.rs",
            "let c = TableCommit::builder();\n#[cfg(test)]\nManifestWriter\n",
        )]);
        assert_eq!(owns.internals, vec!["TableCommit::builder"]);
    }

    #[test]
    fn drift_names_the_line_that_changed() {
        let r = report(&NAIVE);
        let table = render(&r);
        let findings = format!("# F\n{BEGIN}\n{table}{END}\nrest\n");
        assert_eq!(drift(&findings, &r), None);
        let edited = findings.replacen("**not yet**", "**not triggered**", 1);
        let why = drift(&edited, &r).expect("an edit is drift");
        assert!(why.contains("line 5"), "{why}");
        assert!(drift("no markers", &r).is_some());
    }
}

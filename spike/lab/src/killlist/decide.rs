//! The rules that decide each cell of the kill list.

use std::collections::BTreeMap;

use barrier_harness::{Arm, CatalogKind, Scenario, Target};
use barrier_sink::{ExtensionPoint, Measured};

use super::{Kill, Status};
use crate::names;
use crate::verdict::{Cell, Report};

/// One decided cell of the kill list.
#[derive(Debug, PartialEq, Eq)]
pub struct Decision {
    pub status: Status,
    /// Test names, catalogs folded into `*` where a body decided on every catalog.
    pub tests: Vec<String>,
    pub because: String,
}

/// Every extension point of the two formats: "a trait's worth" is one of them.
fn extension_points() -> Vec<&'static ExtensionPoint> {
    barrier_iceberg::EXTENSION_POINTS.into_iter().chain(barrier_delta::EXTENSION_POINTS).collect()
}

/// What producing a commit consists of below the extension points, in either format.
fn write_path_internals() -> Vec<&'static str> {
    barrier_iceberg::WRITE_PATH_INTERNALS.into_iter().chain(barrier_delta::WRITE_PATH_INTERNALS).collect()
}

/// The arm's declared footprint, measured.
pub fn footprint(arm: Arm) -> Option<Measured> {
    Some(arm.footprint()?.measure(&extension_points(), &write_path_internals()))
}

/// What one arm's bodies observed, on every catalog it ran on.
struct Observed<'a> {
    arm: Arm,
    cells: Vec<&'a Cell>,
    /// The catalogs of the run.
    catalogs: &'a [CatalogKind],
}

impl<'a> Observed<'a> {
    fn of(report: &'a Report, arm: Arm) -> Self {
        let cells = report.cells.iter().filter(|c| c.target.arm() == Some(arm)).collect();
        Self { arm, cells, catalogs: &report.catalogs }
    }

    fn broken(&self) -> Vec<&'a Cell> {
        self.cells.iter().copied().filter(|c| !c.finding.passed).collect()
    }

    fn duplicates(&self) -> Vec<&'a Cell> {
        self.cells.iter().copied().filter(|c| c.finding.duplicated()).collect()
    }

    /// The duplicates to cite: the forced ones if there are any. The unforced races
    /// (`concurrent_writers_commit_once`, `contention_probe`) count against an arm when they
    /// duplicate but are not cited, since whether an unguarded race duplicates varies run to run.
    fn cited_duplicates(&self) -> Vec<&'a Cell> {
        let dups = self.duplicates();
        let forced: Vec<&Cell> = dups.iter().copied().filter(|c| c.finding.scenario.spec().forced).collect();
        if forced.is_empty() { dups } else { forced }
    }

    fn held_everywhere(&self) -> bool {
        Target::on(self.arm, self.catalogs)
            .into_iter()
            .all(|target| self.cells.iter().any(|c| c.target == target && c.finding.scenario == Scenario::HeldWindow))
    }

    /// Every body ran as recorded, the held window held on every catalog, no duplicate anywhere.
    fn exactly_once(&self) -> bool {
        !self.cells.is_empty() && self.broken().is_empty() && self.duplicates().is_empty() && self.held_everywhere()
    }

    fn of_scenarios(&self, keep: impl Fn(Scenario) -> bool) -> Vec<&'a Cell> {
        self.cells.iter().copied().filter(|c| keep(c.finding.scenario)).collect()
    }
}

/// Test names for `cells`, with one name per body when it ran on every catalog of the run.
fn names(cells: &[&Cell], catalogs: &[CatalogKind]) -> Vec<String> {
    let mut by_body: BTreeMap<(Arm, Scenario), Vec<Target>> = BTreeMap::new();
    for cell in cells {
        if let Some(arm) = cell.target.arm() {
            by_body.entry((arm, cell.finding.scenario)).or_default().push(cell.target);
        }
    }
    let mut out = vec![];
    for ((arm, scenario), targets) in by_body {
        let all = Target::on(arm, catalogs);
        if targets.len() > 1 && all.iter().all(|t| targets.contains(t)) {
            let name = names::test(targets[0], scenario);
            let catalog = targets[0].catalog().map_or("", CatalogKind::name);
            out.push(name.replacen(&format!("::{catalog}::"), "::*::", 1));
        } else {
            out.extend(targets.iter().map(|t| names::test(*t, scenario)));
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
    Decision { status, tests: names(cells, catalogs), because: because.into() }
}

/// Condition 4: triggered when the arm's own files build a write-path internal or use more than
/// one extension point.
fn owns_write_path(arm: Arm) -> Decision {
    let Some(fp) = footprint(arm) else {
        return Decision { status: Status::Undecided, tests: vec![], because: "no code of this project's".into() };
    };
    let points =
        if fp.extension_points.is_empty() { "no extension point".to_string() } else { fp.extension_points.join(" + ") };
    let summary = format!("{}: {} lines, {points}", fp.files.join(" + "), fp.code_lines);
    let (status, because) = if !fp.internals.is_empty() {
        (Status::Triggered, format!("{summary}; builds {}", fp.internals.join(", ")))
    } else if fp.extension_points.len() > 1 {
        (Status::Triggered, format!("{summary}: more than one"))
    } else {
        (Status::NotTriggered, format!("{summary}, builds no commit internals"))
    };
    Decision { status, tests: vec![], because }
}

/// Condition 3 for an arm that duplicates: "not yet" when another Iceberg arm holds on the same
/// catalogs (the spec's requirements and swap suffice; the missing piece is in iceberg-rust's
/// API), triggered when none does.
fn spec_gap(report: &Report, seen: &Observed) -> Decision {
    let holders: Vec<Arm> = Arm::suite()
        .filter(|other| *other != seen.arm && other.build().is_some())
        .filter(|other| Observed::of(report, *other).exactly_once())
        .collect();
    let mut cells = seen.cited_duplicates();
    cells.extend(
        holders.iter().flat_map(|other| Observed::of(report, *other).of_scenarios(|s| s == Scenario::HeldWindow)),
    );
    if holders.is_empty() {
        return decision(Status::Triggered, &cells, seen.catalogs, "no Iceberg arm holds on these catalogs");
    }
    let by: Vec<String> = holders.iter().map(|a| a.label()).collect();
    decision(
        Status::NotYet,
        &cells,
        seen.catalogs,
        format!("duplicates, but {} hold on the same catalogs", by.join(", ")),
    )
}

/// The rules. For an arm whose bodies errored or deviated, conditions 1 to 3 are undecided.
/// 1 and 2: not triggered when the arm is exactly-once through the one `CommitSink` on the catalog
///    alone; triggered when a body committed an epoch twice (its check is not atomic with the
///    commit, so that design would need something outside the table, or another shape).
/// 3: not triggered when exactly-once; otherwise [`spec_gap`].
/// 4: [`owns_write_path`].
pub fn decide(report: &Report, arm: Arm, kill: Kill) -> Decision {
    if kill == Kill::OwnsWritePath {
        return owns_write_path(arm);
    }
    let seen = Observed::of(report, arm);
    let (broken, dups, cats) = (seen.broken(), seen.duplicates(), seen.catalogs);
    if !broken.is_empty() && dups.is_empty() || seen.cells.is_empty() {
        return decision(Status::Undecided, &broken, cats, "bodies did not run as recorded");
    }
    match (kill, seen.exactly_once()) {
        (Kill::DestinationSpecific, true) => Decision {
            status: Status::NotTriggered,
            tests: whole_arm(&seen.cells, cats),
            because: "exactly-once in every body, through `CommitSink` alone".into(),
        },
        (Kill::ExternalStore, true) => decision(
            Status::NotTriggered,
            &seen.of_scenarios(|s| s.spec().forced),
            cats,
            "both held windows and every crash point held on the catalog alone",
        ),
        (Kill::SpecGap, true) => {
            decision(Status::NotTriggered, &seen.of_scenarios(|s| s == Scenario::HeldWindow), cats, "expressed")
        }
        (Kill::DestinationSpecific | Kill::ExternalStore, false) if !dups.is_empty() => {
            decision(Status::Triggered, &seen.cited_duplicates(), cats, "an epoch committed twice")
        }
        (Kill::SpecGap, false) if !dups.is_empty() => spec_gap(report, &seen),
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

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// Every Rust source file under `dir`.
    fn sources(dir: &Path) -> Vec<PathBuf> {
        let mut out = vec![];
        for entry in std::fs::read_dir(dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                out.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
        out
    }

    /// Condition 4 measures what each arm declares beside its code; the declaration must agree
    /// with the code. Each arm's declared files show its declared extension point and no other,
    /// and build no commit internal; and every file of the formats that shows an extension
    /// point's markers is declared by an arm that uses that point (so that moving an arm's code
    /// to another file cannot take it out of the measurement). The files that define the points'
    /// markers are not uses.
    #[test]
    fn every_footprint_is_what_its_code_shows() {
        let mut declared: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for arm in Arm::all() {
            let Some(fp) = arm.footprint() else { continue };
            let measured = fp.measure(&extension_points(), &write_path_internals());
            let point: Vec<&str> = fp.extension_point.iter().map(|p| p.name).collect();
            assert_eq!(
                measured.extension_points, point,
                "{arm}: its files show other extension points than it declares"
            );
            assert!(measured.internals.is_empty(), "{arm} builds {:?}", measured.internals);
            for file in fp.files {
                declared.entry(file.path).or_default().extend(point.iter().copied());
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let definitions = ["spike/iceberg/src/extension_points.rs", "spike/delta/src/extension_points.rs"];
        // Code of the harness's environment, not of an arm: what it uses carries no arm's check.
        let environment = [(
            "spike/iceberg/src/patched/publish.rs",
            "another writer's rewrite of the table's data (`epochs_survive_rewrite`), sent through patch 1's public action",
        )];
        for dir in ["spike/iceberg/src", "spike/delta/src", "spike/sink/src"] {
            for path in sources(&root.join(dir)) {
                let relative = path.strip_prefix(&root).expect("under the root").to_string_lossy().into_owned();
                if definitions.contains(&relative.as_str()) || environment.iter().any(|(file, _)| *file == relative) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("readable");
                for point in extension_points().into_iter().filter(|p| p.shown_in(&text)) {
                    let by = declared.get(relative.as_str()).map(Vec::as_slice).unwrap_or_default();
                    assert!(
                        by.contains(&point.name),
                        "{relative} shows {} but no arm using it declares the file",
                        point.name
                    );
                }
            }
        }
    }
}

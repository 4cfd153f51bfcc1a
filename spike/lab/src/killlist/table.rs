//! The kill list as the Markdown table FINDINGS.md carries, and the check that it still does.

use barrier_harness::Arm;

use super::Kill;
use super::decide::{Decision, answer, decide};
use crate::verdict::Report;

/// Where FINDINGS.md's generated table starts and ends.
pub const BEGIN: &str = "<!-- verdict --markdown: begin (generated; `verdict --check FINDINGS.md` fails if edited) -->";
pub const END: &str = "<!-- verdict --markdown: end -->";

/// The kill list as the Markdown table FINDINGS.md carries between [`BEGIN`] and [`END`].
pub fn render(report: &Report) -> String {
    let columns = Arm::columns();
    let mut out = String::from("| kill condition |");
    for (_, title) in &columns {
        out.push_str(&format!(" {title} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    let decided: Vec<Vec<Decision>> =
        columns.iter().map(|(arm, _)| Kill::ALL.iter().map(|k| decide(report, *arm, *k)).collect()).collect();
    for (k, kill) in Kill::ALL.iter().enumerate() {
        out.push_str(&format!("| {} |", kill.statement()));
        for column in &decided {
            let d = &column[k];
            let tests: Vec<String> = d.tests.iter().map(|t| format!("`{t}`")).collect();
            let tests = if tests.is_empty() { String::new() } else { format!("; {}", tests.join(", ")) };
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
    let end = findings[start..].find(END).ok_or_else(|| format!("no line {END} after the start"))? + start;
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
            out.push_str(&format!("line {}:\n  FINDINGS.md: {was}\n  this run:    {now}\n", i + 1));
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
    use barrier_harness::suite::{Commit, Contention, Finding};
    use barrier_harness::{CatalogKind, IcebergArm, Scenario, Target};
    use barrier_sink::{AppId, Epoch};

    use super::super::Status;
    use super::super::decide::{decide, footprint};
    use super::*;
    use crate::verdict::Cell;

    fn cell(target: Target, scenario: Scenario, commits: usize) -> Cell {
        let commit = Commit { app: AppId::new("a").unwrap(), epoch: Epoch::new(1).unwrap() };
        let contention =
            (scenario == Scenario::ContentionProbe).then_some(Contention { rounds: 4, overlapped: 4, duplicated: 0 });
        let finding = Finding {
            scenario,
            passed: true,
            not_applicable: None,
            expected: String::new(),
            observed: String::new(),
            committed: vec![commit; commits],
            rows: 0,
            rows_expected: 0,
            contention,
        };
        Cell::new(target, finding, None)
    }

    /// Every arm exactly-once on every catalog, except those listed, whose held window duplicated.
    fn report(duplicating: &[Arm]) -> Report {
        let catalogs = CatalogKind::embedded();
        let mut cells = vec![];
        for target in Target::suite(&catalogs) {
            for &scenario in Scenario::ALL {
                let twice =
                    scenario == Scenario::HeldWindow && target.arm().is_some_and(|arm| duplicating.contains(&arm));
                cells.push(cell(target, scenario, if twice { 2 } else { 1 }));
            }
        }
        Report { probe_rounds: 4, catalogs, cells }
    }

    fn status(report: &Report, arm: Arm, kill: Kill) -> Status {
        decide(report, arm, kill).status
    }

    const NAIVE: [Arm; 2] = [Arm::Iceberg(IcebergArm::NaiveStock), Arm::Iceberg(IcebergArm::NaivePatched)];
    const VALIDATOR: Arm = Arm::Iceberg(IcebergArm::Validator);

    #[test]
    fn a_duplicate_triggers_one_and_two_and_makes_three_not_yet_while_another_arm_holds() {
        let r = report(&NAIVE);
        assert_eq!(status(&r, NAIVE[0], Kill::DestinationSpecific), Status::Triggered);
        assert_eq!(status(&r, NAIVE[0], Kill::ExternalStore), Status::Triggered);
        assert_eq!(status(&r, NAIVE[0], Kill::SpecGap), Status::NotYet);
        for kill in [Kill::DestinationSpecific, Kill::ExternalStore, Kill::SpecGap] {
            assert_eq!(status(&r, VALIDATOR, kill), Status::NotTriggered);
        }
    }

    #[test]
    fn three_is_triggered_when_no_iceberg_arm_holds() {
        let all_iceberg: Vec<Arm> = Arm::suite().filter(|a| a.build().is_some()).collect();
        let r = report(&all_iceberg);
        assert_eq!(status(&r, VALIDATOR, Kill::SpecGap), Status::Triggered);
        assert_eq!(status(&r, Arm::Delta(barrier_harness::DeltaArm::Delta), Kill::SpecGap), Status::NotTriggered);
    }

    #[test]
    fn a_deviating_body_leaves_the_arm_undecided() {
        let mut r = report(&NAIVE);
        let action = Arm::Iceberg(IcebergArm::Action);
        let held =
            r.cells.iter_mut().find(|c| c.target.arm() == Some(action) && c.finding.scenario == Scenario::HeldWindow);
        held.expect("cell").finding.passed = false;
        assert_eq!(status(&r, action, Kill::DestinationSpecific), Status::Undecided);
    }

    #[test]
    fn an_unforced_duplicate_counts_but_only_forced_ones_are_cited() {
        let mut r = report(&NAIVE);
        let action = Arm::Iceberg(IcebergArm::Action);
        let race = r
            .cells
            .iter_mut()
            .find(|c| c.target.arm() == Some(action) && c.finding.scenario == Scenario::ContentionProbe);
        race.and_then(|c| c.finding.contention.as_mut()).expect("probe").duplicated = 1;
        let decided = decide(&r, action, Kill::DestinationSpecific);
        assert_eq!(decided.status, Status::Triggered);
        assert_eq!(decided.tests, vec!["suite::iceberg_action::memory::contention_probe".to_string()]);
        let naive = decide(&r, NAIVE[0], Kill::DestinationSpecific);
        assert_eq!(naive.tests, vec!["suite::iceberg_naive_stock::*::held_window".to_string()]);
    }

    #[test]
    fn four_measures_each_arms_declared_footprint() {
        let validator = footprint(VALIDATOR).expect("a sink of this project");
        assert_eq!(validator.extension_points, vec!["`SnapshotAncestryValidator`"]);
        assert!(validator.internals.is_empty());
        assert_eq!(footprint(NAIVE[0]).expect("a sink").extension_points, Vec::<&str>::new());
        assert_eq!(footprint(Arm::Iceberg(IcebergArm::Unguarded)), None, "a floor carries no check");
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

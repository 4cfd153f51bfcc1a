//! The main job: every scenario on every arm and catalog, on fresh tables, as one matrix.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::arms::Target;
use crate::catalogs::CatalogKind;
use crate::fixture::{Fixture, TableLocation};
use crate::progress::Progress;
use crate::suite::{self, Contention, Finding, SCENARIOS};

#[derive(Clone, Debug)]
pub struct Options {
    /// Leave every table under this directory and write `manifest.json` there.
    pub keep: Option<PathBuf>,
    pub probe_rounds: usize,
    /// The catalogs the Iceberg arms run on.
    pub catalogs: Vec<CatalogKind>,
}

/// One cell of the matrix.
#[derive(Debug, Serialize)]
pub struct Cell {
    #[serde(skip)]
    pub target: Target,
    pub arm: &'static str,
    pub build: &'static str,
    pub catalog: &'static str,
    #[serde(flatten)]
    pub finding: Finding,
    pub table: Option<TableLocation>,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub probe_rounds: usize,
    pub catalogs: Vec<CatalogKind>,
    pub cells: Vec<Cell>,
}

impl Report {
    /// Every cell did what its arm is recorded to do.
    pub fn as_expected(&self) -> bool {
        self.cells.iter().all(|c| c.finding.passed)
    }
}

fn slug(target: Target) -> String {
    target.to_string().replace('/', "-")
}

async fn run_cell(target: Target, scenario: &'static str, dir: &Path, rounds: usize) -> Cell {
    let outcome = async {
        let fixture = Fixture::create(target, dir).await?;
        let finding = suite::run(scenario, &fixture, rounds).await?;
        let table = fixture.location().await.ok();
        Ok::<_, crate::SinkError>((finding, table))
    }
    .await;
    let (finding, table) = outcome.unwrap_or_else(|err| {
        let finding = Finding {
            scenario,
            passed: false,
            expected: "the scenario runs".into(),
            observed: format!("error: {err}"),
            committed: vec![],
            rows: 0,
            rows_expected: 0,
            contention: None,
        };
        (finding, None)
    });
    Cell {
        target,
        arm: target.arm.name(),
        build: target.build_name(),
        catalog: target.catalog_name(),
        finding,
        table,
    }
}

/// Runs the matrix, reporting each cell to `progress` in a few words (the whole finding goes to
/// `--json` and `--keep`'s manifest).
pub async fn run(options: &Options, progress: &mut Progress) -> std::io::Result<Report> {
    let scratch = tempfile::tempdir()?;
    let root = options.keep.clone().unwrap_or_else(|| scratch.path().to_path_buf());
    let targets = Target::all_on(&options.catalogs);
    let mut cells = vec![];
    for target in targets {
        for scenario in SCENARIOS {
            progress.begin(&format!("{target} {scenario}"));
            let dir = root.join(slug(target)).join(scenario);
            let cell = run_cell(target, scenario, &dir, options.probe_rounds).await;
            progress.finish(1, &format!("{target} {scenario}: {}", cell.finding.brief()));
            cells.push(cell);
        }
    }
    let report = Report {
        probe_rounds: options.probe_rounds,
        catalogs: options.catalogs.clone(),
        cells,
    };
    if let Some(keep) = &options.keep {
        std::fs::write(keep.join("manifest.json"), serde_json::to_vec_pretty(&manifest(&report))?)?;
    }
    Ok(report)
}

/// How many cells [`run`] makes: the total its progress counts to.
pub fn cells(options: &Options) -> u64 {
    (Target::all_on(&options.catalogs).len() * SCENARIOS.len()) as u64
}

/// What `--keep DIR` leaves in `DIR/manifest.json`: every table, where it is and what it holds.
fn manifest(report: &Report) -> serde_json::Value {
    serde_json::json!({
        "tables": report.cells.iter().map(|c| serde_json::json!({
            "arm": c.arm,
            "build": c.build,
            "catalog": c.catalog,
            "scenario": c.finding.scenario,
            "table": c.table,
            "epochs_committed": c.finding.committed,
            "rows_expected": c.finding.rows_expected,
            "rows": c.finding.rows,
            "outcome": if c.finding.passed { "as expected" } else { "unexpected" },
            "observed": c.finding.observed,
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn has_duplicates(committed: &[String]) -> bool {
    let distinct: std::collections::BTreeSet<_> = committed.iter().collect();
    distinct.len() < committed.len()
}

/// The matrix as text: one row per arm, build and catalog; one column per scenario.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let label = |c: &Cell| format!("{} ({}, {})", c.arm, c.build, c.catalog);
    let width = report.cells.iter().map(|c| label(c).len()).max().unwrap_or(0);
    out.push_str(&format!("{:width$}", "arm (build, catalog)"));
    for (i, _) in SCENARIOS.iter().enumerate() {
        out.push_str(&format!("  {:>4}", format!("S{}", i + 1)));
    }
    out.push_str("  probe: overlapped/rounds, duplicated\n");
    for row in report.cells.chunks(SCENARIOS.len()) {
        out.push_str(&format!("{:width$}", label(&row[0])));
        for cell in row {
            let mark = match (cell.finding.passed, has_duplicates(&cell.finding.committed)) {
                (false, _) => "FAIL",
                (true, true) => "dup",
                (true, false) if cell.finding.expected == "not applicable" => "n/a",
                (true, false) => "ok",
            };
            out.push_str(&format!("  {mark:>4}"));
        }
        if let Some(Contention { rounds, overlapped, duplicated }) =
            row.iter().find_map(|c| c.finding.contention.clone())
        {
            out.push_str(&format!("  {overlapped}/{rounds}, {duplicated}"));
        }
        out.push('\n');
    }
    out.push('\n');
    for (i, scenario) in SCENARIOS.iter().enumerate() {
        out.push_str(&format!("S{} = {scenario}\n", i + 1));
    }
    out.push_str("ok = as the arm claims; dup = the duplicate the arm is expected to make (asserted); FAIL = not as recorded\n\n");
    for row in report.cells.chunks(SCENARIOS.len()) {
        let head = &row[0];
        let all = row.iter().all(|c| c.finding.passed);
        let held = row.iter().find(|c| c.finding.scenario == "held_window");
        let verdict = match (all, head.arm) {
            (false, _) => "DEVIATES from its recorded expectation".to_string(),
            (true, "iceberg-naive") => format!(
                "no exactly-once: the held window duplicated ({})",
                held.map_or("-", |c| c.finding.observed.as_str())
            ),
            (true, _) => "exactly-once held in every scenario".to_string(),
        };
        out.push_str(&format!("{}: {verdict}\n", label(head)));
    }
    out
}

//! The main job: every scenario on every arm and catalog, on fresh tables, as one matrix; and on
//! the peers asked for (`--peer`), as rows of the same matrix that the kill list does not read.

use std::path::{Path, PathBuf};

use barrier_harness::location::TableLocation;
use barrier_harness::suite::{self, Contention, Finding};
use barrier_harness::{Arm, CatalogKind, Error, Fixture, LOCAL_FS, Peer, PeerSpec, Scenario, Target};
use serde::Serialize;

use crate::progress::Progress;

#[derive(Clone, Debug)]
pub struct Options {
    /// Leave every table under this directory and write `manifest.json` there.
    pub keep: Option<PathBuf>,
    pub probe_rounds: usize,
    /// The catalogs the Iceberg arms run on.
    pub catalogs: Vec<CatalogKind>,
    /// Whether the suite's arms run (without them there is no kill list to decide).
    pub arms: bool,
    /// Peers judged beside the arms, each on those of `catalogs` it reaches.
    pub peers: Vec<&'static PeerSpec>,
}

impl Options {
    /// Every target of the run: the suite's arms, then the peers.
    fn targets(&self) -> Vec<Target> {
        let peers = self.peers.iter().flat_map(|peer| Target::peer_on(peer, &self.catalogs));
        let arms = if self.arms { Target::suite(&self.catalogs) } else { vec![] };
        arms.into_iter().chain(peers).collect()
    }
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

impl Cell {
    pub fn new(target: Target, finding: Finding, table: Option<TableLocation>) -> Self {
        Self { target, arm: target.name(), build: target.build_name(), catalog: target.catalog_name(), finding, table }
    }

    /// `arm (build, catalog)`: a row's label.
    fn label(&self) -> String {
        format!("{} ({}, {})", self.arm, self.build, self.catalog)
    }
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

async fn run_cell(target: Target, scenario: Scenario, dir: &Path, rounds: usize) -> Cell {
    let outcome = async {
        let fixture = Fixture::create(target, dir).await?;
        let finding = suite::run(scenario, &fixture, rounds).await?;
        let table = fixture.location().await.ok();
        Ok::<_, Error>((finding, table))
    }
    .await;
    let (finding, table) = outcome.unwrap_or_else(|err| (Finding::failed(scenario, &err), None));
    Cell::new(target, finding, table)
}

/// Runs the matrix, reporting each cell to `progress` in a few words (the whole finding goes to
/// `--json` and `--keep`'s manifest).
pub async fn run(options: &Options, progress: &mut Progress) -> std::io::Result<Report> {
    let scratch = tempfile::tempdir()?;
    let root = options.keep.clone().unwrap_or_else(|| scratch.path().to_path_buf());
    let mut cells = vec![];
    for target in options.targets() {
        for &scenario in Scenario::ALL {
            progress.begin(&format!("{target} {scenario}"));
            let dir = root.join(target.slug()).join(scenario.name());
            let cell = run_cell(target, scenario, &dir, options.probe_rounds).await;
            progress.finish(1, &format!("{target} {scenario}: {}", cell.finding.brief()));
            cells.push(cell);
        }
    }
    let report = Report { probe_rounds: options.probe_rounds, catalogs: options.catalogs.clone(), cells };
    if let Some(keep) = &options.keep {
        write_manifest(&report, &keep.join("manifest.json"))?;
    }
    Ok(report)
}

/// The binaries whose saved results hold the suite's cells (`barrier_lab::record`).
const SAVED: [&str; 2] = ["suite", "crash"];

/// The matrix a test run saved under `dir` (`$BARRIER_RESULTS`: `suite.jsonl`, `crash.jsonl`),
/// instead of running it again: every arm's cell on each of `catalogs`, each of which must be
/// there (a cell the run left to the full run, or never saved, is an error, not a gap); with
/// `catalogs` `None`, every saved cell, in the order saved.
pub fn saved(dir: &Path, catalogs: Option<&[CatalogKind]>) -> Result<Report, String> {
    let mut found = vec![];
    for binary in SAVED {
        let path = dir.join(format!("{binary}.jsonl"));
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (n, line) in text.lines().enumerate() {
            let bad = |why: String| format!("{}:{}: {why}", path.display(), n + 1);
            let line: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let cell = &line["cell"];
            let (label, catalog) = (line["label"].as_str().unwrap_or(""), cell["catalog"].as_str().unwrap_or(""));
            let target = target_of(label, catalog).ok_or_else(|| bad(format!("no target {label} on {catalog}")))?;
            let finding: Finding = serde_json::from_value(cell.clone()).map_err(|e| bad(e.to_string()))?;
            let table: Option<TableLocation> =
                serde_json::from_value(cell["table"].clone()).map_err(|e| bad(e.to_string()))?;
            found.push(Cell::new(target, finding, table));
        }
    }
    let Some(catalogs) = catalogs else {
        return Ok(Report { probe_rounds: suite::PROBE_ROUNDS, catalogs: CatalogKind::ALL.to_vec(), cells: found });
    };
    let mut cells = vec![];
    for target in Target::suite(catalogs) {
        for &scenario in Scenario::ALL {
            let at = found.iter().position(|c| c.target == target && c.finding.scenario == scenario);
            let cell = at
                .map(|i| found.swap_remove(i))
                .ok_or_else(|| format!("{} holds no saved result of {target} {scenario}", dir.display()))?;
            cells.push(cell);
        }
    }
    Ok(Report { probe_rounds: suite::PROBE_ROUNDS, catalogs: catalogs.to_vec(), cells })
}

/// The target a saved cell names: an arm by its label (`Arm::label`) or a peer by its name, on
/// its catalog (`local-fs` for Delta).
fn target_of(label: &str, catalog: &str) -> Option<Target> {
    let catalog = match catalog {
        LOCAL_FS => None,
        name => Some(CatalogKind::named(name)?),
    };
    match (Arm::labelled(label), catalog) {
        (Some(arm @ Arm::Delta(_)), None) => Some(Target::on(arm, &[]).remove(0)),
        (Some(arm @ Arm::Iceberg(_)), Some(catalog)) => Some(Target::with_catalog(arm, catalog)),
        (Some(_), _) => None,
        (None, catalog) => Target::peer(Peer::named(label)?.spec(), catalog).ok(),
    }
}

/// Writes `report`'s cells that kept their table to `file`, as `--keep`'s `manifest.json`.
pub fn write_manifest(report: &Report, file: &Path) -> std::io::Result<()> {
    std::fs::write(file, serde_json::to_vec_pretty(&manifest(report))?)
}

/// How many cells [`run`] makes: the total its progress counts to.
pub fn cells(options: &Options) -> u64 {
    (options.targets().len() * Scenario::ALL.len()) as u64
}

/// What `--keep DIR` leaves in `DIR/manifest.json`: every table, where it is and what it holds.
fn manifest(report: &Report) -> serde_json::Value {
    serde_json::json!({
        "tables": report.cells.iter().filter(|c| c.table.is_some()).map(|c| serde_json::json!({
            "arm": c.arm,
            "build": c.build,
            "catalog": c.catalog,
            "scenario": c.finding.scenario,
            "table": c.table,
            "epochs_committed": c.finding.committed,
            "rows_expected": c.finding.rows_expected,
            "rows": c.finding.rows,
            "outcome": if c.finding.passed { "as expected" } else { "unexpected" },
            "known_failure": c.finding.not_applicable.is_none().then(|| c.target.fails_in(c.finding.scenario)).flatten(),
            "observed": c.finding.observed,
        })).collect::<Vec<_>>(),
    })
}

/// A cell's mark in the matrix (the legend under it says what each means).
fn mark(cell: &Cell) -> &'static str {
    let finding = &cell.finding;
    finding.mark(finding.not_applicable.is_none() && cell.target.fails_in(finding.scenario).is_some())
}

/// The matrix as text: one row per arm, build and catalog; one column per scenario.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let width = report.cells.iter().map(|c| c.label().len()).max().unwrap_or(0);
    out.push_str(&format!("{:width$}", "arm (build, catalog)"));
    for i in 0..Scenario::ALL.len() {
        out.push_str(&format!("  {:>4}", format!("S{}", i + 1)));
    }
    out.push_str("  probe: overlapped/rounds, duplicated\n");
    let rows: Vec<&[Cell]> = report.cells.chunks(Scenario::ALL.len()).collect();
    for row in &rows {
        out.push_str(&format!("{:width$}", row[0].label()));
        for cell in *row {
            out.push_str(&format!("  {:>4}", mark(cell)));
        }
        let probe = row.iter().find(|c| c.finding.scenario == Scenario::ContentionProbe);
        if let Some(Contention { rounds, overlapped, duplicated }) = probe.and_then(|c| c.finding.contention.clone()) {
            out.push_str(&format!("  {overlapped}/{rounds}, {duplicated}"));
        }
        out.push('\n');
    }
    out.push('\n');
    for (i, scenario) in Scenario::ALL.iter().enumerate() {
        out.push_str(&format!("S{} = {scenario}\n", i + 1));
    }
    out.push_str(
        "ok = as the arm claims; dup = a duplicate: where the arm claims exactly-once, one it is known to make \
         (asserted); where it claims nothing, asserted in the forced bodies (S6, S7, S13, S14), reported in the \
         free races (S4, S5); bad = another failure the arm is known for (asserted); n/a = the \
         scenario does not apply; FAIL = not as recorded, or a free race whose writers never overlapped (not \
         evidence: S4 races again until they do, at most 8 rounds; S5 must overlap in some of its 40)\n\n",
    );
    for row in &rows {
        let head = &row[0];
        let held = row.iter().find(|c| c.finding.scenario == Scenario::HeldWindow);
        let verdict = if !row.iter().all(|c| c.finding.passed) {
            "DEVIATES from its recorded expectation".to_string()
        } else if !head.target.claims_exactly_once() {
            format!(
                "no exactly-once: the held window duplicated ({})",
                held.map_or("-", |c| c.finding.observed.as_str())
            )
        } else {
            let known: Vec<String> = row
                .iter()
                .filter(|c| c.finding.not_applicable.is_none() && head.target.fails_in(c.finding.scenario).is_some())
                .map(|c| c.finding.scenario.to_string())
                .collect();
            if known.is_empty() {
                "exactly-once held in every scenario".to_string()
            } else {
                format!("exactly-once held in every scenario but its known failures, asserted: {}", known.join(", "))
            }
        };
        out.push_str(&format!("{}: {verdict}\n", head.label()));
    }
    out
}

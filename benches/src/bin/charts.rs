//! `charts`: draws the figures FINDINGS.md shows beside its tables, from a run's saved results,
//! as SVG files (pure Rust, `plotters`; no gnuplot):
//!
//! - `throughput.svg`: batches per second against writers for every arm, on distinct and on
//!   one shared epoch (Criterion's `contention/*` estimates);
//! - `instructions.svg`: instructions per commit against table history for every arm and the
//!   floor (`instructions --out`'s counts);
//! - `duplicates.svg`: duplicates per 1000 attempts per arm and catalog (`stress --json` outputs).
//!
//! Each chart names the run its data came from (commit, date, machine).
//!
//! ```text
//! charts [--criterion DIR] [--instructions FILE] [--stress FILE]... [--out DIR]
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use barrier_harness::run::RunInfo;
use plotters::prelude::*;
use serde_json::Value;

const WIDTH: u32 = 900;
const HEIGHT: u32 = 520;

/// One line of a chart: a name and its points.
struct Line {
    name: String,
    points: Vec<(f64, f64)>,
}

fn colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    PALETTE[i % PALETTE.len()]
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Lines on a log-x axis (the x values are counts that double: writers, history sizes).
fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    run: &str,
    panels: &[(&str, Vec<Line>)],
) -> Drawn {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT * panels.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let (body, footer) = root.split_vertically(HEIGHT * panels.len() as u32 - 24);
    footer.draw(&Text::new(format!("run: {run}"), (10, 4), ("sans-serif", 13).into_font().color(&BLACK.mix(0.7))))?;
    for (area, (panel, lines)) in body.split_evenly((panels.len(), 1)).iter().zip(panels) {
        let xs = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
        let ys = lines.iter().flat_map(|l| l.points.iter().map(|p| p.1));
        let (x_min, x_max) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let y_max = ys.fold(0.0f64, f64::max) * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(format!("{title}{panel}"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d((x_min.max(1e-9)..x_max * 1.05).log_scale(), 0.0..y_max.max(1e-9))?;
        chart.configure_mesh().x_desc(x_label).y_desc(y_label).draw()?;
        for (i, line) in lines.iter().enumerate() {
            let style = ShapeStyle::from(colour(i)).stroke_width(2);
            chart
                .draw_series(LineSeries::new(line.points.clone(), style))?
                .label(&line.name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
            chart.draw_series(line.points.iter().map(|p| Circle::new(*p, 3, colour(i).filled())))?;
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    }
    root.present()?;
    Ok(())
}

/// Bars per group (arms), one bar per series (catalogs) in each.
fn bar_chart(
    path: &Path,
    title: &str,
    y_label: &str,
    run: &str,
    groups: &[String],
    series: &[(String, Vec<f64>)],
) -> Drawn {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (body, footer) = root.split_vertically(HEIGHT - 24);
    footer.draw(&Text::new(format!("run: {run}"), (10, 4), ("sans-serif", 13).into_font().color(&BLACK.mix(0.7))))?;
    let y_max =
        series.iter().flat_map(|(_, v)| v.iter().copied()).filter(|v| !v.is_nan()).fold(0.0f64, f64::max).max(1.0)
            * 1.15;
    let mut chart = ChartBuilder::on(&body)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..groups.len() as f64, 0.0..y_max)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(groups.len() * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - x.floor() - 0.5).abs() < 0.01 { groups.get(i).cloned().unwrap_or_default() } else { String::new() }
        })
        .y_desc(y_label)
        .draw()?;
    let width = 0.8 / series.len().max(1) as f64;
    for (s, (name, values)) in series.iter().enumerate() {
        let colour = colour(s);
        let left = |g: usize| g as f64 + 0.1 + s as f64 * width;
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_nan())
                    .map(|(g, v)| Rectangle::new([(left(g), 0.0), (left(g) + width * 0.9, *v)], colour.filled())),
            )?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        // The value over every bar: a zero is a measurement; a combination not run (NaN) has
        // neither bar nor value.
        chart.draw_series(values.iter().enumerate().filter(|(_, v)| !v.is_nan()).map(|(g, v)| {
            Text::new(format!("{v:.0}"), (left(g) + width * 0.2, *v + y_max * 0.04), ("sans-serif", 11).into_font())
        }))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The run a result names (`run` in the JSON), else the one in `<file>.run.json` beside it.
fn run_of(path: &Path, value: &Value) -> Result<RunInfo, String> {
    let run = match value.get("run") {
        Some(run) => run.clone(),
        None => read_json(&PathBuf::from(format!("{}.run.json", path.display())))?,
    };
    serde_json::from_value(run).map_err(|e| format!("{}: run: {e}", path.display()))
}

/// Every Criterion benchmark under `dir` whose id starts with `prefix`: id, median ns per
/// iteration, elements per iteration.
fn criterion(dir: &Path, prefix: &str) -> Result<Vec<(String, f64, f64)>, String> {
    let mut out = vec![];
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.ends_with("new/benchmark.json") {
                let bench = read_json(&path)?;
                let id = bench["full_id"].as_str().unwrap_or_default().to_string();
                if !id.starts_with(prefix) {
                    continue;
                }
                let estimates = read_json(&path.with_file_name("estimates.json"))?;
                let median = estimates["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN);
                let elements = bench["throughput"]["Elements"].as_f64().unwrap_or(1.0);
                out.push((id, median, elements));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// `throughput.svg` from `contention/<arm>/<writers>[/shared]`.
fn throughput(dir: &Path, out: &Path, run: &str) -> Result<(), String> {
    let mut panels: BTreeMap<bool, BTreeMap<String, Vec<(f64, f64)>>> = BTreeMap::new();
    for (id, median_ns, elements) in criterion(dir, "contention/")? {
        let parts: Vec<&str> = id.split('/').collect();
        let (Some(arm), Some(writers)) = (parts.get(1), parts.get(2).and_then(|w| w.parse::<f64>().ok())) else {
            continue;
        };
        let shared = parts.get(3) == Some(&"shared");
        let per_second = elements / (median_ns / 1e9);
        panels.entry(shared).or_default().entry(arm.to_string()).or_default().push((writers, per_second));
    }
    if panels.is_empty() {
        return Err(format!("no contention/* estimates under {}", dir.display()));
    }
    let lines = |shared| -> Vec<Line> {
        panels
            .get(&shared)
            .into_iter()
            .flatten()
            .map(|(name, points)| {
                let mut points = points.clone();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                Line { name: name.clone(), points }
            })
            .collect()
    };
    let panels = [(": each writer its own app", lines(false)), (": all offering one (app, epoch)", lines(true))];
    line_chart(
        &out.join("throughput.svg"),
        "Throughput on sqlite",
        "writers",
        "batches offered per second",
        run,
        &panels,
    )
    .map_err(|e| e.to_string())
}

/// `instructions.svg` from the counts `instructions --out` writes (JSON lines, one per
/// `commit/<arm>/<catalog>/<history>`, the fewest of its runs counting) and the run named in the
/// `<file>.run.json` beside them; one panel per catalog.
fn instructions(path: &Path, out: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let run = run_of(path, &Value::Null)?.label();
    let mut by_catalog: BTreeMap<String, BTreeMap<String, Vec<(f64, f64)>>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let count: Value = serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        let id = count["id"].as_str().unwrap_or_default();
        let fewest =
            count["instructions"].as_array().into_iter().flatten().filter_map(Value::as_f64).fold(f64::MAX, f64::min);
        let parts: Vec<&str> = id.split('/').collect();
        let [_, arm, catalog, history] = parts[..] else { continue };
        let (Ok(history), true) = (history.parse::<f64>(), fewest < f64::MAX) else { continue };
        by_catalog
            .entry(catalog.to_string())
            .or_default()
            .entry(arm.to_string())
            .or_default()
            .push((history, fewest / 1e6));
    }
    let panels: Vec<(String, Vec<Line>)> = by_catalog
        .into_iter()
        .map(|(catalog, arms)| {
            let lines = arms
                .into_iter()
                .map(|(name, mut points)| {
                    points.sort_by(|a, b| a.0.total_cmp(&b.0));
                    Line { name, points }
                })
                .collect();
            (format!(": {catalog}"), lines)
        })
        .collect();
    let panels: Vec<(&str, Vec<Line>)> = panels
        .iter()
        .map(|(t, l)| (t.as_str(), l.iter().map(|l| Line { name: l.name.clone(), points: l.points.clone() }).collect()))
        .collect();
    line_chart(
        &out.join("instructions.svg"),
        "Instructions per commit",
        "snapshots of history",
        "million instructions",
        &run,
        &panels,
    )
    .map_err(|e| e.to_string())
}

/// `duplicates.svg` from `stress --json` outputs (arrays of audits).
fn duplicates(files: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut arms: Vec<String> = vec![];
    let mut by_catalog: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    let mut runs: Vec<String> = vec![];
    for path in files {
        let value = read_json(path)?;
        for audit in value.as_array().ok_or(format!("{}: not a list of audits", path.display()))? {
            let run = run_of(path, audit)?;
            let label = format!("{}, {}", run.commit, run.date);
            if !runs.contains(&label) {
                runs.push(label);
            }
            let arm = match audit["build"].as_str() {
                Some(build @ ("stock" | "patched")) if audit["arm"] == "iceberg-naive" => {
                    format!("iceberg-naive ({build})")
                }
                _ => audit["arm"].as_str().unwrap_or_default().to_string(),
            };
            let catalog = audit["catalog"].as_str().unwrap_or_default().to_string();
            if !arms.contains(&arm) {
                arms.push(arm.clone());
            }
            let per_thousand = audit["duplicates_per_thousand_attempts"].as_f64().unwrap_or(0.0);
            by_catalog.entry(catalog).or_default().insert(arm, per_thousand);
        }
    }
    let series: Vec<(String, Vec<f64>)> = by_catalog
        .into_iter()
        .map(|(catalog, values)| (catalog, arms.iter().map(|a| values.get(a).copied().unwrap_or(f64::NAN)).collect()))
        .collect();
    let machine = RunInfo::now().machine;
    let run = format!("{} ({machine})", runs.join("; "));
    bar_chart(
        &out.join("duplicates.svg"),
        "Duplicates per 1000 attempts, stress and soak runs",
        "duplicates per 1000 attempts",
        &run,
        &arms,
        &series,
    )
    .map_err(|e| e.to_string())
}

/// Draws the figures FINDINGS.md shows beside its tables, from a run's saved results, as SVG.
#[derive(clap::Parser)]
#[command(name = "charts")]
struct Cli {
    /// Criterion's estimates (`contention/*`): throughput.svg.
    #[arg(long, value_name = "DIR")]
    criterion: Option<PathBuf>,
    /// The run the Criterion estimates came from, as the chart names it.
    #[arg(long, value_name = "RUN")]
    criterion_run: Option<String>,
    /// `instructions --out`'s counts: instructions.svg.
    #[arg(long, value_name = "FILE")]
    instructions: Option<PathBuf>,
    /// `stress --json` (or `soak-report --json`) output, repeatable: duplicates.svg.
    #[arg(long = "stress", value_name = "FILE")]
    stress_files: Vec<PathBuf>,
    /// Where the charts go.
    #[arg(long, value_name = "DIR", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/charts"))]
    out: PathBuf,
}

fn main() -> std::process::ExitCode {
    let Cli { criterion: criterion_dir, criterion_run: run_label, instructions: instructions_file, stress_files, out } =
        clap::Parser::parse();
    let mut failed = false;
    let mut report = |what: &str, result: Result<(), String>| match result {
        Ok(()) => eprintln!("charts: wrote {what}"),
        Err(e) => {
            eprintln!("charts: {what}: {e}");
            failed = true;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("charts: {}: {e}", out.display());
        return std::process::ExitCode::FAILURE;
    }
    if let Some(dir) = &criterion_dir {
        let run =
            run_label.clone().unwrap_or_else(|| "Criterion estimates under ".to_string() + &dir.display().to_string());
        report("throughput.svg", throughput(dir, &out, &run));
    }
    if let Some(file) = &instructions_file {
        report("instructions.svg", instructions(file, &out));
    }
    if !stress_files.is_empty() {
        report("duplicates.svg", duplicates(&stress_files, &out));
    }
    if failed { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
}

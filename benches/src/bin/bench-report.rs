//! `bench-report [CRITERION_DIR]`: turns Criterion's saved estimates (default `target/criterion`)
//! into one table of medians with their 95% intervals, each next to its ratio to the floor it
//! is compared with, the catalog round trips per commit and, for a commit that `instructions`
//! counted, its ratio to the floor in instructions and the files, bytes and `fsync`s it wrote;
//! then `instructions`' own table; and says which runs they came from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use barrier_benches::{CommitCount, RoundTrips, commit_counts_file, floor_of, render_counts, round_trips_file};
use serde_json::Value;

/// A median and its 95% confidence interval, in nanoseconds.
#[derive(Clone, Copy)]
struct Estimate {
    median: f64,
    lower: f64,
    upper: f64,
}

impl Estimate {
    /// The ratio of two medians, with the interval the two intervals allow.
    fn over(self, floor: Estimate) -> Estimate {
        Estimate {
            median: self.median / floor.median,
            lower: self.lower / floor.upper,
            upper: self.upper / floor.lower,
        }
    }
}

fn load(dir: &Path, found: &mut BTreeMap<String, (Estimate, SystemTime)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "report") {
            load(&path, found);
        }
    }
    let (meta, estimates) = (dir.join("new/benchmark.json"), dir.join("new/estimates.json"));
    let (Ok(meta_text), Ok(est_text)) = (std::fs::read_to_string(&meta), std::fs::read_to_string(&estimates)) else {
        return;
    };
    let (meta, est): (Value, Value) = (
        serde_json::from_str(&meta_text).expect("benchmark.json"),
        serde_json::from_str(&est_text).expect("estimates.json"),
    );
    let median = &est["median"];
    let estimate = Estimate {
        median: median["point_estimate"].as_f64().expect("median"),
        lower: median["confidence_interval"]["lower_bound"].as_f64().expect("lower"),
        upper: median["confidence_interval"]["upper_bound"].as_f64().expect("upper"),
    };
    let written =
        std::fs::metadata(dir.join("new/estimates.json")).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    found.insert(meta["full_id"].as_str().expect("full_id").to_string(), (estimate, written));
}

fn human(ns: f64) -> String {
    match ns {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.2} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.2} µs", n / 1e3),
        n => format!("{n:.1} ns"),
    }
}

/// Criterion's saved estimates as one table of medians with their ratios to the floors, beside
/// the round trips and `instructions`' exact counts.
#[derive(clap::Parser)]
#[command(name = "bench-report")]
struct Cli {
    /// Where Criterion saved its estimates (default: target/criterion).
    dir: Option<PathBuf>,
}

fn main() {
    let cli: Cli = clap::Parser::parse();
    let dir = cli.dir.unwrap_or_else(|| round_trips_file().parent().expect("criterion dir").to_path_buf());
    let mut found = BTreeMap::new();
    load(&dir, &mut found);
    let counts: Vec<CommitCount> = std::fs::read_to_string(commit_counts_file())
        .map(|text| text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
        .unwrap_or_default();
    if found.is_empty() && counts.is_empty() {
        eprintln!(
            "bench-report: no Criterion estimates under {} and no {}; run `cargo bench` or `instructions` first",
            dir.display(),
            commit_counts_file().display()
        );
        std::process::exit(1);
    }
    let counted = |id: &str| counts.iter().find(|c| c.id == id);
    let mut trips: BTreeMap<String, RoundTrips> = BTreeMap::new();
    if let Ok(text) = std::fs::read_to_string(round_trips_file()) {
        for line in text.lines() {
            if let Ok(row) = serde_json::from_str::<RoundTrips>(line) {
                trips.insert(row.id.clone(), row);
            }
        }
    }
    let times: Vec<_> = found.values().map(|(_, t)| *t).collect();
    let stamp = |t: &SystemTime| t.duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "Criterion estimates under {} ({} benchmarks), written between unix {} and {}; source at git {commit}",
        dir.display(),
        found.len(),
        times.iter().map(stamp).min().unwrap_or(0),
        times.iter().map(stamp).max().unwrap_or(0),
    );
    println!();
    println!(
        "| benchmark | median [95% CI] | compared with | ratio [95% CI] | loads/commit | updates/commit | manifests/commit | instructions ratio | files / bytes / fsyncs |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (id, (estimate, _)) in &found {
        let ratio = floor_of(id).and_then(|floor| {
            found.get(&floor).map(|(f, _)| {
                let r = estimate.over(*f);
                (floor, format!("{:.3} [{:.3}, {:.3}]", r.median, r.lower, r.upper))
            })
        });
        let (floor, ratio) = ratio.unwrap_or_default();
        let (loads, updates, manifests) = trips.get(id).map_or(Default::default(), |t| {
            let manifests = t.manifests_per_commit.map_or(String::new(), |m| format!("{m:.2}"));
            (format!("{:.2}", t.loads_per_commit), format!("{:.2}", t.updates_per_commit), manifests)
        });
        let instructions = counted(id)
            .zip(floor_of(id).and_then(|f| counted(&f)))
            .map_or(String::new(), |(c, f)| format!("{:.4}", c.least() as f64 / f.least() as f64));
        let io = counted(id).map_or(String::new(), |c| {
            let fsyncs = c.syscalls.map_or("—".to_string(), |s| s.fsyncs.to_string());
            format!("{} / {} / {fsyncs}", c.storage.files_written, c.storage.bytes_written)
        });
        println!(
            "| {id} | {} [{}, {}] | {floor} | {ratio} | {loads} | {updates} | {manifests} | {instructions} | {io} |",
            human(estimate.median),
            human(estimate.lower),
            human(estimate.upper)
        );
    }
    if !counts.is_empty() {
        let written = std::fs::metadata(commit_counts_file()).and_then(|m| m.modified()).ok();
        println!();
        println!(
            "Exact counts of one commit (`instructions`), {}, written at unix {}:",
            commit_counts_file().display(),
            written.as_ref().map(stamp).unwrap_or(0)
        );
        println!();
        print!("{}", render_counts(&counts));
    }
}

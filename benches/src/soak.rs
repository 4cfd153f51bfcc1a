//! A soak's saved rounds (`stress --attempts N --keep DIR` writes one JSON line per round to
//! `DIR/<arm>/soak.jsonl`), summed: what `soak-report` and `findings` print.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

/// The failpoints a writer process crashes at, in the commit's order.
pub const STEPS: [&str; 4] =
    ["barrier.after-data-files", "barrier.before-swap", "barrier.after-metadata-file", "barrier.after-swap"];

/// One soak: its rounds' audits summed.
#[derive(Default)]
pub struct Soak {
    pub target: String,
    pub goal: u64,
    pub rounds: u64,
    seconds: f64,
    pub run: Value,
    sums: BTreeMap<&'static str, u64>,
    pub crashes_at: BTreeMap<String, u64>,
    left_files: u64,
    left_bytes: u64,
}

/// The counts every round reports, by their JSON path.
const COUNTS: [(&str, &[&str]); 13] = [
    ("attempts", &["attempts"]),
    ("lost_swaps", &["lost_swaps"]),
    ("kills", &["kills"]),
    ("crashes", &["crashes"]),
    ("server_restarts", &["server_restarts"]),
    ("pauses", &["pauses"]),
    ("pauses_after_check", &["pauses_after_check"]),
    ("storage_faults", &["outcomes", "errors", "Storage"]),
    ("unknown_resolved", &["outcomes", "unknown_resolved"]),
    ("duplicates", &["duplicates"]),
    ("rows", &["rows"]),
    ("rows_expected", &["rows_expected"]),
    ("committed", &["outcomes", "committed"]),
];

fn at<'a>(value: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(value, |v, key| &v[key])
}

/// `"330 files, 1032319 bytes (...)"` or `"none"`, as `leftovers::summary` writes it.
fn left_behind(text: &str) -> (u64, u64) {
    let words: Vec<&str> = text.split([' ', ',', '(']).filter(|w| !w.is_empty()).collect();
    let count = |unit: &str| words.windows(2).find(|w| w[1] == unit).and_then(|w| w[0].parse().ok()).unwrap_or(0);
    (count("files"), count("bytes"))
}

pub fn read(path: &Path) -> Result<Soak, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut soak = Soak::default();
    for (n, line) in text.lines().enumerate() {
        let value: Value = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        if n == 0 {
            soak.target = value["target"].as_str().unwrap_or_default().to_string();
            soak.goal = value["attempts"].as_u64().unwrap_or(0);
            continue;
        }
        soak.rounds += 1;
        soak.seconds += value["seconds"].as_f64().unwrap_or(0.0);
        if !value["run"].is_null() {
            soak.run = value["run"].clone();
        }
        for (name, json_path) in COUNTS {
            *soak.sums.entry(name).or_default() += at(&value, json_path).as_u64().unwrap_or(0);
        }
        *soak.sums.entry("proxy_faults").or_default() +=
            value["proxy_faults"].as_object().map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
        *soak.sums.entry("lost").or_default() += value["lost_epochs"].as_array().map_or(0, |a| a.len() as u64);
        *soak.sums.entry("violations").or_default() +=
            value["outcomes"]["violations"].as_array().map_or(0, |a| a.len() as u64);
        for (step, count) in value["crashes_at"].as_object().into_iter().flatten() {
            *soak.crashes_at.entry(step.clone()).or_default() += count.as_u64().unwrap_or(0);
        }
        let (files, bytes) = left_behind(value["left_behind"].as_str().unwrap_or("none"));
        soak.left_files += files;
        soak.left_bytes += bytes;
    }
    if soak.rounds == 0 {
        return Err(format!("{}: no finished round", path.display()));
    }
    if soak.run.is_null() {
        // Rounds written before audits named their run: the run recorded beside the file.
        let sidecar = format!("{}.run.json", path.display());
        let text = std::fs::read_to_string(&sidecar)
            .map_err(|e| format!("{}: rounds name no run, and {sidecar}: {e}", path.display()))?;
        soak.run = serde_json::from_str(&text).map_err(|e| format!("{sidecar}: {e}"))?;
    }
    Ok(soak)
}

impl Soak {
    pub fn sum(&self, name: &str) -> u64 {
        self.sums.get(name).copied().unwrap_or(0)
    }

    pub fn per_thousand(&self) -> f64 {
        self.sum("duplicates") as f64 * 1000.0 / self.sum("attempts").max(1) as f64
    }

    pub fn parts(&self) -> (&str, &str, &str) {
        let mut parts = self.target.splitn(3, '/');
        let arm = parts.next().unwrap_or_default();
        match (parts.next(), parts.next()) {
            (Some(build), Some(catalog)) => (arm, build, catalog),
            (Some(catalog), None) => (arm, "", catalog),
            // Delta's targets name no catalog: its log is on the local file system.
            _ => (arm, "", "local-fs"),
        }
    }

    pub fn row(&self) -> String {
        let crashes =
            STEPS.iter().map(|s| self.crashes_at.get(*s).copied().unwrap_or(0).to_string()).collect::<Vec<_>>();
        let minutes = self.seconds / 60.0;
        let stopped = if self.sum("attempts") < self.goal { " (stopped early)" } else { "" };
        format!(
            "| `{}` | {} | {}{stopped} / {} | {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} | {} | {} ({:.1}‰) | {} | {} | {}/{} | {} files, {:.1} MB | {:.0} min |",
            self.target,
            self.rounds,
            self.sum("attempts"),
            self.goal,
            self.sum("committed"),
            self.sum("lost_swaps"),
            self.sum("kills"),
            self.sum("crashes"),
            crashes.join(" / "),
            self.sum("pauses") + self.sum("pauses_after_check"),
            self.sum("pauses_after_check"),
            self.sum("server_restarts"),
            self.sum("proxy_faults"),
            self.sum("storage_faults"),
            self.sum("unknown_resolved"),
            self.sum("duplicates"),
            self.per_thousand(),
            self.sum("lost"),
            self.sum("violations"),
            self.sum("rows"),
            self.sum("rows_expected"),
            self.left_files,
            self.left_bytes as f64 / 1e6,
            minutes,
        )
    }

    pub fn audit(&self) -> Value {
        let (arm, build, catalog) = self.parts();
        let mut audit = Map::new();
        for (name, value) in &self.sums {
            audit.insert(name.to_string(), json!(value));
        }
        audit.insert("arm".into(), json!(arm));
        audit.insert("build".into(), json!(build));
        audit.insert("catalog".into(), json!(catalog));
        audit.insert("rounds".into(), json!(self.rounds));
        audit.insert("seconds".into(), json!(self.seconds));
        audit.insert("duplicates_per_thousand_attempts".into(), json!(self.per_thousand()));
        audit.insert("run".into(), self.run.clone());
        Value::Object(audit)
    }
}

#[cfg(test)]
mod tests {
    use super::left_behind;

    #[test]
    fn left_behind_reads_the_summary_leftovers_writes() {
        assert_eq!(left_behind("330 files, 1032319 bytes (122 data, 94 manifest)"), (330, 1_032_319));
        assert_eq!(left_behind("none"), (0, 0));
    }
}

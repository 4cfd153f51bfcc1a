//! Which run a measurement came from: the commit the binary was built from, the date, and the
//! machine. Saved with every result that a table or a chart quotes.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RunInfo {
    /// `git rev-parse --short HEAD` at build time, `+changes` if the tree had uncommitted ones.
    pub commit: String,
    /// UTC, `YYYY-MM-DD`.
    pub date: String,
    /// Logical CPUs and the CPU model.
    pub machine: String,
}

impl RunInfo {
    pub fn now() -> Self {
        let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
        let model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines().find_map(|l| {
                    l.strip_prefix("model name").map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
                })
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        Self { commit: env!("BARRIER_COMMIT").to_string(), date: today(), machine: format!("{cpus} CPUs, {model}") }
    }

    /// `commit, date, machine`: what a chart's caption says.
    pub fn label(&self) -> String {
        format!("{}, {}, {}", self.commit, self.date, self.machine)
    }
}

/// Today's UTC date, from the system clock.
fn today() -> String {
    date(barrier_sink::data::unix_millis().div_euclid(86_400_000))
}

/// The civil date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_since_1970_are_civil_dates() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(11_016), "2000-02-29");
        assert_eq!(super::date(20_791), "2026-12-04");
    }
}

//! Many processes per arm, killed and crashed at random, on one table each, with every fault the
//! catalog allows: every epoch ends up in the table, exactly once for every arm that claims it,
//! and no writer was given an answer the table contradicts. Runs the `stress` binary (bounded:
//! 4 writers, 10 epochs, 4 SIGKILLs; each writer aborts the first time it passes each commit
//! failpoint and with a 5% chance at every later pass; Iceberg writes fail 5% of the time, and
//! each writer process's first one until the writer has been told of a failure; the
//! catalog server is killed and brought back twice; on `rest` the fault proxy hits 10% of the
//! commits; writers are stopped with SIGSTOP twice at random moments, and stop themselves right
//! after their epoch check, the first time and then 5% of the time, for 0.2 to 5 s). A short run of
//! each fault type, so that none can rot; the soak is `stress --attempts`. An arm whose hazards
//! say it stalls (`iceberg-file-key`: a dead attempt's data file claims its epoch for ever when
//! the replay's bytes differ) is held to the stall, then run again with `--same-batches`, where
//! it must not stall. Then the mixed races: Rust writers and peer writers (`barrier_harness::peer`:
//! Python, JVM and Go processes) on one table, SIGKILLs hitting both (on SQLite; `stress --catalog
//! rest --peer ...` by hand).

#[allow(dead_code, reason = "the runtime is the other test binaries'")]
#[path = "common/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use barrier_harness::{Arm, CatalogKind, Peer, Target};
use barrier_lab::tier::{Tier, stress_full_run_only};
use libtest_mimic::Trial;

/// `many_processes_on_<catalog>_lose_nothing` on every shared catalog this tier stresses (CI
/// leaves PostgreSQL, Rustberg and the Java REST fixture to the full run, `barrier_lab::tier`),
/// then the mixed races. Two at a time unless `--test-threads` says fewer: each starts
/// processes of its own, and servers of its own where it kills them.
fn main() -> ExitCode {
    let tier = Tier::current();
    let mut trials = vec![];
    for &kind in CatalogKind::ALL.iter().filter(|kind| kind.shared()) {
        match stress_full_run_only(kind).filter(|_| tier == Tier::Ci) {
            Some(covered) => println!("stress on {kind} left to the full run; covered in CI by {covered}"),
            None => trials.push(Trial::test(format!("many_processes_on_{kind}_lose_nothing"), move || {
                stress(kind);
                Ok(())
            })),
        }
    }
    let races: [(&str, fn()); 3] = [
        ("mixed_race_of_guarded_writers_loses_nothing", mixed_race_of_guarded_writers_loses_nothing),
        ("mixed_race_across_four_implementations_loses_nothing", mixed_race_across_four_implementations_loses_nothing),
        ("mixed_race_with_a_naive_peer_duplicates", mixed_race_with_a_naive_peer_duplicates),
    ];
    trials.extend(races.map(|(name, race)| {
        Trial::test(name, move || {
            race();
            Ok(())
        })
    }));
    let mut arguments = cli::arguments();
    arguments.test_threads = Some(arguments.test_threads.map_or(2, |n| n.min(2)));
    libtest_mimic::run(&arguments, trials).exit_code()
}

/// A server of the run's own, for a catalog whose server it kills (`--server-kills`): the
/// catalog's script started on a data directory of its own (`Server::data`), so that the kills
/// strike no other test's server (the suite runs beside `stress` in the test command; a `rustberg`
/// run once met the shared SeaweedFS down, killed by the `rest` run beside it). Stopped when
/// dropped.
struct OwnServer {
    script: PathBuf,
    env: Vec<(String, String)>,
}

impl OwnServer {
    fn start(kind: CatalogKind) -> Option<Self> {
        let server = kind.server()?;
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let script = root.join("scripts").join(server.script);
        let dir = root.join("target").join(format!("{}-stress", server.script));
        let output = Command::new(&script).arg("start").env(server.data, &dir).output().expect("the script runs");
        assert!(output.status.success(), "{} start: {}", script.display(), String::from_utf8_lossy(&output.stderr));
        let mut env = vec![(server.data.to_string(), dir.display().to_string())];
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            if let Some((name, value)) = line.strip_prefix("export ").and_then(|l| l.split_once('=')) {
                env.push((name.to_string(), value.to_string()));
            }
        }
        Some(Self { script, env })
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = Command::new(&self.script).arg("stop").envs(self.env.iter().cloned()).status();
    }
}

fn stress(kind: CatalogKind) {
    if let Some(why) = kind.unavailable() {
        println!("SKIPPED many_processes_on_{kind}_lose_nothing: {why}");
        return;
    }
    let own = OwnServer::start(kind);
    let env = own.as_ref().map_or(&[][..], |own| &own.env[..]);
    let audits = run(&faults(kind, &[]), env);
    // Every arm of the suite whose build reaches the catalog (0.11.0's has only memory).
    assert_eq!(audits.len(), Arm::suite().filter(|arm| !Target::on(*arm, &[kind]).is_empty()).count());
    for audit in &audits {
        if audit["stalls"].is_string() {
            // Every writer offers a batch of its own on every attempt, and each dies the first
            // time it passes `barrier.after-data-files`: a dead attempt's file claims its epoch
            // for ever. The hazard, asserted; what the run did reach is held to the claim in `run`.
            assert!(count(audit, "stalled_writers") > 0, "{} on {kind}: expected it to stall", audit["arm"]);
        } else {
            assert_faults_struck(audit, kind);
        }
    }
    // The arms that stall on writers of different batches, again with every attempt at an epoch
    // offering the same rows (a source that replays deterministically): then they must not stall.
    for arm in Arm::suite().filter(|arm| arm.stalls().is_some() && !Target::on(*arm, &[kind]).is_empty()) {
        let label = arm.label();
        for audit in run(&faults(kind, &["--arm", &label, "--same-batches"]), env) {
            assert_eq!(count(&audit, "stalled_writers"), 0, "{label} on {kind} stalled with the same batches");
            assert_faults_struck(&audit, kind);
        }
    }
}

/// The short run of every fault the catalog allows, with `extra` arguments.
fn faults<'a>(kind: CatalogKind, extra: &[&'a str]) -> Vec<&'a str> {
    let server_kills = if kind.server().is_some() { "2" } else { "0" };
    let proxy_faults = if kind.speaks_rest() { "0.1" } else { "0" };
    let args = [
        "--writers",
        "4",
        "--epochs",
        "10",
        "--kills",
        "4",
        "--fault-rate",
        "0.05",
        "--storage-faults",
        "0.05",
        "--server-kills",
        server_kills,
        "--proxy-faults",
        proxy_faults,
        "--pauses",
        "2",
        "--pause-after-check",
        "0.05",
        "--seconds",
        "180",
        "--catalog",
        kind.name(),
    ];
    [&args[..], extra].concat()
}

/// Every fault the run asked for struck: pauses (one right after a check), storage faults, server
/// kills and the proxy, where the catalog has them.
fn assert_faults_struck(audit: &serde_json::Value, kind: CatalogKind) {
    let arm = format!("{} on {}", audit["arm"], audit["catalog"]);
    assert!(count(audit, "pauses") > 0, "{arm}: no writer was paused");
    assert!(count(audit, "pauses_after_check") > 0, "{arm}: no writer paused between its check and its swap");
    if audit["catalog"] != "local-fs" {
        assert!(audit["outcomes"]["errors"]["Storage"].as_u64() > Some(0), "{arm}: no storage fault was injected");
        if kind.server().is_some() {
            assert!(count(audit, "server_restarts") > 0, "{arm}: the server was never killed");
        }
        if kind.speaks_rest() {
            let faults: u64 =
                audit["proxy_faults"].as_object().map_or(0, |f| f.values().filter_map(|v| v.as_u64()).sum());
            assert!(faults > 0, "{arm}: the fault proxy never struck");
        }
    }
}

/// Rust writers of a guarded arm and peer writers of the same format (`stress --peer`) on one
/// table, one app, overlapping epochs, SIGKILLs hitting both: every epoch once and every answer
/// consistent with the table, when every writer is guarded.
///
/// Iceberg: 2 writers each of `iceberg-validator` and `iceberg-requirement` (one run each) with 2
/// `pyiceberg-owned-loop` peers. Delta: 3 `delta` writers with 1 `deltalake-python` peer, since
/// the peer (a release build of delta-rs) commits about five times as fast as this debug build's
/// Delta sink, and the Rust writers must still reach (and die at) every step of their commits.
fn mixed_race_of_guarded_writers_loses_nothing() {
    let iceberg = ["--writers", "2", "--arm", "iceberg-validator", "--arm", "iceberg-requirement"];
    let owned_loop = ["--peer", "pyiceberg-owned-loop", "--peer", "pyiceberg-owned-loop"];
    let delta = ["--writers", "3", "--arm", "delta", "--peer", "deltalake-python"];
    for args in [[&iceberg[..], &owned_loop[..]].concat(), delta.to_vec()] {
        let Some(audits) = mixed(&args) else { return };
        for audit in &audits {
            assert_eq!(audit["claims_exactly_once"], true, "every writer is guarded");
        }
    }
}

/// Rust, Python, Java and Go writers on one table, each guarded its own library's way:
/// `iceberg-validator` (patch 3), `pyiceberg-owned-loop` (pyiceberg's first-attempt `main`
/// assertion), `java-iceberg-validator` (`validateWith`), `go-iceberg-assert-ref`
/// (`AssertRefSnapshotID`). Every epoch once and every answer consistent with the table, and
/// every implementation won epochs (the peers take turns among themselves on theirs).
fn mixed_race_across_four_implementations_loses_nothing() {
    let args = [
        "--writers",
        "2",
        "--arm",
        "iceberg-validator",
        "--peer",
        "pyiceberg-owned-loop",
        "--peer",
        "java-iceberg-validator",
        "--peer",
        "go-iceberg-assert-ref",
    ];
    let Some(audits) = mixed(&args) else { return };
    for audit in &audits {
        assert_eq!(audit["claims_exactly_once"], true, "every writer is guarded");
        for peer in ["pyiceberg-owned-loop", "java-iceberg-validator", "go-iceberg-assert-ref"] {
            let won = audit["peer_committed_by"][peer].as_u64().unwrap_or(0);
            assert!(won > 0, "{peer} won no epoch: its implementation did not really race");
        }
    }
}

/// The same race with one `pyiceberg-naive` writer among them: the guarantee holds only if
/// every writer of the app is guarded. The naive peer's stale appends are rebased by pyiceberg's
/// retry and commit epochs the others already committed: duplicates, asserted (how often the
/// writers contended is printed with the audit).
fn mixed_race_with_a_naive_peer_duplicates() {
    let args =
        ["--writers", "2", "--arm", "iceberg-validator", "--peer", "pyiceberg-owned-loop", "--peer", "pyiceberg-naive"];
    let Some(audits) = mixed(&args) else { return };
    for audit in &audits {
        assert_eq!(audit["claims_exactly_once"], false);
        assert!(count(audit, "duplicates") > 0, "{}: the naive peer duplicated nothing", audit["arm"]);
    }
}

/// A short mixed race on SQLite (`args` name the Rust writers per arm, the arms and the peers):
/// epochs 1..40 (long enough for a peer killed early, a second or more to restart, to rejoin),
/// 4 SIGKILLs, a 5% abort chance per commit step, the two sides taking turns at trying epochs
/// first (`stress --turns`: without them, on a loaded machine, the release-build Delta peer took
/// all 40 epochs from three debug-build `delta` writers). Both sides must have won epochs, and a
/// Rust writer and a peer must have been attempting the same epoch at the same moment: a race one
/// implementation ran alone would mix nothing. `None` (SKIPPED printed) where what runs a peer
/// is missing.
fn mixed(args: &[&str]) -> Option<Vec<serde_json::Value>> {
    let peers = args.windows(2).filter(|pair| pair[0] == "--peer").map(|pair| pair[1]);
    let mut runtimes = peers.map(|name| Peer::named(name).expect("a peer").spec().runtime);
    if let Some(why) = runtimes.find_map(|runtime| runtime.unavailable()) {
        println!("SKIPPED mixed race {args:?}: {why}");
        return None;
    }
    let race = [
        "--epochs",
        "40",
        "--kills",
        "4",
        "--fault-rate",
        "0.05",
        "--seconds",
        "180",
        "--catalog",
        "sqlite",
        "--turns",
    ];
    let audits = run(&[&race[..], args].concat(), &[]);
    for audit in &audits {
        let arm = format!("{} with {}", audit["arm"], audit["peers"]);
        let (committed, by_peers) =
            (audit["outcomes"]["committed"].as_u64().unwrap_or(0), count(audit, "peer_committed"));
        assert!(by_peers > 0, "{arm}: no peer won an epoch: the race did not mix");
        assert!(committed > by_peers, "{arm}: no Rust writer won an epoch: the race did not mix");
        assert!(count(audit, "mixed_epochs") > 0, "{arm}: no Rust writer and peer ever attempted an epoch at once");
    }
    Some(audits)
}

/// Runs `stress` with `args` and checks what every run must show: the writers finished, no epoch
/// lost, writers killed, every commit step crashed a writer; and, where every writer claims
/// exactly-once, no duplicate, the exact rows and no answer the table contradicts.
fn run(args: &[&str], env: &[(String, String)]) -> Vec<serde_json::Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_stress"))
        .args(args)
        .arg("--json")
        .envs(env.iter().cloned())
        .output()
        .expect("stress runs");
    let summary = String::from_utf8_lossy(&output.stderr);
    println!("{summary}");
    let audits: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stress prints its audits as JSON");
    let audits = audits.as_array().expect("one audit per arm").clone();
    for audit in &audits {
        let line = serde_json::json!({ "args": args, "audit": audit });
        barrier_lab::record::save("stress", &line).expect("the results directory takes a line");
    }
    for audit in &audits {
        let arm = format!("{} on {}", audit["arm"], audit["catalog"]);
        assert_eq!(audit["finished"], true, "{arm}: writers did not finish: {summary}");
        assert!(count(audit, "kills") > 0, "{arm}: no writer was killed, nothing was tested");
        // A run that stalled (only an arm whose hazards say it can: `stress` fails any other)
        // lost the epochs from the stall on and reached no step beyond it.
        if count(audit, "stalled_writers") == 0 {
            assert_eq!(audit["lost_epochs"].as_array().map(Vec::len), Some(0), "{arm} lost an epoch");
            assert_eq!(
                audit["unreached_failpoints"].as_array().map(Vec::len),
                Some(0),
                "{arm}: a step of the commit never crashed a writer: {}",
                audit["unreached_failpoints"]
            );
        }
        if audit["claims_exactly_once"] == true {
            assert_eq!(audit["duplicates"], 0, "{arm} duplicated an epoch");
            assert_eq!(audit["outcomes"]["violations"], serde_json::json!([]), "{arm}: answers the table contradicts");
            if count(audit, "stalled_writers") == 0 {
                assert_eq!(audit["rows"], audit["rows_expected"], "{arm}: rows");
            }
        }
    }
    assert!(output.status.success(), "stress exited {:?}", output.status);
    audits
}

fn count(audit: &serde_json::Value, field: &str) -> u64 {
    audit[field].as_u64().unwrap_or(0)
}

//! Many processes per arm, killed and crashed at random, on one table each, with every fault the
//! catalog allows: every epoch ends up in the table, exactly once for every arm that claims it,
//! and no writer was given an answer the table contradicts. Runs the `stress` binary (bounded:
//! 4 writers, 10 epochs, 4 SIGKILLs; each writer aborts the first time it passes each commit
//! failpoint and with a 5% chance at every later pass; Iceberg writes fail 5% of the time; the
//! catalog server is killed and brought back twice; on `rest` the fault proxy hits 10% of the
//! commits). A short run of each fault type, so that none can rot; the soak is `stress
//! --attempts`.

use std::process::Command;

use spike::CatalogKind;

#[test]
fn many_processes_on_sqlite_lose_nothing() {
    stress(CatalogKind::Sqlite);
}

/// The production-shaped SQL catalog: iceberg-catalog-sql on PostgreSQL. `scripts/test` starts a
/// server on loopback (`scripts/postgres`) and exports its URL.
#[test]
fn many_processes_on_postgres_lose_nothing() {
    stress(CatalogKind::Postgres);
}

/// An Iceberg REST catalog that enforces the requirements itself, data on S3. `scripts/test`
/// starts one on loopback (`scripts/seaweedfs`) and exports its addresses.
#[test]
fn many_processes_on_rest_lose_nothing() {
    stress(CatalogKind::Rest);
}

fn stress(kind: CatalogKind) {
    if let Some(why) = kind.unavailable() {
        println!("SKIPPED many_processes_on_{}_lose_nothing: {why}", kind.name());
        return;
    }
    let profile = kind.profile();
    let server_kills = if profile.server.is_some() { "2" } else { "0" };
    let proxy_faults = if profile.proxied { "0.1" } else { "0" };
    let output = Command::new(env!("CARGO_BIN_EXE_stress"))
        .args(["--writers", "4", "--epochs", "10", "--kills", "4", "--fault-rate", "0.05"])
        .args(["--storage-faults", "0.05", "--server-kills", server_kills, "--proxy-faults", proxy_faults])
        .args(["--seconds", "180", "--catalog", kind.name(), "--json"])
        .output()
        .expect("stress runs");
    let summary = String::from_utf8_lossy(&output.stderr);
    println!("{summary}");
    let audits: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stress prints its audits as JSON");
    let audits = audits.as_array().expect("one audit per arm");
    assert_eq!(audits.len(), spike::Arm::ALL.len());
    let count = |audit: &serde_json::Value, field: &str| audit[field].as_u64().unwrap_or(0);
    for audit in audits {
        let arm = format!("{} on {}", audit["arm"], audit["catalog"]);
        let iceberg = audit["catalog"] != "local-fs";
        assert_eq!(audit["finished"], true, "{arm}: writers did not finish: {summary}");
        assert_eq!(audit["lost_epochs"].as_array().map(Vec::len), Some(0), "{arm} lost an epoch");
        assert!(count(audit, "kills") > 0, "{arm}: no writer was killed, nothing was tested");
        assert_eq!(
            audit["unreached_failpoints"].as_array().map(Vec::len),
            Some(0),
            "{arm}: a step of the commit never crashed a writer: {}",
            audit["unreached_failpoints"]
        );
        if iceberg {
            assert!(audit["outcomes"]["errors"]["Storage"].as_u64() > Some(0), "{arm}: no storage fault was injected");
            if profile.server.is_some() {
                assert!(count(audit, "server_restarts") > 0, "{arm}: the server was never killed");
            }
            if profile.proxied {
                let faults: u64 = audit["proxy_faults"].as_object().map_or(0, |f| f.values().filter_map(|v| v.as_u64()).sum());
                assert!(faults > 0, "{arm}: the fault proxy never struck");
            }
        }
        if audit["claims_exactly_once"] == true {
            assert_eq!(audit["duplicates"], 0, "{arm} duplicated an epoch");
            assert_eq!(audit["rows"], audit["rows_expected"], "{arm}: rows");
            assert_eq!(audit["outcomes"]["violations"], serde_json::json!([]), "{arm}: answers the table contradicts");
        }
    }
    assert!(output.status.success(), "stress exited {:?}", output.status);
}

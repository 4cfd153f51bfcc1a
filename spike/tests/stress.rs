//! Many processes per arm, killed and crashed at random, on one table each: every epoch ends up
//! in the table, exactly once for every arm that claims it. Runs the `stress` binary (bounded:
//! 4 writers, 10 epochs, 4 SIGKILLs; each writer aborts the first time it passes each commit
//! failpoint and with a 5% chance at every later pass; 180 s per arm).

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
    let catalog = kind.name();
    let output = Command::new(env!("CARGO_BIN_EXE_stress"))
        .args(["--writers", "4", "--epochs", "10", "--kills", "4", "--fault-rate", "0.05"])
        .args(["--seconds", "180", "--catalog", catalog, "--json"])
        .output()
        .expect("stress runs");
    let summary = String::from_utf8_lossy(&output.stderr);
    println!("{summary}");
    let audits: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stress prints its audits as JSON");
    let audits = audits.as_array().expect("one audit per arm");
    assert_eq!(audits.len(), spike::Arm::ALL.len());
    for audit in audits {
        let arm = format!("{} on {}", audit["arm"], audit["catalog"]);
        assert_eq!(audit["finished"], true, "{arm}: writers did not finish: {summary}");
        assert_eq!(audit["lost_epochs"].as_array().map(Vec::len), Some(0), "{arm} lost an epoch");
        assert!(audit["kills"].as_u64() > Some(0), "{arm}: no writer was killed, nothing was tested");
        assert_eq!(
            audit["unreached_failpoints"].as_array().map(Vec::len),
            Some(0),
            "{arm}: a step of the commit never crashed a writer: {}",
            audit["unreached_failpoints"]
        );
        if audit["claims_exactly_once"] == true {
            assert_eq!(audit["duplicates"], 0, "{arm} duplicated an epoch");
            assert_eq!(audit["rows"], audit["rows_expected"], "{arm}: rows");
        }
    }
    assert!(output.status.success(), "stress exited {:?}", output.status);
}

//! `wire [--arms A,B] [--histories H,I] [--out FILE]`: the bytes one commit of each arm puts on
//! the wire to a REST catalog, counted at the fault proxy in pass-through (every request the
//! writer sends to the catalog's API and every answer, heads and bodies; the data, manifests and
//! manifest lists the writer puts on S3 directly are not in it), beside the catalog loads and
//! updates. Like `instructions`, a long-lived writer's commit is measured, not its first; the
//! history before it is real one-row commits (SeaweedFS cannot register a seeded file). Needs
//! the REST catalog at `$BARRIER_REST_URL` (`eval "$(scripts/seaweedfs start)"`).

use std::path::PathBuf;
use std::sync::Arc;

use barrier_benches::{app, arms, criterion_dir};
use barrier_harness::batch::{BATCH_ROWS, batch, commit_history};
use barrier_harness::catalogs::Access;
use barrier_harness::proxy::{FaultProxy, Wire};
use barrier_harness::{Arm, CatalogKind, Fixture, Target, WriterOptions};
use barrier_sink::{CallCounts, CommitOutcome, Epoch, Hooks};
use clap::Parser;
use serde::Serialize;

/// The bytes one commit puts on the wire to a REST catalog, per arm and history.
#[derive(Parser)]
#[command(name = "wire")]
struct Cli {
    /// The arms, comma-separated (default: every measured Iceberg arm and the floor).
    #[arg(long, value_delimiter = ',', value_parser = arm_named)]
    arms: Vec<Arm>,
    /// The table histories, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1u64, 1000])]
    histories: Vec<u64>,
    /// Where the counts go, one JSON line per commit (default: target/criterion/barrier-wire.jsonl).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn arm_named(label: &str) -> Result<Arm, String> {
    Arm::labelled(label).ok_or_else(|| format!("no arm {label}"))
}

/// One commit's traffic to the catalog.
#[derive(Serialize)]
struct Count {
    id: String,
    wire: Wire,
    loads: u64,
    updates: u64,
}

async fn count(arm: Arm, history: u64) -> Result<Count, String> {
    let target = Target::with_catalog(arm, CatalogKind::Rest);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let fixture = Fixture::create(target, dir.path()).await.map_err(|e| e.report().to_string())?;
    // SeaweedFS's REST catalog registers a metadata file without reading it (`seed_history`
    // says so and fails), so the history here is real commits of one row each, as Delta's is.
    let seeder = fixture.writer(Hooks::default()).await.map_err(|e| e.report().to_string())?;
    commit_history(seeder.as_ref(), &app(), history).await.map_err(|e| e.report().to_string())?;
    let server = CatalogKind::Rest.server_url().ok_or("BARRIER_REST_URL is not set")?;
    let proxy = FaultProxy::start(&server).await.map_err(|e| e.to_string())?;
    let counts = Arc::new(CallCounts::default());
    let access = Access { uri: Some(proxy.url()), ..Access::default() };
    let options = WriterOptions::counting(Arc::clone(&counts)).with_access(access);
    let writer = fixture.writer_with(options).await.map_err(|e| e.report().to_string())?;
    let mut told = vec![];
    for epoch in [history + 1, history + 2] {
        proxy.take_wire();
        counts.take();
        let epoch = Epoch::new(epoch).map_err(|e| e.to_string())?;
        told.push(
            writer.commit(&app(), epoch, batch(0, BATCH_ROWS, "wire")).await.map_err(|e| e.report().to_string())?,
        );
    }
    if told != [CommitOutcome::Committed; 2] {
        return Err(format!("the commits were {told:?}"));
    }
    let (loads, updates) = counts.take();
    let id = format!("commit/{}/rest/{history}", arm.name());
    Ok(Count { id, wire: proxy.take_wire(), loads, updates })
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let arms: Vec<Arm> =
        if cli.arms.is_empty() { arms().into_iter().filter(|arm| arm.build().is_some()).collect() } else { cli.arms };
    let mut lines = vec![];
    println!("| commit | requests | bytes sent | bytes received | loads / updates |\n|---|---|---|---|---|");
    for history in &cli.histories {
        for arm in &arms {
            match count(*arm, *history).await {
                Ok(c) => {
                    println!(
                        "| {} | {} | {} | {} | {} / {} |",
                        c.id, c.wire.requests, c.wire.request_bytes, c.wire.response_bytes, c.loads, c.updates
                    );
                    lines.push(serde_json::to_string(&c).expect("serializes"));
                }
                Err(e) => {
                    eprintln!("wire: {arm} at {history}: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
    }
    let out = cli.out.unwrap_or_else(|| criterion_dir().join("barrier-wire.jsonl"));
    if let Err(e) = std::fs::create_dir_all(out.parent().unwrap_or(&out))
        .and_then(|()| std::fs::write(&out, lines.join("\n") + "\n"))
    {
        eprintln!("wire: {}: {e}", out.display());
        return std::process::ExitCode::FAILURE;
    }
    eprintln!("wire: counts written to {}", out.display());
    std::process::ExitCode::SUCCESS
}

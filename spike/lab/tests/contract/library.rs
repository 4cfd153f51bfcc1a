//! What every arm relies on from a catalog, probed through iceberg-rust's own commit on every
//! catalog kind: the catalog as a writer reaches it, the client crate and the database or server
//! together. The commits are appends of no data files whose summary names their writer, sent as
//! they were built (patch 4's `Rebase::Never`: no refresh, no rebase, so a stale base stays stale
//! and its `main` requirement is what the catalog checks), or, where a property is about what the
//! arms see, an arm's own commit.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use barrier_harness::batch::{BATCH_ROWS, batch};
use barrier_harness::catalogs::{Access, Outages};
use barrier_harness::fixture::{Outage, OutageOutcome, WriterOptions};
use barrier_harness::location::TableLocation;
use barrier_harness::proxy::{Fault, FaultProxy};
use barrier_harness::{CatalogKind, Fixture, IcebergArm, Target};
use barrier_iceberg::patched::{DuplicateIdAnswer, IcebergTable, Rebase};
use barrier_sink::{AppId, CommitOutcome, Epoch, Hooks, SinkError};
use futures::future::BoxFuture;
use iceberg_patched::table::Table;
use iceberg_patched::transaction::{ApplyTransactionAction, Transaction};
use libtest_mimic::Trial;

use super::Found;

/// The summary key naming the writer of a probe's append.
const WRITER: &str = "contract.writer";

/// Writers racing on one base in `racing_swaps_let_exactly_one_through`.
const RACERS: usize = 8;

/// A property: its name, the arm whose fixture it runs on (the patched build's naive sink: the
/// patched build's catalog crates, with the SQL fix; or the stock one where the property is
/// about the crates.io crates), and its probe.
struct Property {
    name: &'static str,
    arm: IcebergArm,
    probe: for<'a> fn(&'a Fixture) -> BoxFuture<'a, Found>,
}

const PROPERTIES: &[Property] = &[
    Property {
        name: "a_stale_requirement_is_refused_at_the_swap",
        arm: PATCHED,
        probe: |fx| Box::pin(stale(fx, false)),
    },
    Property { name: "a_refused_swap_changes_nothing", arm: PATCHED, probe: |fx| Box::pin(stale(fx, true)) },
    Property {
        name: "racing_swaps_on_one_base_let_exactly_one_through",
        arm: PATCHED,
        probe: |fx| Box::pin(racing(fx)),
    },
    Property { name: "a_swap_reported_done_is_in_the_table", arm: PATCHED, probe: |fx| Box::pin(reported(fx)) },
    Property { name: "a_load_returns_the_newest_metadata", arm: PATCHED, probe: |fx| Box::pin(newest(fx)) },
    Property { name: "a_duplicate_snapshot_id_is_refused", arm: PATCHED, probe: |fx| Box::pin(duplicate_id(fx)) },
    Property {
        name: "an_answer_lost_after_apply_leaves_the_commit_applied",
        arm: STOCK,
        probe: |fx| Box::pin(lost_answer(fx)),
    },
    Property { name: "an_outage_is_a_typed_error_and_adds_nothing", arm: PATCHED, probe: |fx| Box::pin(outages(fx)) },
    Property { name: "a_failed_commit_is_not_reported_done", arm: PATCHED, probe: |fx| Box::pin(failed_commit(fx)) },
    Property {
        name: "a_failed_commit_is_not_reported_done_by_stock_0_10_1",
        arm: STOCK,
        probe: |fx| Box::pin(failed_commit(fx)),
    },
];

const PATCHED: IcebergArm = IcebergArm::NaivePatched;
const STOCK: IcebergArm = IcebergArm::NaiveStock;

/// The breaks this project found and records: the trial asserts the break, so that a fix (a newer
/// crate) fails it and this entry goes.
const KNOWN: &[(CatalogKind, &str, &str)] = &[(
    CatalogKind::Postgres,
    "a_failed_commit_is_not_reported_done_by_stock_0_10_1",
    "iceberg-catalog-sql 0.10.1 discards the error of its own COMMIT (`let _ = tx.commit()`, apache/iceberg-rust#3061; \
     fixed on main by #3062, backported here as patches/backport/0001): the writer is told Committed for a swap \
     PostgreSQL rolled back",
)];

/// Why `property` cannot be asked of `kind`, if it cannot.
fn not_applicable(kind: CatalogKind, property: &str) -> Option<&'static str> {
    let rest = kind.speaks_rest();
    match property {
        "an_answer_lost_after_apply_leaves_the_commit_applied" if !rest => Some(match kind {
            CatalogKind::Postgres => {
                "the answer travels on PostgreSQL's wire protocol, which the HTTP fault proxy does not carry (`stress` \
                 kills the server instead)"
            }
            _ => "the catalog is called in this process: there is no answer to lose",
        }),
        "an_outage_is_a_typed_error_and_adds_nothing" if kind == CatalogKind::Memory => {
            Some("the catalog is in this process: nothing can be cut off")
        }
        "a_failed_commit_is_not_reported_done" | "a_failed_commit_is_not_reported_done_by_stock_0_10_1"
            if kind != CatalogKind::Postgres =>
        {
            Some(match kind {
                CatalogKind::Sqlite => {
                    "a COMMIT cannot be made to fail from outside a SQLite file the catalog opens itself; the code \
                     is PostgreSQL's (`SqlCatalog::execute`)"
                }
                CatalogKind::Memory => "the catalog has no transaction to fail",
                _ => "the server commits inside its request: a failure is its answer",
            })
        }
        _ => None,
    }
}

/// Every property on every catalog it can be asked of.
pub fn trials() -> Vec<Trial> {
    let mut trials = vec![];
    for &kind in CatalogKind::ALL {
        for property in PROPERTIES {
            if let Some(why) = not_applicable(kind, property.name) {
                let line = serde_json::json!({ "catalog": kind, "property": property.name, "not_applicable": why });
                barrier_lab::record::save("contract", &line).expect("the results directory takes a line");
                continue;
            }
            let Property { name, arm, probe } = *property;
            let known = KNOWN.iter().find(|(k, p, _)| *k == kind && *p == name).map(|(_, _, why)| *why);
            trials.push(super::trial(kind, name, move || {
                Box::pin(async move {
                    let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
                    let fx = Fixture::create(Target::Iceberg(arm, kind), dir.path()).await.map_err(report)?;
                    let (held, observed) = probe(&fx).await?;
                    assert_known(held, observed, known)
                })
            }));
        }
    }
    trials
}

/// A property that held is held; one that broke passes only as a recorded break.
fn assert_known(held: bool, observed: String, known: Option<&str>) -> Found {
    match (held, known) {
        (true, None) => Ok((true, observed)),
        (false, Some(why)) => Ok((false, format!("BROKEN, as recorded ({why}): {observed}"))),
        (true, Some(why)) => Err(format!("recorded as broken ({why}), but it held: {observed}")),
        (false, None) => Err(format!("BROKEN: {observed}")),
    }
}

fn report(e: SinkError) -> String {
    e.report().to_string()
}

/// A new connection to the fixture's table, through the patched build.
async fn connection(fx: &Fixture) -> Result<IcebergTable, String> {
    match fx.iceberg().await.map_err(report)? {
        Some(barrier_iceberg::Table::Patched(table)) => Ok(table),
        _ => Err("a patched-build Iceberg fixture".into()),
    }
}

async fn load(table: &IcebergTable) -> Result<Table, String> {
    table.load().await.map_err(report)
}

/// An append of no data files whose summary names `who`, on `base` as it is: `main` asserted at
/// `base`'s head, nothing refreshed or rebased.
async fn append_on(table: &IcebergTable, base: &Table, who: &str) -> iceberg_patched::Result<Table> {
    let tx = Transaction::new(base).with_rebase(Rebase::Never);
    let summary = HashMap::from([(WRITER.to_string(), who.to_string())]);
    tx.fast_append().set_snapshot_properties(summary).apply(tx)?.commit(table.catalog.as_ref()).await
}

/// The writers of `main`'s snapshots, newest first.
fn writers(table: &Table) -> Vec<String> {
    let metadata = table.metadata();
    let mut next = metadata.current_snapshot_id();
    let mut found = vec![];
    while let Some(snapshot) = next.and_then(|id| metadata.snapshot_by_id(id)) {
        found.extend(snapshot.summary().additional_properties.get(WRITER).cloned());
        next = snapshot.parent_snapshot_id();
    }
    found
}

/// Writers A and B load the table at `main`'s first snapshot; A commits; B commits on its base,
/// now stale. B must be refused, and (`unchanged`) the table after B's attempt must be the table
/// before it: the same metadata file, snapshots, refs and properties.
async fn stale(fx: &Fixture, unchanged: bool) -> Found {
    let (a, b) = (connection(fx).await?, connection(fx).await?);
    append_on(&a, &load(&a).await?, "first").await.map_err(|e| format!("first append: {e}"))?;
    let (base_a, base_b) = (load(&a).await?, load(&b).await?);
    append_on(&a, &base_a, "winner").await.map_err(|e| format!("winner's append: {e}"))?;
    let before = load(&a).await?;
    let refused = append_on(&b, &base_b, "stale").await;
    let after = load(&a).await?;
    let told = match &refused {
        Ok(_) => "accepted".to_string(),
        Err(e) => format!("refused ({:?}, retryable: {})", e.kind(), e.retryable()),
    };
    let on_main = writers(&after);
    if unchanged {
        let same = before.metadata() == after.metadata() && before.metadata_location() == after.metadata_location();
        let observed = format!("the stale append {told}; the table {}", if same { "unchanged" } else { "CHANGED" });
        Ok((refused.is_err() && same, observed))
    } else {
        let observed = format!("the stale append {told}; main's writers {on_main:?}");
        Ok((refused.is_err() && on_main == ["winner", "first"], observed))
    }
}

/// [`RACERS`] writers load the same table and commit on it at once: exactly one is told its
/// commit is done, and the table holds exactly that one, the swap and its requirement check being
/// one atomic step.
async fn racing(fx: &Fixture) -> Found {
    let first = connection(fx).await?;
    append_on(&first, &load(&first).await?, "first").await.map_err(|e| format!("first append: {e}"))?;
    let start = Arc::new(tokio::sync::Barrier::new(RACERS));
    let mut tasks = vec![];
    for i in 0..RACERS {
        let table = connection(fx).await?;
        let base = load(&table).await?;
        let start = Arc::clone(&start);
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            append_on(&table, &base, &format!("racer-{i}")).await.map(|_| i)
        }));
    }
    let mut won = vec![];
    for task in tasks {
        if let Ok(i) = task.await.map_err(|e| e.to_string())? {
            won.push(format!("racer-{i}"));
        }
    }
    let on_main = writers(&load(&first).await?);
    let observed = format!("{} of {RACERS} told done ({won:?}); main's writers {on_main:?}", won.len());
    let one = won.len() == 1 && on_main.len() == 2 && on_main[0] == won[0];
    Ok((one, observed))
}

/// Five appends, each on the table the last one returned: each told done is, on a new
/// connection's load, `main`'s head.
async fn reported(fx: &Fixture) -> Found {
    let table = connection(fx).await?;
    let mut base = load(&table).await?;
    let mut seen = vec![];
    for n in 0..5 {
        base = append_on(&table, &base, &format!("append-{n}")).await.map_err(|e| format!("append {n}: {e}"))?;
        let fresh = load(&connection(fx).await?).await?;
        seen.push(fresh.metadata().current_snapshot_id() == base.metadata().current_snapshot_id());
    }
    let held = seen.iter().all(|s| *s);
    Ok((held, format!("each of 5 appends told done is main's head on a new connection: {seen:?}")))
}

/// A connection that loaded the table before another committed to it loads the other's commit:
/// nothing between the writer and the catalog caches a table.
async fn newest(fx: &Fixture) -> Found {
    let (reader, writer) = (connection(fx).await?, connection(fx).await?);
    let early = load(&reader).await?;
    let mut base = load(&writer).await?;
    for n in 0..3 {
        base = append_on(&writer, &base, &format!("append-{n}")).await.map_err(|e| format!("append {n}: {e}"))?;
    }
    let late = load(&reader).await?;
    let held = late.metadata_location() == base.metadata_location() && late.metadata() == base.metadata();
    let observed = format!(
        "loaded before: {} snapshot(s); after 3 appends elsewhere: {} snapshot(s), {} the writer's metadata",
        early.metadata().snapshots().count(),
        late.metadata().snapshots().count(),
        if held { "exactly" } else { "NOT" }
    );
    Ok((held, observed))
}

/// `main`'s current snapshot offered again, same id, `main` asserted where it is: refused, and the
/// table keeps one snapshot. Every iceberg-rust writer refuses it itself before sending (its own
/// apply of the updates); the servers' own refusal is `http.rs`'s `duplicate_snapshot_id`.
async fn duplicate_id(fx: &Fixture) -> Found {
    let table = connection(fx).await?;
    append_on(&table, &load(&table).await?, "first").await.map_err(|e| format!("first append: {e}"))?;
    let answer = table.offer_current_snapshot_again().await.map_err(report)?;
    let snapshots = load(&table).await?.metadata().snapshots().count();
    let refused = matches!(answer, DuplicateIdAnswer::Refused { .. });
    Ok((refused && snapshots == 1, format!("offered again: {answer:?}; {snapshots} snapshot(s)")))
}

/// The stock naive sink's commit through the fault proxy, whose answer is reset after the server
/// applied it: the writer cannot know (`OutcomeUnknown`), and the table holds the epoch, once.
async fn lost_answer(fx: &Fixture) -> Found {
    let server = fx.proxied_server().ok_or("a server the fault proxy can sit in front of")?;
    let proxy = FaultProxy::start(&server).await.map_err(|e| e.to_string())?;
    let access = Access { uri: Some(proxy.url()), timeout: Some(Duration::from_secs(3)), ..Access::default() };
    let sink = fx.writer_with(WriterOptions::default().with_access(access)).await.map_err(report)?;
    let app = AppId::new("contract").map_err(report)?;
    let one = Epoch::new(1).map_err(report)?;
    proxy.inject(Fault::ResetAfterForward);
    let told = sink.commit(&app, one, batch(0, BATCH_ROWS, "lost")).await;
    let fired = proxy.fired().await.map_err(|e| e.to_string())?;
    let history = fx.epoch_history(&app).await.map_err(report)?;
    let observed = format!(
        "server answered {:?}, the writer was told {}; epochs in the table {history:?}",
        fired.server_status,
        told.as_ref().map_or_else(|e| e.kind().to_string(), |o| format!("{o:?}"))
    );
    Ok((fired.applied() && matches!(told, Err(SinkError::OutcomeUnknown(_))) && history == [one], observed))
}

/// Every way the catalog can be made unavailable to a writer (`catalog_unavailable`'s): a typed
/// error during it, and the same epoch `Committed` after it, the proof that nothing landed.
async fn outages(fx: &Fixture) -> Found {
    let app = AppId::new("contract").map_err(report)?;
    let (mut held, mut observed) = (true, vec![]);
    let kind = fx.target.catalog().ok_or("a catalog")?;
    let mut all = Outage::of(kind).to_vec();
    if kind.outages() == Outages::SqlServer {
        // Once here rather than in every arm's `catalog_unavailable`: it takes sqlx's 30 s.
        all.push(Outage::UnreachableServer);
    }
    for (n, outage) in all.iter().enumerate() {
        let epoch = Epoch::new(n as u64 + 1).map_err(report)?;
        let OutageOutcome { during, after } =
            outage.commit_through(fx, &app, epoch, batch(0, BATCH_ROWS, outage.name())).await.map_err(report)?;
        held &= during.as_ref().is_err_and(|e| outage.expects(e)) && matches!(after, Ok(CommitOutcome::Committed));
        let during = during.map_or_else(|e| e.report().to_string(), |o| format!("{o:?}"));
        observed.push(format!("{}: {during}; then {:?}", outage.name(), after.map_err(|e| e.kind())));
    }
    Ok((held, observed.join("; ")))
}

/// PostgreSQL: a deferred constraint trigger on the catalog's row fails the transaction at its
/// COMMIT, after the `UPDATE` matched: the swap did not happen, so the writer must not be told it
/// did (an unknown outcome is right: a COMMIT's failure can also be a lost answer).
async fn failed_commit(fx: &Fixture) -> Found {
    let TableLocation::Iceberg { catalog_name, table, .. } = fx.location().await.map_err(report)? else {
        return Err("an Iceberg table".into());
    };
    let url = std::env::var("BARRIER_POSTGRES_URL").map_err(|e| e.to_string())?;
    let trigger = FailingCommit::install(&url, &catalog_name, &table).await?;
    let sink = fx.writer(Hooks::default()).await.map_err(report)?;
    let app = AppId::new("contract").map_err(report)?;
    let one = Epoch::new(1).map_err(report)?;
    let told = sink.commit(&app, one, batch(0, BATCH_ROWS, "rolled back")).await;
    trigger.remove().await?;
    let history = fx.epoch_history(&app).await.map_err(report)?;
    let observed = format!(
        "the COMMIT failed; the writer was told {}; epochs in the table {history:?}",
        told.as_ref().map_or_else(|e| e.report().to_string(), |o| format!("{o:?}"))
    );
    Ok((told.is_err() && history.is_empty(), observed))
}

/// A trigger of the fixture's own catalog row that fails every transaction updating it, at COMMIT.
struct FailingCommit {
    conn: sqlx::PgConnection,
    name: String,
}

impl FailingCommit {
    async fn install(url: &str, catalog: &str, table: &str) -> Result<Self, String> {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(url).await.map_err(|e| e.to_string())?;
        let name = format!("barrier_fail_commit_{}", uuid::Uuid::new_v4().simple());
        let quote = |s: &str| s.replace('\'', "''");
        let statements = [
            format!(
                "CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF NEW.catalog_name = '{}' AND NEW.table_name = '{}' THEN \
                 RAISE EXCEPTION 'barrier: this COMMIT fails'; END IF; RETURN NEW; END $$",
                quote(catalog),
                quote(table)
            ),
            format!(
                "CREATE CONSTRAINT TRIGGER {name} AFTER UPDATE ON iceberg_tables DEFERRABLE INITIALLY DEFERRED \
                 FOR EACH ROW EXECUTE FUNCTION {name}()"
            ),
        ];
        for statement in statements {
            sqlx::query(&statement).execute(&mut conn).await.map_err(|e| format!("{statement}: {e}"))?;
        }
        Ok(Self { conn, name })
    }

    async fn remove(mut self) -> Result<(), String> {
        let name = &self.name;
        for statement in [format!("DROP TRIGGER {name} ON iceberg_tables"), format!("DROP FUNCTION {name}()")] {
            sqlx::query(&statement).execute(&mut self.conn).await.map_err(|e| format!("{statement}: {e}"))?;
        }
        Ok(())
    }
}

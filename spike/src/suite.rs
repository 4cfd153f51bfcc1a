//! The generic test bodies: one per behaviour, run against every arm on every catalog.
//!
//! Modelled on object_store's shared integration suite: each body takes a fresh [`Fixture`] and
//! exercises the table only through [`CommitSink`], so the arms are compared on exactly the same
//! steps. A body returns a [`Finding`] instead of panicking so that `verdict` can print the whole
//! matrix; the tests in `spike/tests/` assert `finding.passed`.
//!
//! Every body checks one invariant for every arm, whatever the arm claims: the rows the table holds
//! equal the batches the sink reported `Committed`. A sink may duplicate (that is what the naive arm
//! is here to show) but it may not misreport.

use std::sync::Arc;
use std::time::Duration;

use arrow_array::{RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use serde::Serialize;

use crate::catalogs::Access;
use crate::fixture::{Fixture, OutageOutcome, WriterOptions};
use crate::batch::batch;
use crate::error::SinkError;
use crate::hooks::{HeldWindow, Hooks, Lane, Round, failpoints};
use crate::leftovers::{self, FileKind};
use crate::proxy::{Fault, FaultProxy};
use crate::sink::{AppId, CommitOutcome, CommitSink, Epoch};

/// Rows in every batch the suite commits.
pub const BATCH_ROWS: usize = 8;

/// Rounds `contention_probe` runs when the caller does not say.
pub const PROBE_ROUNDS: usize = 40;

/// A proxied writer's HTTP timeout in `lost_response`: short, because one fault waits it out.
const LOST_RESPONSE_TIMEOUT: Duration = Duration::from_secs(3);

const NOT_APPLICABLE: &str = "not applicable";

/// How long a held-window test waits for a writer to reach the window before calling it broken.
/// A safety net against a hang, not an ordering device: the window itself orders the writers.
const WINDOW_DEADLINE: Duration = Duration::from_secs(120);

/// The scenarios, in the order the matrix prints them.
pub const SCENARIOS: [&str; 13] = [
    "replay_writes_nothing",
    "distinct_epochs_accumulate",
    "writer_behind_commits_once",
    "concurrent_writers_commit_once",
    "contention_probe",
    "held_window",
    "held_at_swap",
    "missing_table",
    "schema_mismatch",
    "catalog_unavailable",
    "aborted_commit_loses_nothing",
    "epochs_survive_expiry",
    "lost_response",
];

/// How often two racing writers both passed their check before either committed.
#[derive(Clone, Debug, Serialize)]
pub struct Contention {
    pub rounds: usize,
    pub overlapped: usize,
    /// Rounds in which both writers committed the same epoch.
    pub duplicated: usize,
}

/// What one body observed on one target, and whether that is what the arm is expected to do.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub scenario: &'static str,
    pub passed: bool,
    pub expected: String,
    pub observed: String,
    /// `app:epoch` for every commit the sink reported `Committed`, in order.
    pub committed: Vec<String>,
    pub rows: u64,
    pub rows_expected: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<Contention>,
}

impl Finding {
    /// The outcome in a few words, for progress lines.
    pub fn brief(&self) -> String {
        if !self.passed {
            return format!("UNEXPECTED (expected {}; the finding in --json)", self.expected);
        }
        if self.expected == NOT_APPLICABLE {
            return NOT_APPLICABLE.to_string();
        }
        match &self.contention {
            Some(c) => format!("as expected, {}/{} rounds overlapped, {} duplicated", c.overlapped, c.rounds, c.duplicated),
            None if crate::verdict::has_duplicates(&self.committed) => "as expected: the duplicate, asserted".to_string(),
            None => "as expected".to_string(),
        }
    }
}

fn app(name: &str) -> AppId {
    AppId::new(name).expect("suite app ids are not empty")
}

fn epoch(n: u64) -> Epoch {
    Epoch::new(n).expect("suite epochs are in range")
}

/// Tracks what the sink reported, to hold the table to it.
#[derive(Default)]
struct Ledger {
    committed: Vec<String>,
}

impl Ledger {
    fn record(&mut self, app: &AppId, epoch: Epoch, outcome: CommitOutcome) -> CommitOutcome {
        if outcome == CommitOutcome::Committed {
            self.committed.push(format!("{app}:{epoch}"));
        }
        outcome
    }

    fn commits(&self) -> usize {
        self.committed.len()
    }

    /// The finding, failed if the table's rows disagree with what the sink reported.
    async fn finding(
        self,
        scenario: &'static str,
        sink: &dyn CommitSink,
        expected: impl Into<String>,
        observed: impl Into<String>,
        passed: bool,
    ) -> Result<Finding, SinkError> {
        let rows = sink.row_count().await?;
        let rows_expected = (self.commits() * BATCH_ROWS) as u64;
        let mut observed = observed.into();
        if rows != rows_expected {
            observed = format!("{observed}; MISREPORTED: table holds {rows} rows, sink reported {rows_expected}");
        }
        Ok(Finding {
            scenario,
            passed: passed && rows == rows_expected,
            expected: expected.into(),
            observed,
            committed: self.committed,
            rows,
            rows_expected,
            contention: None,
        })
    }
}

/// Replaying a committed epoch, or offering a lower one, writes nothing.
pub async fn replay_writes_nothing(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let first = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "first")).await?);
    let replay = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(100, BATCH_ROWS, "replay")).await?);
    let lower = ledger.record(&a, epoch(0), sink.commit(&a, epoch(0), batch(200, BATCH_ROWS, "lower")).await?);
    let committed = sink.committed_epoch(&a).await?;
    let already = CommitOutcome::AlreadyCommitted { committed: epoch(1) };
    let passed = first == CommitOutcome::Committed
        && replay == already
        && lower == already
        && committed == Some(epoch(1));
    ledger
        .finding(
            "replay_writes_nothing",
            sink.as_ref(),
            "epoch 1 committed once; replay of 1 and offer of 0 AlreadyCommitted{1}",
            format!("{first:?}, {replay:?}, {lower:?}; committed_epoch {committed:?}"),
            passed,
        )
        .await
}

/// Increasing epochs commit, gaps included; apps are independent; a late lower epoch is a replay.
pub async fn distinct_epochs_accumulate(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    let mut outcomes = vec![];
    // 3 -> 5 is a gap; app-b's epoch 1 does not collide with app-a's.
    for (who, n) in [(&a, 1), (&a, 2), (&a, 3), (&a, 5), (&b, 1), (&a, 4)] {
        let rows = batch(n as i64 * 100, BATCH_ROWS, who.as_str());
        outcomes.push(ledger.record(who, epoch(n), sink.commit(who, epoch(n), rows).await?));
    }
    let (ca, cb) = (sink.committed_epoch(&a).await?, sink.committed_epoch(&b).await?);
    let passed = outcomes[..5].iter().all(|o| *o == CommitOutcome::Committed)
        && outcomes[5] == CommitOutcome::AlreadyCommitted { committed: epoch(5) }
        && ca == Some(epoch(5))
        && cb == Some(epoch(1));
    ledger
        .finding(
            "distinct_epochs_accumulate",
            sink.as_ref(),
            "a:1,2,3,5 and b:1 commit; a:4 AlreadyCommitted{5}",
            format!("{outcomes:?}; committed a={ca:?} b={cb:?}"),
            passed,
        )
        .await
}

/// A long-lived writer whose table has moved on since its last commit (another writer committed
/// in between), with no race: an arm that starts a commit from the table its last commit returned
/// must neither lose the other writer's commits nor commit an epoch the other writer committed.
/// Writer A commits a:1; B commits b:1; A commits a:2 (on top of b:1); B commits a:3; A offers
/// a:3, then a:4.
pub async fn writer_behind_commits_once(fx: &Fixture) -> Result<Finding, SinkError> {
    let (first, second) = (fx.writer(Hooks::default()).await?, fx.writer(Hooks::default()).await?);
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    let mut outcomes = vec![];
    // The last offer replays a:2 from the second writer, whose last commit (a:3) is behind the
    // table (a:4): its answer must name 4, not the 3 a held copy of the table says.
    let offers = [(&first, &a, 1), (&second, &b, 1), (&first, &a, 2), (&second, &a, 3), (&first, &a, 3), (&first, &a, 4), (&second, &a, 2)];
    for (sink, who, n) in offers {
        let rows = batch(n as i64 * 100, BATCH_ROWS, who.as_str());
        outcomes.push(ledger.record(who, epoch(n), sink.commit(who, epoch(n), rows).await?));
    }
    let (history_a, history_b) = (fx.epoch_history(&a).await?, fx.epoch_history(&b).await?);
    let once = |history: &[Epoch], n: u64| history.iter().filter(|e| **e == epoch(n)).count() == 1;
    let passed = outcomes.iter().enumerate().all(|(i, o)| {
        *o == match i {
            4 => CommitOutcome::AlreadyCommitted { committed: epoch(3) },
            6 => CommitOutcome::AlreadyCommitted { committed: epoch(4) },
            _ => CommitOutcome::Committed,
        }
    }) && history_a.len() == 4
        && (1..=4).all(|n| once(&history_a, n))
        && history_b == [epoch(1)];
    ledger
        .finding(
            "writer_behind_commits_once",
            first.as_ref(),
            "a:1, b:1, a:2, a:3 (the other writer's), a:4 commit; a:3 from the writer behind AlreadyCommitted{3}; a:2 from the other writer, behind since a:4, AlreadyCommitted{4}; each epoch once",
            format!("{outcomes:?}; epochs of app-a {history_a:?}, of app-b {history_b:?}"),
            passed,
        )
        .await
}

/// Two writers race once on the same epoch; each has a sink of its own.
async fn race(fx: &Fixture, a: &AppId, n: u64) -> Result<(Vec<CommitOutcome>, bool), SinkError> {
    let round = Round::new();
    let lanes = [round.lane(), round.lane()];
    let start = Arc::new(tokio::sync::Barrier::new(lanes.len()));
    let mut tasks = vec![];
    for (i, lane) in lanes.iter().enumerate() {
        let sink = fx.writer(Hooks::default().with_lane(Arc::clone(lane))).await?;
        let (start, a) = (Arc::clone(&start), a.clone());
        let rows = batch((n * 1000 + i as u64 * 100) as i64, BATCH_ROWS, &format!("writer-{i}"));
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            sink.commit(&a, epoch(n), rows).await
        }));
    }
    let mut outcomes = vec![];
    for task in tasks {
        outcomes.push(task.await.expect("writer task panicked")?);
    }
    Ok((outcomes, Lane::overlapped(&lanes)))
}

/// Two writers of the same epoch at the same moment: one commit for an arm that claims it.
pub async fn concurrent_writers_commit_once(fx: &Fixture) -> Result<Finding, SinkError> {
    let a = app("app-a");
    let (outcomes, overlapped) = race(fx, &a, 1).await?;
    let mut ledger = Ledger::default();
    for outcome in &outcomes {
        ledger.record(&a, epoch(1), *outcome);
    }
    let commits = ledger.commits();
    let claims = fx.target.arm.claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    ledger
        .finding(
            "concurrent_writers_commit_once",
            sink.as_ref(),
            if claims { "exactly 1 commit" } else { "no claim (reports only)" },
            format!("{commits} commit(s); writers overlapped: {overlapped}"),
            commits == 1 || !claims,
        )
        .await
}

/// The race, `rounds` times, counting how often the writers really contended.
pub async fn contention_probe(fx: &Fixture, rounds: usize) -> Result<Finding, SinkError> {
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let mut contention = Contention { rounds, overlapped: 0, duplicated: 0 };
    for n in 1..=rounds as u64 {
        let (outcomes, overlapped) = race(fx, &a, n).await?;
        let before = ledger.commits();
        for outcome in outcomes {
            ledger.record(&a, epoch(n), outcome);
        }
        contention.overlapped += usize::from(overlapped);
        contention.duplicated += usize::from(ledger.commits() - before > 1);
    }
    let claims = fx.target.arm.claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    let mut finding = ledger
        .finding(
            "contention_probe",
            sink.as_ref(),
            if claims { "no duplicated round" } else { "no claim (reports only)" },
            format!(
                "{}/{} rounds overlapped, {} duplicated",
                contention.overlapped, contention.rounds, contention.duplicated
            ),
            contention.duplicated == 0 || !claims,
        )
        .await?;
    finding.contention = Some(contention);
    Ok(finding)
}

/// Writer A is held after its check passed and before it commits; writer B commits the same
/// epoch; A is released. The overlap the race only sometimes reaches, made certain.
pub async fn held_window(fx: &Fixture) -> Result<Finding, SinkError> {
    held(fx, "held_window", Hooks::with_window, "the duplicate the stale check lets through").await
}

/// Writer A is held with every check of its own passed, right before the catalog's
/// compare-and-swap (Delta: the log's next version); writer B commits the same epoch; A is
/// released. Only what the commit itself carries can stop A now: the requirements the catalog
/// checks atomically with the swap (Delta: the `txn` conflict check), and whatever the library
/// re-checks when it retries the lost swap. This is the one body in which patch 2's assertion,
/// sent with the commit, is what the catalog rejects A on (without it, `iceberg-requirement`'s
/// commit would pin nothing: the append's own `main` requirement is dropped in its favour).
pub async fn held_at_swap(fx: &Fixture) -> Result<Finding, SinkError> {
    held(fx, "held_at_swap", Hooks::with_swap_window, "the library's retry rebases the append onto B's commit").await
}

async fn held(
    fx: &Fixture,
    scenario: &'static str,
    hold: fn(Hooks, Arc<HeldWindow>) -> Hooks,
    duplicate: &str,
) -> Result<Finding, SinkError> {
    let a = app("app-a");
    let window = HeldWindow::new();
    let held = fx.writer(hold(Hooks::default(), Arc::clone(&window))).await?;
    let other = fx.writer(Hooks::default()).await?;
    let held_app = a.clone();
    let mut held_task = tokio::spawn(async move {
        held.commit(&held_app, epoch(1), batch(0, BATCH_ROWS, "held")).await
    });
    let reached = tokio::time::timeout(WINDOW_DEADLINE, async {
        tokio::select! {
            () = window.reached() => Ok(()),
            early = &mut held_task => Err(early),
        }
    })
    .await;
    match reached {
        Ok(Ok(())) => {}
        Ok(Err(early)) => {
            return Err(SinkError::Corrupt(format!(
                "held writer finished without reaching its window: {early:?}"
            )));
        }
        Err(_) => return Err(SinkError::Corrupt("held writer never reached its window".into())),
    }
    let mut ledger = Ledger::default();
    let winner = ledger.record(&a, epoch(1), other.commit(&a, epoch(1), batch(100, BATCH_ROWS, "other")).await?);
    window.release();
    let loser = held_task.await.expect("held writer panicked")?;
    ledger.record(&a, epoch(1), loser);
    let commits = ledger.commits();
    let claims = fx.target.arm.claims_exactly_once();
    let (expected, passed) = if claims {
        (
            "1 commit: the other writer's; the held one AlreadyCommitted{1}".to_string(),
            commits == 1
                && winner == CommitOutcome::Committed
                && loser == CommitOutcome::AlreadyCommitted { committed: epoch(1) },
        )
    } else {
        (format!("2 commits: {duplicate}"), commits == 2)
    };
    ledger
        .finding(
            scenario,
            other.as_ref(),
            expected,
            format!("{commits} commit(s): other {}, held {}", brief(&Ok(winner)), brief(&Ok(loser))),
            passed,
        )
        .await
}

/// A table that does not exist is a typed error, and nothing is created in its place.
pub async fn missing_table(fx: &Fixture) -> Result<Finding, SinkError> {
    let missing = fx.writer_on_missing_table().await?;
    let a = app("app-a");
    let commit = missing.commit(&a, epoch(1), batch(0, BATCH_ROWS, "lost")).await;
    let check = missing.committed_epoch(&a).await;
    let still_missing = missing.row_count().await;
    let typed = |r: Option<&SinkError>| matches!(r, Some(SinkError::TableNotFound(_)));
    let sink = fx.writer(Hooks::default()).await?;
    Ledger::default()
        .finding(
            "missing_table",
            sink.as_ref(),
            "TableNotFound from commit, committed_epoch and row_count",
            format!("commit {commit:?}; committed_epoch {check:?}; row_count {still_missing:?}"),
            typed(commit.as_ref().err()) && typed(check.as_ref().err()) && typed(still_missing.as_ref().err()),
        )
        .await
}

/// A batch whose schema does not match is a typed error that commits nothing and does not burn
/// the epoch: the right batch then commits at the same epoch.
pub async fn schema_mismatch(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let wrong_schema = Arc::new(Schema::new(vec![Field::new("id", DataType::Utf8, false)]));
    let wrong = RecordBatch::try_new(wrong_schema, vec![Arc::new(StringArray::from(vec!["x"; BATCH_ROWS]))])
        .expect("valid batch");
    let rejected = sink.commit(&a, epoch(1), wrong).await;
    let after = sink.committed_epoch(&a).await?;
    let mut ledger = Ledger::default();
    let retried = ledger.record(&a, epoch(1), sink.commit(&a, epoch(1), batch(0, BATCH_ROWS, "right")).await?);
    ledger
        .finding(
            "schema_mismatch",
            sink.as_ref(),
            "SchemaMismatch, epoch still free, then the right batch commits at epoch 1",
            format!("{rejected:?}; committed_epoch after {after:?}; retry {retried:?}"),
            matches!(rejected, Err(SinkError::SchemaMismatch(_)))
                && after.is_none()
                && retried == CommitOutcome::Committed,
        )
        .await
}

/// A catalog that cannot be reached (a file that cannot be created, a server that is down), is
/// locked by another process, or refuses the writer's credentials: a typed error that commits
/// nothing; once the cause is gone the same epoch commits (a `Committed`, not an
/// `AlreadyCommitted`: the proof that nothing landed during the outage). Each catalog kind
/// brings its own outages (`Fixture::outages`); one with none reports "not applicable".
pub async fn catalog_unavailable(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let outages = fx.outages().await?;
    if outages.is_empty() {
        return Ledger::default()
            .finding("catalog_unavailable", sink.as_ref(), NOT_APPLICABLE, NOT_APPLICABLE, true)
            .await;
    }
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let (mut observed, mut passed) = (vec![], true);
    for (i, outage) in outages.iter().enumerate() {
        let n = i as u64 + 1;
        let OutageOutcome { during, after } = outage
            .commit_through(&a, epoch(n), batch(n as i64 * 100, BATCH_ROWS, outage.name()))
            .await?;
        let after = after.map(|o| ledger.record(&a, epoch(n), o));
        passed &= during.as_ref().is_err_and(|e| outage.expects(e)) && matches!(after, Ok(CommitOutcome::Committed));
        observed.push(format!("{}: {} then {}", outage.name(), brief(&during), brief(&after)));
    }
    let committed = sink.committed_epoch(&a).await?;
    passed &= committed == Some(epoch(outages.len() as u64));
    ledger
        .finding(
            "catalog_unavailable",
            sink.as_ref(),
            "a typed error during each outage, then the same epoch Committed once it is over",
            observed.join("; "),
            passed,
        )
        .await
}

/// A commit whose request reaches the server and whose answer never reaches the writer (the
/// network's `barrier.after-swap`), one that never reaches the server, and one delivered twice,
/// each forced by the fault proxy on one commit request (`proxy::Fault`).
///
/// For the first four the writer gets [`SinkError::OutcomeUnknown`] (it cannot tell them apart)
/// and the replay of the same epoch resolves it: `AlreadyCommitted` where the server applied the
/// commit, `Committed` where it never saw it. A commit delivered twice reaches the writer as a
/// conflict (the second delivery fails its requirements), which the library's loop retries on a
/// refreshed table: an arm that checks inside that loop answers `AlreadyCommitted` (its own
/// first delivery holds the epoch); `iceberg-naive` rebases its append onto its own first
/// delivery, and only the fast append's duplicate-file check (`check_duplicate`, on by default)
/// stops it, with a `DataInvalid` error ([`SinkError::Iceberg`], asserted). Every epoch ends in
/// the table exactly once. Only catalogs the proxy can sit in front of (`rest`); others report
/// "not applicable".
pub async fn lost_response(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let Some(server) = fx.proxied_server() else {
        return Ledger::default()
            .finding("lost_response", sink.as_ref(), NOT_APPLICABLE, NOT_APPLICABLE, true)
            .await;
    };
    let proxy = FaultProxy::start(&server).await.map_err(|e| SinkError::CatalogUnavailable(e.to_string()))?;
    let access = Access { uri: Some(proxy.url()), timeout: Some(LOST_RESPONSE_TIMEOUT), ..Access::default() };
    let proxied = fx.writer_with(WriterOptions::default().with_access(access)).await?;
    let claims = fx.target.arm.claims_exactly_once();
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let (mut observed, mut passed, mut once) = (vec![], true, vec![]);
    for (i, fault) in Fault::ALL.into_iter().enumerate() {
        let n = i as u64 + 1;
        let rows = || batch(n as i64 * 100, BATCH_ROWS, fault.name());
        proxy.inject(fault);
        let first = proxied.commit(&a, epoch(n), rows()).await;
        let report = proxy.fired().await.map_err(|e| SinkError::Corrupt(e.to_string()))?;
        if report.applied() {
            ledger.record(&a, epoch(n), CommitOutcome::Committed);
        }
        if let Ok(outcome) = &first {
            ledger.record(&a, epoch(n), *outcome);
        }
        let replay = ledger.record(&a, epoch(n), proxied.commit(&a, epoch(n), rows()).await?);
        let taken = CommitOutcome::AlreadyCommitted { committed: epoch(n) };
        passed &= report.applied() == fault.forwards()
            && replay == if report.applied() { taken } else { CommitOutcome::Committed }
            && match (fault, claims) {
                (Fault::DeliveredTwice, true) => matches!(first, Ok(o) if o == taken),
                (Fault::DeliveredTwice, false) => matches!(first, Err(SinkError::Iceberg(_))),
                _ => matches!(first, Err(SinkError::OutcomeUnknown(_))),
            };
        once.push(epoch(n));
        let statuses: Vec<String> = report.server_status.iter().map(u16::to_string).collect();
        observed.push(format!(
            "{}: server {}, writer {}, replay {}",
            fault.name(),
            if statuses.is_empty() { "never saw it".to_string() } else { statuses.join("+") },
            brief(&first),
            brief(&Ok::<_, SinkError>(replay)),
        ));
    }
    let mut history = fx.epoch_history(&a).await?;
    history.sort();
    passed &= history == once;
    observed.push(format!("epochs in the table: {}", history.iter().map(Epoch::to_string).collect::<Vec<_>>().join(",")));
    ledger
        .finding(
            "lost_response",
            sink.as_ref(),
            if claims {
                "OutcomeUnknown for a lost answer (replay AlreadyCommitted if applied, Committed if not); AlreadyCommitted for a double delivery; each epoch once"
            } else {
                "as a guarded arm, except a double delivery: the duplicate-file check's Iceberg error; each epoch once"
            },
            observed.join("; "),
            passed,
        )
        .await
}

/// A short account of what a commit returned: the outcome, or the error's kind.
fn brief(result: &Result<CommitOutcome, SinkError>) -> String {
    match result {
        Ok(CommitOutcome::Committed) => "Committed".into(),
        Ok(CommitOutcome::AlreadyCommitted { committed }) => format!("AlreadyCommitted{{{committed}}}"),
        Err(err) => err.kind().to_string(),
    }
}

/// A commit stopped at each failpoint of its format (after the data files, before the swap, for
/// Iceberg inside the swap after the new metadata file, and right after the swap, before the
/// writer learns the outcome) loses nothing: offering the same epoch again commits it exactly
/// once. Reports the files each stop left behind, and requires the stop inside the swap to have
/// left its metadata file: the proof that it stopped there. Uses process-global failpoints: callers must not run
/// anything else in this process at the same time (`fail::FailScenario` serializes tests).
pub async fn aborted_commit_loses_nothing(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let mut observed = vec![];
    let mut passed = true;
    let mut seen = fx.left_behind().await?;
    for (i, &point) in fx.target.failpoints().iter().enumerate() {
        let n = i as u64 + 1;
        fail::cfg(point, "return").expect("valid failpoint action");
        let aborted = sink.commit(&a, epoch(n), batch(n as i64 * 100, BATCH_ROWS, point)).await;
        fail::remove(point);
        let replayed = ledger.record(&a, epoch(n), sink.commit(&a, epoch(n), batch(n as i64 * 100, BATCH_ROWS, point)).await?);
        // After the swap the first attempt did commit: the replay must find it, not add it again.
        let swapped = point == failpoints::AFTER_SWAP;
        if swapped {
            ledger.record(&a, epoch(n), CommitOutcome::Committed);
        }
        let want = if swapped {
            CommitOutcome::AlreadyCommitted { committed: epoch(n) }
        } else {
            CommitOutcome::Committed
        };
        let now = fx.left_behind().await?;
        let left: Vec<_> = now.iter().filter(|f| !seen.contains(f)).cloned().collect();
        seen = now;
        passed &= matches!(&aborted, Err(SinkError::Injected(p)) if p == point) && replayed == want;
        // The proof that `after-metadata-file` stopped inside the swap, not before it: the
        // metadata file it wrote is there, and no version of the table points to it.
        if point == failpoints::AFTER_METADATA_FILE {
            passed &= left.iter().any(|f| f.kind == FileKind::Metadata);
        }
        observed.push(format!("{point}: {} then {}, left behind {}", brief(&aborted), brief(&Ok(replayed)), leftovers::summary(&left)));
    }
    ledger
        .finding(
            "aborted_commit_loses_nothing",
            sink.as_ref(),
            "each aborted epoch commits exactly once on replay (after-swap: AlreadyCommitted)",
            observed.join("; "),
            passed,
        )
        .await
}

/// Retention removes the history that carries the epochs (Iceberg: snapshot expiry; Delta: a
/// checkpoint and log cleanup). An app whose commits are all gone must still be recognised:
/// replaying its last epoch writes nothing, and the next one commits.
pub async fn epochs_survive_expiry(fx: &Fixture) -> Result<Finding, SinkError> {
    let sink = fx.writer(Hooks::default()).await?;
    let (a, b) = (app("app-a"), app("app-b"));
    let mut ledger = Ledger::default();
    for (who, n) in [(&a, 1), (&a, 2), (&a, 3), (&b, 1)] {
        ledger.record(who, epoch(n), sink.commit(who, epoch(n), batch(n as i64 * 100, BATCH_ROWS, who.as_str())).await?);
    }
    let removed = fx.expire_history().await?;
    // For Iceberg, the proof that expiry really cut app-a's snapshots: the walk alone finds nothing.
    let walk_alone = fx.epoch_from_walk_alone(&a).await?;
    let after = sink.committed_epoch(&a).await?;
    let replay = ledger.record(&a, epoch(3), sink.commit(&a, epoch(3), batch(900, BATCH_ROWS, "replay")).await?);
    let next = ledger.record(&a, epoch(4), sink.commit(&a, epoch(4), batch(400, BATCH_ROWS, "next")).await?);
    ledger
        .finding(
            "epochs_survive_expiry",
            sink.as_ref(),
            "history removed; app-a still at 3; replay of 3 AlreadyCommitted{3}; 4 commits",
            format!(
                "{removed} snapshots/log files removed; ancestry walk alone {walk_alone:?}; committed_epoch {after:?}; replay {replay:?}; next {next:?}"
            ),
            removed > 0
                && walk_alone.is_none()
                && after == Some(epoch(3))
                && replay == CommitOutcome::AlreadyCommitted { committed: epoch(3) }
                && next == CommitOutcome::Committed,
        )
        .await
}

/// Runs one scenario by name; a scenario that cannot apply to the arm (a peer's, see
/// [`crate::peer::Peer::not_applicable`]) reports "not applicable" and why.
pub async fn run(scenario: &'static str, fx: &Fixture, probe_rounds: usize) -> Result<Finding, SinkError> {
    if let Some(why) = fx.target.arm.not_applicable(scenario) {
        return Ok(Finding {
            scenario,
            passed: true,
            expected: NOT_APPLICABLE.into(),
            observed: format!("{NOT_APPLICABLE}: {why}"),
            committed: vec![],
            rows: 0,
            rows_expected: 0,
            contention: None,
        });
    }
    match scenario {
        "replay_writes_nothing" => replay_writes_nothing(fx).await,
        "distinct_epochs_accumulate" => distinct_epochs_accumulate(fx).await,
        "writer_behind_commits_once" => writer_behind_commits_once(fx).await,
        "concurrent_writers_commit_once" => concurrent_writers_commit_once(fx).await,
        "contention_probe" => contention_probe(fx, probe_rounds).await,
        "held_window" => held_window(fx).await,
        "held_at_swap" => held_at_swap(fx).await,
        "missing_table" => missing_table(fx).await,
        "schema_mismatch" => schema_mismatch(fx).await,
        "catalog_unavailable" => catalog_unavailable(fx).await,
        "aborted_commit_loses_nothing" => aborted_commit_loses_nothing(fx).await,
        "epochs_survive_expiry" => epochs_survive_expiry(fx).await,
        "lost_response" => lost_response(fx).await,
        other => panic!("unknown scenario {other}"),
    }
}

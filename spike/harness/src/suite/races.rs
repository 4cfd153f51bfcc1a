//! The bodies where two writers race on one epoch: freely (how often they really overlapped is
//! counted), and held in a window (after the check, at the swap) so that the overlap is certain.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;

use barrier_sink::{AppId, CommitOutcome, HeldWindow, Hooks, Lane, Round, SinkError};

use super::ledger::{Ledger, app, brief, epoch};
use super::{Contention, Finding};
use crate::batch::{BATCH_ROWS, batch};
use crate::error::Error;
use crate::fixture::Fixture;
use crate::scenario::Scenario;

/// How long a held-window test waits for a writer to reach the window before calling it broken.
/// A safety net against a hang, not an ordering device: the window itself orders the writers.
const WINDOW_DEADLINE: Duration = Duration::from_secs(120);

/// Two writers race once on the same epoch; each has a sink of its own. A writer told that
/// another attempt claims the epoch (`EpochClaimed`: `iceberg-file-key` found the other writer's
/// file at its name before that writer committed) offers it again once the race is over, as its
/// caller would.
async fn race(fx: &Fixture, a: &AppId, n: u64) -> Result<(Vec<CommitOutcome>, bool), SinkError> {
    let round = Round::new();
    let lanes = [round.lane(), round.lane()];
    let start = Arc::new(std::sync::Barrier::new(lanes.len()));
    let rows = |i: usize| batch((n * 1000 + i as u64 * 100) as i64, BATCH_ROWS, &format!("writer-{i}"));
    let mut tasks = vec![];
    let runtime = tokio::runtime::Handle::current();
    for (i, lane) in lanes.iter().enumerate() {
        let sink = fx.writer(Hooks::default().with_lane(Arc::clone(lane))).await?;
        let (start, a, rows, runtime) = (Arc::clone(&start), a.clone(), rows(i), runtime.clone());
        // Each writer on a thread of its own, both let go at once: on two cores the race is as
        // simultaneous as two processes' (tasks of one runtime could run one after the other).
        tasks.push(tokio::task::spawn_blocking(move || {
            start.wait();
            let told = runtime.block_on(sink.commit(&a, epoch(n), rows));
            (sink, told)
        }));
    }
    let mut told = vec![];
    for task in tasks {
        told.push(task.await.expect("writer task panicked"));
    }
    let mut outcomes = vec![];
    for (i, (sink, result)) in told.into_iter().enumerate() {
        outcomes.push(match result {
            Err(SinkError::EpochClaimed(_)) => sink.commit(a, epoch(n), rows(i)).await?,
            other => other?,
        });
    }
    Ok((outcomes, Lane::overlapped(&lanes)))
}

/// How many rounds `concurrent_writers_commit_once` may race before it calls the overlap not
/// reached: at the slowest overlap rate measured (14 of 40 rounds, a Python peer on Delta) eight
/// misses in a row happen about once in 30 runs of it; on the Rust arms (34 of 40 or better), about
/// once in four million.
const OVERLAP_ROUNDS: u64 = 8;

/// Two writers of the same epoch at the same moment: one commit for an arm that claims it. The
/// race is run again on the next epoch until the writers really overlapped (at most
/// `OVERLAP_ROUNDS` times): a race in which they never did tests nothing, and fails.
pub(super) async fn concurrent_writers_commit_once(fx: &Fixture) -> Result<Finding, Error> {
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let mut contention = Contention { rounds: 0, overlapped: 0, duplicated: 0 };
    while contention.overlapped == 0 && (contention.rounds as u64) < OVERLAP_ROUNDS {
        let n = contention.rounds as u64 + 1;
        let (outcomes, overlapped) = race(fx, &a, n).await?;
        let before = ledger.commits();
        for outcome in outcomes {
            ledger.record(&a, epoch(n), outcome);
        }
        contention.rounds += 1;
        contention.overlapped += usize::from(overlapped);
        contention.duplicated += usize::from(ledger.commits() - before > 1);
    }
    let commits = ledger.commits();
    let claims = fx.target.claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    let mut finding = ledger
        .finding(
            Scenario::ConcurrentWritersCommitOnce,
            sink.as_ref(),
            if claims {
                "exactly 1 commit per round, the writers overlapped in the last (raced again until they did)"
            } else {
                "no claim (reports only), the writers overlapped in the last round (raced again until they did)"
            },
            format!(
                "{commits} commit(s) in {} round(s); writers overlapped in {}",
                contention.rounds, contention.overlapped
            ),
            (contention.duplicated == 0 || !claims) && contention.overlapped > 0,
        )
        .await?;
    finding.contention = Some(contention);
    Ok(finding)
}

/// The race, `rounds` times, counting how often the writers really contended.
pub(super) async fn contention_probe(fx: &Fixture, rounds: usize) -> Result<Finding, Error> {
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
    let claims = fx.target.claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    let mut finding = ledger
        .finding(
            Scenario::ContentionProbe,
            sink.as_ref(),
            if claims {
                "no duplicated round, and the writers really overlapped in some round (a race that never did tests nothing)"
            } else {
                "no claim (reports only), and the writers really overlapped in some round"
            },
            format!(
                "{}/{} rounds overlapped, {} duplicated",
                contention.overlapped, contention.rounds, contention.duplicated
            ),
            (contention.duplicated == 0 || !claims) && contention.overlapped > 0,
        )
        .await?;
    finding.contention = Some(contention);
    Ok(finding)
}

/// Writer A is held after its check passed and before it commits; writer B commits the same
/// epoch; A is released. The overlap the race only sometimes reaches, made certain.
pub(super) async fn held_window(fx: &Fixture) -> Result<Finding, Error> {
    held(fx, Scenario::HeldWindow, Hooks::with_window, "the duplicate the stale check lets through").await
}

/// Writer A is held with every check of its own passed, right before the catalog's
/// compare-and-swap (Delta: the log's next version); writer B commits the same epoch; A is
/// released. Only what the commit itself carries can stop A now: the requirements the catalog
/// checks atomically with the swap (Delta: the `txn` conflict check), and whatever the library
/// re-checks when it retries the lost swap. This is the one body in which patch 2's assertion,
/// sent with the commit, is what the catalog rejects A on (without it, `iceberg-requirement`'s
/// commit would pin nothing: the append's own `main` requirement is dropped in its favour).
pub(super) async fn held_at_swap(fx: &Fixture) -> Result<Finding, Error> {
    held(fx, Scenario::HeldAtSwap, Hooks::with_swap_window, "the library's retry rebases the append onto B's commit")
        .await
}

/// Waits until the writer of `task` reaches `window`, and hands the task back.
pub(super) async fn until_held<T: std::fmt::Debug>(
    window: &HeldWindow,
    mut task: JoinHandle<T>,
) -> Result<JoinHandle<T>, Error> {
    let reached = tokio::time::timeout(WINDOW_DEADLINE, async {
        tokio::select! {
            () = window.reached() => Ok(()),
            early = &mut task => Err(early),
        }
    })
    .await;
    match reached {
        Ok(Ok(())) => Ok(task),
        Ok(Err(early)) => Err(Error::Broken(format!("held writer finished without reaching its window: {early:?}"))),
        Err(_) => Err(Error::Broken("held writer never reached its window".into())),
    }
}

async fn held(
    fx: &Fixture,
    scenario: Scenario,
    hold: fn(Hooks, Arc<HeldWindow>) -> Hooks,
    duplicate: &str,
) -> Result<Finding, Error> {
    let a = app("app-a");
    let window = HeldWindow::new();
    let held = fx.writer(hold(Hooks::default(), Arc::clone(&window))).await?;
    let other = fx.writer(Hooks::default()).await?;
    let held_app = a.clone();
    let held_task = tokio::spawn(async move { held.commit(&held_app, epoch(1), batch(0, BATCH_ROWS, "held")).await });
    let held_task = until_held(&window, held_task).await?;
    let mut ledger = Ledger::default();
    let offer = || batch(100, BATCH_ROWS, "other");
    let (winner, loser, claimed) = match other.commit(&a, epoch(1), offer()).await {
        // The held writer's file already claims the epoch (`iceberg-file-key` at the swap): the
        // other writer offers it again once the held one is done.
        Err(SinkError::EpochClaimed(_)) => {
            window.release();
            let held = held_task.await.expect("held writer panicked")?;
            (other.commit(&a, epoch(1), offer()).await?, held, true)
        }
        told => {
            let told = told?;
            window.release();
            (told, held_task.await.expect("held writer panicked")?, false)
        }
    };
    ledger.record(&a, epoch(1), winner);
    ledger.record(&a, epoch(1), loser);
    let commits = ledger.commits();
    let claims = fx.target.claims_exactly_once();
    let taken = CommitOutcome::AlreadyCommitted { committed: epoch(1) };
    // The writer that must have committed, its rows the table's; the other is told the epoch.
    let (first, second, landed) = if claimed { (loser, winner, "held") } else { (winner, loser, "other") };
    let rows = fx.epoch_batches(&a).await?;
    let rows_of_reporter = rows.len() != 1 || rows[0].1 == BTreeSet::from([landed.to_string()]);
    let (expected, passed) = if claims {
        (
            "1 commit, its rows the batch of the writer told Committed: the other writer's, the held one \
             AlreadyCommitted{1} (or, where the held writer's file already claimed the epoch, the other way round)"
                .to_string(),
            commits == 1 && first == CommitOutcome::Committed && second == taken && rows_of_reporter,
        )
    } else {
        (format!("2 commits: {duplicate}"), commits == 2)
    };
    let claim = if claimed { " (other told EpochClaimed first, offered again after the held one)" } else { "" };
    let mut observed = format!("{commits} commit(s): other {}, held {}{claim}", brief(&Ok(winner)), brief(&Ok(loser)));
    if !rows_of_reporter {
        observed.push_str(&format!("; ROWS NOT THE REPORTER'S: epoch 1 holds {:?}", rows[0].1));
    }
    ledger.finding(scenario, other.as_ref(), expected, observed, passed).await
}

//! The bodies where two writers race on one epoch: freely (how often they really overlapped is
//! counted), and held in a window (after the check, at the swap) so that the overlap is certain.

use std::sync::Arc;
use std::time::Duration;

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
pub(super) async fn concurrent_writers_commit_once(fx: &Fixture) -> Result<Finding, Error> {
    let a = app("app-a");
    let (outcomes, overlapped) = race(fx, &a, 1).await?;
    let mut ledger = Ledger::default();
    for outcome in &outcomes {
        ledger.record(&a, epoch(1), *outcome);
    }
    let commits = ledger.commits();
    let claims = fx.target.arm().claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    ledger
        .finding(
            Scenario::ConcurrentWritersCommitOnce,
            sink.as_ref(),
            if claims { "exactly 1 commit" } else { "no claim (reports only)" },
            format!("{commits} commit(s); writers overlapped: {overlapped}"),
            commits == 1 || !claims,
        )
        .await
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
    let claims = fx.target.arm().claims_exactly_once();
    let sink = fx.writer(Hooks::default()).await?;
    let mut finding = ledger
        .finding(
            Scenario::ContentionProbe,
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
    let mut held_task =
        tokio::spawn(async move { held.commit(&held_app, epoch(1), batch(0, BATCH_ROWS, "held")).await });
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
            return Err(Error::Broken(format!("held writer finished without reaching its window: {early:?}")));
        }
        Err(_) => return Err(Error::Broken("held writer never reached its window".into())),
    }
    let mut ledger = Ledger::default();
    let winner = ledger.record(&a, epoch(1), other.commit(&a, epoch(1), batch(100, BATCH_ROWS, "other")).await?);
    window.release();
    let loser = held_task.await.expect("held writer panicked")?;
    ledger.record(&a, epoch(1), loser);
    let commits = ledger.commits();
    let claims = fx.target.arm().claims_exactly_once();
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

//! The bodies where something fails: the catalog unavailable, an answer lost on the network, a
//! commit stopped at each of its steps.

use std::time::Duration;

use barrier_sink::fail;
use barrier_sink::{CommitOutcome, Epoch, Failpoint, Hooks, SinkError};

use super::Finding;
use super::ledger::{Ledger, app, brief, epoch};
use crate::batch::{BATCH_ROWS, batch};
use crate::catalogs::Access;
use crate::error::Error;
use crate::fixture::{Fixture, OutageOutcome, WriterOptions};
use crate::leftovers::{self, FileKind};
use crate::proxy::{Fault, FaultProxy};
use crate::scenario::Scenario;

/// A proxied writer's HTTP timeout in `lost_response`. One fault waits it out
/// (`forward-after-timeout`), so it is short; but it bounds every request the writer sends
/// through the proxy, faulted or not, so it must outlast any answer from a loaded server. At 3 s,
/// `iceberg_naive_stock::rustberg::lost_response` failed once in CI (stop 48), where the whole test
/// command shares two cores with a debug build of Rustberg; it passed alone and beside busy loops.
const LOST_RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);

/// A catalog that cannot be reached (a file that cannot be created, a server that is down), is
/// locked by another process, or refuses the writer's credentials: a typed error that commits
/// nothing; once the cause is gone the same epoch commits (a `Committed`, not an
/// `AlreadyCommitted`: the proof that nothing landed during the outage). Each catalog kind
/// brings its own outages ([`Fixture::outages`]); one with none does not apply.
pub(super) async fn catalog_unavailable(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let outages = fx.outages();
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let (mut observed, mut passed) = (vec![], true);
    for (i, outage) in outages.iter().enumerate() {
        let n = i as u64 + 1;
        let OutageOutcome { during, after } =
            outage.commit_through(fx, &a, epoch(n), batch(n as i64 * 100, BATCH_ROWS, outage.name())).await?;
        let after = after.map(|o| ledger.record(&a, epoch(n), o));
        passed &= during.as_ref().is_err_and(|e| outage.expects(e)) && matches!(after, Ok(CommitOutcome::Committed));
        observed.push(format!("{}: {} then {}", outage.name(), brief(&during), brief(&after)));
    }
    let committed = sink.committed_epoch(&a).await?;
    passed &= committed == Some(epoch(outages.len() as u64));
    ledger
        .finding(
            Scenario::CatalogUnavailable,
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
/// the table exactly once. Only on catalogs the proxy can sit in front of (the REST servers).
///
/// Where the writer's client resends a lost commit with its `Idempotency-Key` (the patched build)
/// and the server honours keys (`rustberg`), the writer is told `Committed` instead, except where
/// the resend meets a server that applied the first request without storing its answer
/// (`unrecorded-after-forward`, and `forward-after-timeout` when the held request wins the race):
/// there the client says the outcome is unknown. See [`first_as_expected`].
pub(super) async fn lost_response(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let server =
        fx.proxied_server().ok_or_else(|| Error::Broken("no server to put the fault proxy in front of".into()))?;
    let proxy = FaultProxy::start(&server).await.map_err(Error::io("fault proxy"))?;
    let access = Access { uri: Some(proxy.url()), timeout: Some(LOST_RESPONSE_TIMEOUT), ..Access::default() };
    let proxied = fx.writer_with(WriterOptions::default().with_access(access)).await?;
    let claims = fx.target.claims_exactly_once();
    let keyed = fx.target.resends_with_idempotency_key();
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let (mut observed, mut passed, mut once) = (vec![], true, vec![]);
    for (i, fault) in Fault::ALL.into_iter().enumerate() {
        let n = i as u64 + 1;
        let rows = || batch(n as i64 * 100, BATCH_ROWS, fault.name());
        proxy.inject(fault);
        let first = proxied.commit(&a, epoch(n), rows()).await;
        let report = proxy.fired().await.map_err(Error::io("fault proxy"))?;
        // The writer's own `Committed` already counts its commit: a resend with the key landed it.
        let told = matches!(first, Ok(CommitOutcome::Committed));
        if report.applied() && !told {
            ledger.record(&a, epoch(n), CommitOutcome::Committed);
        }
        if let Ok(outcome) = &first {
            ledger.record(&a, epoch(n), *outcome);
        }
        let replay = ledger.record(&a, epoch(n), proxied.commit(&a, epoch(n), rows()).await?);
        let taken = CommitOutcome::AlreadyCommitted { committed: epoch(n) };
        let landed = report.applied() || told;
        // A held request forwarded after the writer's keyed resend may lose the race to it.
        let raced = keyed && fault == Fault::ForwardAfterWriterGaveUp;
        passed &= (report.applied() == fault.forwards() || raced)
            && replay == if landed { taken } else { CommitOutcome::Committed }
            && first_as_expected(fault, claims, keyed, &first, taken);
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
    observed
        .push(format!("epochs in the table: {}", history.iter().map(Epoch::to_string).collect::<Vec<_>>().join(",")));
    ledger
        .finding(
            Scenario::LostResponse,
            sink.as_ref(),
            match (keyed, claims) {
                (false, true) => "OutcomeUnknown for a lost answer (replay AlreadyCommitted if applied, Committed if not); AlreadyCommitted for a double delivery; each epoch once",
                (false, false) => "as a guarded arm, except a double delivery: the duplicate-file check's Iceberg error; each epoch once",
                (true, _) => "resent with its Idempotency-Key: Committed for a lost answer and a double delivery, OutcomeUnknown where the server applied the first request without storing its answer (unrecorded-after-forward; forward-after-timeout when the held request wins: else Committed); each epoch once",
            },
            observed.join("; "),
            passed,
        )
        .await
}

/// A commit stopped at each failpoint of its format (after the data files, before the swap, for
/// Iceberg inside the swap after the new metadata file, and right after the swap, before the
/// writer learns the outcome) loses nothing: offering the same epoch again commits it exactly
/// once. Reports the files each stop left behind, and requires the stop inside the swap to have
/// left its metadata file: the proof that it stopped there. Uses process-global failpoints:
/// callers must not run anything else in this process at the same time (`fail::FailScenario`
/// serializes tests), and the build needs the `failpoints` feature.
pub(super) async fn aborted_commit_loses_nothing(fx: &Fixture) -> Result<Finding, Error> {
    let sink = fx.writer(Hooks::default()).await?;
    let a = app("app-a");
    let mut ledger = Ledger::default();
    let mut observed = vec![];
    let mut passed = true;
    let mut seen = fx.left_behind().await?;
    for (i, &point) in fx.target.failpoints().iter().enumerate() {
        let n = i as u64 + 1;
        let rows = || batch(n as i64 * 100, BATCH_ROWS, point.name());
        fail::cfg(point.name(), "return").expect("valid failpoint action");
        let aborted = sink.commit(&a, epoch(n), rows()).await;
        fail::remove(point.name());
        let replayed = ledger.record(&a, epoch(n), sink.commit(&a, epoch(n), rows()).await?);
        // After the swap the first attempt did commit: the replay must find it, not add it again.
        let swapped = point == Failpoint::AfterSwap;
        if swapped {
            ledger.record(&a, epoch(n), CommitOutcome::Committed);
        }
        let want =
            if swapped { CommitOutcome::AlreadyCommitted { committed: epoch(n) } } else { CommitOutcome::Committed };
        let now = fx.left_behind().await?;
        let left: Vec<_> = now.iter().filter(|f| !seen.contains(f)).cloned().collect();
        seen = now;
        passed &= matches!(&aborted, Err(SinkError::Injected(p)) if *p == point) && replayed == want;
        // The proof that `after-metadata-file` stopped inside the swap, not before it: the
        // metadata file it wrote is there, and no version of the table points to it.
        if point == Failpoint::AfterMetadataFile {
            passed &= left.iter().any(|f| f.kind == FileKind::Metadata);
        }
        let left = leftovers::summary(&left);
        observed.push(format!("{point}: {} then {}, left behind {left}", brief(&aborted), brief(&Ok(replayed))));
    }
    ledger
        .finding(
            Scenario::AbortedCommitLosesNothing,
            sink.as_ref(),
            "each aborted epoch commits exactly once on replay (after-swap: AlreadyCommitted)",
            observed.join("; "),
            passed,
        )
        .await
}

/// What the writer is told of a commit hit by `fault`. Without a key a lost answer is
/// `OutcomeUnknown` and a double delivery a conflict the library retries. With the key resent
/// (`keyed`: the patched build's client and a server that advertises keys) the server replays the
/// stored answer, so the writer learns `Committed`, except where the server applied the first
/// request without storing its answer: the resend then executes as a new request, and its 409 (the
/// writer's own commit) is an unknown outcome, never a conflict to retry. That is always so for
/// `unrecorded-after-forward`, and for `forward-after-timeout` when the held request wins the race
/// with the resend (the server records a key's answer after the commit); when the resend wins, the
/// writer is told `Committed`.
fn first_as_expected(
    fault: Fault,
    claims: bool,
    keyed: bool,
    first: &Result<CommitOutcome, SinkError>,
    taken: CommitOutcome,
) -> bool {
    match (fault, keyed, claims) {
        (Fault::ForwardAfterWriterGaveUp, true, _) => {
            matches!(first, Ok(CommitOutcome::Committed) | Err(SinkError::OutcomeUnknown(_)))
        }
        (Fault::UnrecordedAfterForward, true, _) => matches!(first, Err(SinkError::OutcomeUnknown(_))),
        (_, true, _) => matches!(first, Ok(CommitOutcome::Committed)),
        (Fault::DeliveredTwice, false, true) => matches!(first, Ok(o) if *o == taken),
        (Fault::DeliveredTwice, false, false) => matches!(first, Err(SinkError::Iceberg(_))),
        (_, false, _) => matches!(first, Err(SinkError::OutcomeUnknown(_))),
    }
}

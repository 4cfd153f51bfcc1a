"""The peer arms: other implementations committing `(app, epoch)` to this project's tables.

Three writers, each the way an application would write it with that library, on the tables the
Rust fixtures create (same schema, same catalogs, same summary keys and watermark property):

- `pyiceberg-naive`: loads the table, checks the app's epoch (`barrier.app-id`, `barrier.epoch`
  in main's snapshot summaries, and the `barrier.watermark.<app>` property), then appends the
  batch and sets the watermark in one transaction, with the library's retry as the table
  configures it. The library retries a lost swap by itself, on a refreshed table.
- `pyiceberg-owned-loop`: the same check and transaction, with the library's retry off for this
  writer's commits (`commit.retry.num-retries` read as 0); on `CommitFailedException` it
  reloads, checks again and retries itself: the Python twin of `iceberg-requirement`. It holds
  only because pyiceberg's first attempt asserts `main` at the base the caller loaded.
- `deltalake-python`: reads the app's `txn` version from the table it loaded, then
  `write_deltalake` on that table with `CommitProperties(app_transactions=[Transaction(app,
  epoch)])`; on `CommitFailedError` (delta-rs's conflict checker: a concurrent `txn` of the same
  app) it reloads and checks again.

Two modes:

    peer.py serve ARM LOCATION
        One writer, driven over JSON lines on stdin/stdout by `spike/harness/src/peer/` (PeerSink),
        as docs/peer-protocol.md says (the JVM peers speak the same). Its hold points are
        `check-passed`, right after its epoch check found the epoch free, and `swap-reached`,
        right before each call of the catalog's `commit_table` (pyiceberg only).

    peer.py stress-worker ARM LOCATION --app APP --epochs N --rows R --id K --logs DIR
                          --max-errors M --ready FILE --start FILE [--turns W --peers P]
        One writer process of a `stress` run (spike/lab/src/stress/peers.rs): creates the ready file
        once its library is imported and its catalog open, waits for the start file (the
        parent's signal that the Rust writers were started too), then from the table's committed
        epoch (replayed) to N, each epoch until told committed or already committed, errors backing
        off and retrying; logs the same events as spike/lab/src/stress/worker.rs into
        DIR/writer-K.jsonl. With --turns W --peers P (the run's W Rust writers are DIR/writer-0..W-1,
        its P peers DIR/writer-W..W+P-1), it tries an epoch that is the Rust writers' turn
        (epoch % 3 == 2) only once one of them has logged an answer at that epoch or a later one,
        and an epoch that is the peers' turn (epoch % 3 == 0) only once that epoch's leading peer,
        W + (epoch / 3) % P, has, unless it leads: spike/lab/src/stress/turns.rs, the other half.

The error kinds are those of the Rust `SinkError` (`TableNotFound`, `SchemaMismatch`,
`CatalogUnavailable`, `OutcomeUnknown`, `Conflict`, `Iceberg`, `Delta`, ...).
"""

import json
import os
import sys
import time

import pyarrow as pa

APP_ID_KEY = "barrier.app-id"
EPOCH_KEY = "barrier.epoch"
WATERMARK_PREFIX = "barrier.watermark."
# The owned loops' bounds, as spike/sink/src/retry.rs sets them for the Rust arms.
MAX_ATTEMPTS = 200


def backoff(attempt):
    time.sleep(min(1 << min(attempt, 6), 50) / 1000.0)


class PeerError(Exception):
    """A commit or read that failed, with the `SinkError` kind the Rust side reports it as."""

    def __init__(self, kind, message, attempts=None):
        super().__init__(message)
        self.kind = kind
        self.attempts = attempts

    def as_json(self):
        out = {"kind": self.kind, "message": str(self)}
        if self.attempts is not None:
            out["attempts"] = self.attempts
        return out


class Quiet:
    """Events nobody waits for (a stress worker)."""

    def check_passed(self):
        pass

    def swap_reached(self):
        pass


class Counts:
    """Catalog loads and swap attempts (Delta: table loads and commit attempts) of one answer."""

    def __init__(self):
        self.loads = 0
        self.updates = 0

    def take(self):
        taken = (self.loads, self.updates)
        self.loads = self.updates = 0
        return taken


# ---------------------------------------------------------------------------------------------
# Iceberg: pyiceberg


class IcebergPeer:
    def __init__(self, arm, location):
        from pyiceberg.catalog.rest import RestCatalog
        from pyiceberg.catalog.sql import SqlCatalog

        self.owned_loop = arm == "pyiceberg-owned-loop"
        self.counts = Counts()
        self.events = Quiet()
        self.identifier = f"{location['namespace']}.{location['table']}"
        if location["catalog"] == "sqlite":
            catalog = SqlCatalog(location["catalog_name"], uri=f"sqlite:///{location['sqlite_file']}",
                                 warehouse=location["warehouse"])
        elif location["catalog"] == "rest":
            endpoint, key, secret = (os.environ["BARRIER_S3_ENDPOINT"], os.environ["BARRIER_S3_ACCESS_KEY"],
                                     os.environ["BARRIER_S3_SECRET_KEY"])
            catalog = RestCatalog(location["catalog_name"], **{
                "uri": location["uri"], "warehouse": location["warehouse"], "credential": f"{key}:{secret}",
                "s3.endpoint": endpoint, "s3.access-key-id": key, "s3.secret-access-key": secret,
                "s3.region": "us-east-1", "s3.path-style-access": "true",
            })
        else:
            raise PeerError("CatalogUnavailable", f"pyiceberg cannot reach a {location['catalog']} catalog of another process")
        self.catalog = catalog
        self._observe(catalog)

    def _observe(self, catalog):
        """Counts the catalog's round trips and reports each swap attempt, by wrapping this
        catalog object's `load_table` and `commit_table` (every commit and refresh of a table
        loaded from it goes through them)."""
        load, commit = catalog.load_table, catalog.commit_table
        inside = []

        def counted_load(identifier):
            if not inside:  # SqlCatalog.commit_table loads the current table itself
                self.counts.loads += 1
            return load(identifier)

        def reported_commit(table, requirements, updates):
            self.events.swap_reached()
            self.counts.updates += 1
            inside.append(True)
            try:
                return commit(table, requirements, updates)
            finally:
                inside.pop()

        catalog.load_table, catalog.commit_table = counted_load, reported_commit

    def load(self):
        from pyiceberg.exceptions import NoSuchTableError

        try:
            table = self.catalog.load_table(self.identifier)
        except NoSuchTableError as e:
            raise PeerError("TableNotFound", str(e)) from e
        except Exception as e:
            raise PeerError("CatalogUnavailable", f"{type(e).__name__}: {e}") from e
        if self.owned_loop:
            without_library_retry(table)
        return table

    def committed_epoch(self, app):
        return iceberg_committed_epoch(self.load(), app)

    def row_count(self):
        table = self.load()
        return sum(task.file.record_count for task in table.scan().plan_files())

    def commit(self, app, epoch, batch):
        from pyiceberg.exceptions import CommitFailedException

        attempts = MAX_ATTEMPTS if self.owned_loop else 1
        for attempt in range(attempts):
            table = self.load()
            committed = iceberg_committed_epoch(table, app)
            if committed is not None and committed >= epoch:
                return {"told": "already-committed", "committed": committed}
            self.events.check_passed()
            try:
                self.append(table, app, epoch, batch)
                return {"told": "committed"}
            except CommitFailedException as e:
                if not self.owned_loop:
                    raise PeerError("Conflict", str(e), attempts=self.counts.updates) from e
                backoff(attempt)
        raise PeerError("Conflict", f"gave up after {attempts} conflicting attempts", attempts=attempts)

    def append(self, table, app, epoch, batch):
        """The batch and the watermark in one transaction: what every Iceberg arm commits."""
        from pyiceberg.exceptions import CommitFailedException, CommitStateUnknownException

        tx = table.transaction()
        try:
            tx.append(batch, snapshot_properties={APP_ID_KEY: app, EPOCH_KEY: str(epoch)})
        except ValueError as e:
            # pyiceberg's schema compatibility check, before anything is written.
            raise PeerError("SchemaMismatch", str(e)) from e
        tx.set_properties({WATERMARK_PREFIX + app: str(epoch)})
        try:
            tx.commit_transaction()
        except CommitFailedException:
            raise
        except CommitStateUnknownException as e:
            raise PeerError("OutcomeUnknown", str(e)) from e
        except OSError as e:
            raise PeerError("Storage", f"{type(e).__name__}: {e}") from e
        except Exception as e:
            raise PeerError("Iceberg", f"{type(e).__name__}: {e}") from e


def without_library_retry(table):
    """Turns pyiceberg's commit retry off for commits made from this table object only: its
    retry loop reads `commit.retry.num-retries` from the metadata the transaction starts from
    (`Transaction.commit_transaction`), and this sets it to 0 there, in memory. The table's own
    property is untouched, so other writers keep theirs; the catalog applies each commit's
    updates to its current metadata, not to this copy."""
    properties = dict(table.metadata.properties)
    properties["commit.retry.num-retries"] = "0"
    table.metadata = table.metadata.model_copy(update={"properties": properties})


def iceberg_committed_epoch(table, app):
    """The larger of the app's watermark property and the epoch of its newest snapshot on main's
    ancestry (the walk stops there, or where expiry cut the ancestry), as
    spike/iceberg/src/common/epoch.rs reads them."""
    watermark = table.metadata.properties.get(WATERMARK_PREFIX + app)
    walked = None
    snapshot = table.current_snapshot()
    while snapshot is not None:
        summary = snapshot.summary.additional_properties if snapshot.summary else {}
        if summary.get(APP_ID_KEY) == app:
            walked = int(summary[EPOCH_KEY])
            break
        parent = snapshot.parent_snapshot_id
        snapshot = table.snapshot_by_id(parent) if parent is not None else None
    found = [int(e) for e in (watermark, walked) if e is not None]
    return max(found) if found else None


# ---------------------------------------------------------------------------------------------
# Delta: the deltalake package (delta-rs)


class DeltaPeer:
    def __init__(self, arm, location):
        self.path = location["table_path"]
        self.counts = Counts()
        self.events = Quiet()

    def load(self):
        from deltalake import DeltaTable
        from deltalake.exceptions import TableNotFoundError

        self.counts.loads += 1
        try:
            return DeltaTable(self.path)
        except TableNotFoundError as e:
            raise PeerError("TableNotFound", str(e)) from e

    def committed_epoch(self, app):
        return self.load().transaction_version(app)

    def row_count(self):
        return self.load().to_pyarrow_table().num_rows

    def commit(self, app, epoch, batch):
        from deltalake import CommitProperties, Transaction, write_deltalake
        from deltalake.exceptions import CommitFailedError, DeltaError, SchemaMismatchError

        for attempt in range(MAX_ATTEMPTS):
            table = self.load()
            committed = table.transaction_version(app)
            if committed is not None and committed >= epoch:
                return {"told": "already-committed", "committed": committed}
            self.events.check_passed()
            self.counts.updates += 1
            try:
                # The loaded table, not its path: the commit is checked for conflicts from the
                # version the epoch was read at.
                write_deltalake(table, batch, mode="append",
                                commit_properties=CommitProperties(app_transactions=[Transaction(app, epoch)]))
                return {"told": "committed"}
            except CommitFailedError:
                backoff(attempt)
            except SchemaMismatchError as e:
                raise PeerError("SchemaMismatch", str(e)) from e
            except (DeltaError, OSError) as e:
                raise PeerError("Delta", f"{type(e).__name__}: {e}") from e
        raise PeerError("Conflict", f"gave up after {MAX_ATTEMPTS} conflicting attempts", attempts=MAX_ATTEMPTS)


ARMS = {"pyiceberg-naive": IcebergPeer, "pyiceberg-owned-loop": IcebergPeer, "deltalake-python": DeltaPeer}


def open_peer(arm, location_json):
    if arm not in ARMS:
        raise PeerError("Corrupt", f"unknown peer arm {arm}")
    return ARMS[arm](arm, json.loads(location_json))


# ---------------------------------------------------------------------------------------------
# serve: one writer driven by the Rust harness


class Harness:
    """Events the Rust harness waits on: each is answered with {"go": true} once it lets go."""

    def __init__(self, out, requests):
        self.out, self.requests = out, requests

    def check_passed(self):
        self.wait("check-passed")

    def swap_reached(self):
        self.wait("swap-reached")

    def wait(self, event):
        send(self.out, {"event": event})
        line = self.requests.readline()
        if json.loads(line or "{}").get("go") is not True:
            raise SystemExit(f"peer: expected go after {event}, got {line!r}")


def send(out, message):
    out.write(json.dumps(message) + "\n")
    out.flush()


def serve(arm, location_json):
    # The protocol owns stdout; anything a library prints goes to stderr.
    out, sys.stdout = sys.stdout, sys.stderr
    requests = sys.stdin
    try:
        peer = open_peer(arm, location_json)
    except PeerError as e:
        send(out, {"error": e.as_json()})
        return 1
    peer.events = Harness(out, requests)
    # `reopens`: this process serves another table when asked (`open`), so that the harness
    # keeps it for the next fixture instead of starting a new one (docs/peer-protocol.md).
    send(out, {"ready": True, "reopens": True})
    for line in requests:
        request = json.loads(line)
        peer.counts.take()
        try:
            if request["op"] == "open":
                peer = open_peer(arm, json.dumps(request["location"]))
                peer.events = Harness(out, requests)
                value = None
            elif request["op"] == "commit":
                batch = pa.ipc.open_stream(bytes.fromhex(request["batch"])).read_all()
                value = peer.commit(request["app"], request["epoch"], batch)
                value["loads"], value["updates"] = peer.counts.take()
            elif request["op"] == "committed_epoch":
                value = peer.committed_epoch(request["app"])
            elif request["op"] == "row_count":
                value = peer.row_count()
            else:
                raise PeerError("Corrupt", f"unknown request {request}")
            send(out, {"ok": value})
        except PeerError as e:
            send(out, {"error": e.as_json()})
    return 0


# ---------------------------------------------------------------------------------------------
# stress-worker: one writer process of a mixed race


def turn_ended(logs, writers, epoch):
    """Whether one of the `writers` (ids) logged an answer at `epoch` or later (spike/lab/src/stress/turns.rs)."""
    for rust in writers:
        try:
            with open(os.path.join(logs, f"writer-{rust}.jsonl")) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            continue
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:  # a line cut by a kill
                continue
            if "told" in event and event["epoch"] >= epoch:
                return True
    return False


def waits_for(turns, peers, writer, epoch):
    """The writers whose answer at `epoch` this one waits for, if any: the Rust writers on their turn,
    the epoch's leading peer on the peers' turn (spike/lab/src/stress/turns.rs)."""
    if turns is None:
        return None
    if epoch % 3 == 2:
        return range(turns)
    leader = turns + (epoch // 3) % peers
    if epoch % 3 == 0 and writer != leader:
        return [leader]
    return None


def stress_worker(arm, location_json, app, epochs, rows, writer, logs, max_errors, ready, start, turns, peers):
    peer = open_peer(arm, location_json)
    open(ready, "w").close()
    while not os.path.exists(start):
        time.sleep(0.01)
    log = open(os.path.join(logs, f"writer-{writer}.jsonl"), "a", buffering=1)
    errors = 0

    def wait(e):
        nonlocal errors
        errors += 1
        if errors > max_errors:
            raise SystemExit(f"peer: {errors} errors in a row, last: {e.kind}: {e}")
        time.sleep(0.02 * min(errors, 10))

    while True:
        try:
            committed = peer.committed_epoch(app)
            break
        except PeerError as e:
            wait(e)
    epoch = committed or 1
    attempt = 0
    while epoch <= epochs:
        first = waits_for(turns, peers, writer, epoch)
        while first is not None and not turn_ended(logs, first, epoch):
            time.sleep(0.01)
        attempt += 1
        event = {"writer": writer, "app": app, "epoch": epoch,
                 "batch": f"w{writer}-p{os.getpid()}-e{epoch}-a{attempt}", "at_ms": now_ms()}
        log.write(json.dumps(event) + "\n")
        batch = pa.table({"id": pa.array(range(epoch * 1000, epoch * 1000 + rows), pa.int64()),
                          "payload": pa.array([event["batch"]] * rows, pa.string())},
                         schema=pa.schema([pa.field("id", pa.int64(), nullable=False),
                                           pa.field("payload", pa.string())]))
        peer.counts.take()
        try:
            told = peer.commit(app, epoch, batch)
        except PeerError as e:
            told = {"told": "error", "kind": e.kind}
        event["loads"], event["updates"] = peer.counts.take()
        event.update(told, at_ms=now_ms())
        log.write(json.dumps(event) + "\n")
        if told["told"] == "error":
            wait(PeerError(told["kind"], "commit failed"))
        else:
            epoch += 1
            errors = 0
    return 0


def now_ms():
    return int(time.time() * 1000)


def main(argv):
    mode, arm, location = argv[1], argv[2], argv[3]
    if mode == "serve":
        return serve(arm, location)
    if mode == "stress-worker":
        flags = dict(zip(argv[4::2], argv[5::2]))
        return stress_worker(arm, location, flags["--app"], int(flags["--epochs"]), int(flags["--rows"]),
                             int(flags["--id"]), flags["--logs"], int(flags["--max-errors"]), flags["--ready"],
                             flags["--start"], int(flags["--turns"]) if "--turns" in flags else None,
                             int(flags.get("--peers", 1)))
    raise SystemExit(f"usage: peer.py serve|stress-worker ARM LOCATION ...: unknown mode {mode}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Reads every table in a `verdict --keep DIR` manifest with engines other than this project's.

Two readers per format. Iceberg through pyiceberg (a Python implementation of the spec: its
SqlCatalog on the `sqlite` catalog file, RestCatalog on a `rest` table's server with its data on
S3, StaticTable on the metadata file of a `memory` table) and DuckDB's iceberg extension (C++;
for `rest`, over S3 with its httpfs extension, on the metadata file the REST server names);
Delta through the `deltalake` Python package (delta-rs, the writer's own lineage) and DuckDB's
delta extension (delta-kernel-rs under DuckDB's scanner). A `rest` table needs the server
`scripts/seaweedfs` started and the environment it printed.
For each table it checks that every reader sees the rows the manifest expects, and that the
epochs pyiceberg finds in the snapshot summaries and the `txn` actions in the Delta log are the
ones the manifest says were committed (after `epochs_survive_expiry`, only those the retained
history still shows; DuckDB exposes neither). For a body the arm is known to fail (the manifest's
`known_failure`, where the table holds what the writer did not report), the readers must see the
rows this project's own reader found instead. Exits non-zero on any mismatch.

usage: python read_tables.py DIR/manifest.json
"""

import collections
import contextlib
import glob
import json
import os
import sys

import sqlite3
import urllib.parse
import urllib.request

import duckdb
from deltalake import DeltaTable
from duckdb_extensions import import_extension
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.table import StaticTable


def s3():
    """The S3 endpoint and key pair scripts/seaweedfs exported."""
    return (os.environ["BARRIER_S3_ENDPOINT"], os.environ["BARRIER_S3_ACCESS_KEY"],
            os.environ["BARRIER_S3_SECRET_KEY"])


REST_CATALOGS = ("rest", "rustberg", "rest-fixture")


def rest_credential(table):
    """How each REST server wants a client to authenticate: SeaweedFS exchanges the S3 key pair
    for a token (OAuth client credentials); Rustberg takes the API key scripts/rustberg configured
    as the token itself; the Java REST fixture authenticates nobody."""
    if table["catalog"] == "rustberg":
        return {"token": os.environ["BARRIER_RUSTBERG_TOKEN"]}
    if table["catalog"] == "rest-fixture":
        return {}
    _, key, secret = s3()
    return {"credential": f"{key}:{secret}"}


def iceberg_table(entry):
    table = entry["table"]
    if table["catalog"] in REST_CATALOGS:
        endpoint, key, secret = s3()
        catalog = RestCatalog(
            table["catalog_name"],
            **rest_credential(table),
            **{
                "uri": table["uri"],
                "warehouse": table["warehouse"],
                "s3.endpoint": endpoint,
                "s3.access-key-id": key,
                "s3.secret-access-key": secret,
                "s3.region": "us-east-1",
                "s3.path-style-access": "true",
            },
        )
        return catalog.load_table(f"{table['namespace']}.{table['table']}")
    if table["catalog"] == "sqlite":
        catalog = SqlCatalog(
            table["catalog_name"],
            uri=f"sqlite:///{table['sqlite_file']}",
            warehouse=table["warehouse"],
        )
        return catalog.load_table(f"{table['namespace']}.{table['table']}")
    return StaticTable.from_metadata(table["metadata_file"])


def duckdb_connection():
    """DuckDB with its delta and iceberg extensions, installed from their PyPI wheels: DuckDB would
    otherwise download them from its extension server at first use."""
    con = duckdb.connect()
    for extension in ("avro", "iceberg", "delta", "httpfs"):
        import_extension(extension, con=con)
        con.sql(f"LOAD {extension}")
    if "BARRIER_S3_ENDPOINT" in os.environ:
        endpoint, key, secret = s3()
        con.sql(
            f"CREATE SECRET barrier (TYPE s3, KEY_ID '{key}', SECRET '{secret}', REGION 'us-east-1', "
            f"ENDPOINT '{urllib.parse.urlparse(endpoint).netloc}', URL_STYLE 'path', USE_SSL false)"
        )
    return con


def rest_metadata_file(table):
    """The metadata file the REST server names for the table now, asked with plain HTTP (the
    protocol's token and load-table calls), so that the DuckDB check rests on neither pyiceberg
    nor this project's writer."""
    credential = rest_credential(table)
    if not credential:
        token = None
    elif "token" in credential:
        token = credential["token"]
    else:
        key, secret = credential["credential"].split(":", 1)
        form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": key,
                                       "client_secret": secret, "scope": "catalog"}).encode()
        with urllib.request.urlopen(f"{table['uri']}/v1/oauth/tokens", data=form) as response:
            token = json.load(response)["access_token"]
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    config = urllib.request.Request(f"{table['uri']}/v1/config?warehouse={table['warehouse']}", headers=auth)
    with urllib.request.urlopen(config) as response:
        prefix = json.load(response).get("overrides", {}).get("prefix")
    path = "/".join(p for p in ("v1", prefix, "namespaces", table["namespace"], "tables", table["table"]) if p)
    request = urllib.request.Request(f"{table['uri']}/{path}", headers=auth)
    with urllib.request.urlopen(request) as response:
        return json.load(response)["metadata-location"]


def current_metadata_file(table):
    """The metadata file the catalog points to now: from iceberg-catalog-sql's own table for a
    `sqlite` table (what any SQL-catalog client would resolve; read here, not taken from
    pyiceberg, so that the DuckDB check does not rest on the other reader), from the REST server
    for `rest`, from the manifest for `memory`."""
    if table["catalog"] in REST_CATALOGS:
        return rest_metadata_file(table)
    if table["catalog"] != "sqlite":
        return table["metadata_file"]
    with contextlib.closing(sqlite3.connect(table["sqlite_file"])) as db:
        (location,) = db.execute(
            "SELECT metadata_location FROM iceberg_tables"
            " WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?",
            (table["catalog_name"], table["namespace"], table["table"]),
        ).fetchone()
    return location


def duckdb_rows(con, table):
    if table["format"] == "iceberg":
        scan = f"iceberg_scan('{current_metadata_file(table)}')"
    else:
        scan = f"delta_scan('{table['table_path']}')"
    return con.sql(f"SELECT count(*) FROM {scan}").fetchone()[0]


def iceberg_epochs(table):
    """`app:epoch` of every snapshot on main's ancestry, oldest first."""
    epochs = []
    snapshot = table.current_snapshot()
    while snapshot is not None:
        props = snapshot.summary.additional_properties if snapshot.summary else {}
        if "barrier.app-id" in props:
            epochs.append(f"{props['barrier.app-id']}:{props['barrier.epoch']}")
        parent = snapshot.parent_snapshot_id
        snapshot = table.snapshot_by_id(parent) if parent is not None else None
    return list(reversed(epochs))


def delta_epochs(path):
    """`app:version` of every txn action in the log, in commit order."""
    table = DeltaTable(path)
    epochs = []
    for log in sorted(glob.glob(os.path.join(path, "_delta_log", "*.json"))):
        with open(log) as f:
            for line in f:
                action = json.loads(line)
                if "txn" in action:
                    epochs.append(f"{action['txn']['appId']}:{action['txn']['version']}")
    return table, epochs


def main(manifest_path):
    manifest = json.load(open(manifest_path))
    con = duckdb_connection()
    failures = 0
    seen = collections.Counter()
    for entry in manifest["tables"]:
        if entry["table"] is None:
            continue
        label = f"{entry['arm']} ({entry['build']}, {entry['catalog']}) {entry['scenario']}"
        fmt = entry["table"]["format"]
        if fmt == "iceberg":
            table = iceberg_table(entry)
            rows = table.scan().to_arrow().num_rows
            epochs = iceberg_epochs(table)
        else:
            table, epochs = delta_epochs(entry["table"]["table_path"])
            rows = table.to_pyarrow_table().num_rows
        duck_rows = duckdb_rows(con, entry["table"])
        if entry.get("known_failure"):
            # The arm's known failure, asserted by the suite: the table holds what its writer
            # did not report (an epoch committed twice, told once). The readers must agree with
            # what this project's own reader found in the table, not with the writer's report.
            ok = rows == duck_rows == entry["rows"]
            seen[(fmt, ok)] += 1
            if not ok:
                failures += 1
                print(f"MISMATCH {label}: {rows} rows, DuckDB {duck_rows} (the table holds {entry['rows']})")
            continue
        if entry["scenario"] == "epochs_survive_expiry":
            # Retention removed the commits that carried the first epochs: the reader must see
            # the rows, and only epochs that were committed.
            ok = not (
                collections.Counter(epochs) - collections.Counter(entry["epochs_committed"])
            )
        else:
            ok = sorted(epochs) == sorted(entry["epochs_committed"])
        ok = ok and rows == duck_rows == entry["rows_expected"]
        seen[(fmt, ok)] += 1
        if not ok:
            failures += 1
            print(f"MISMATCH {label}: {rows} rows, DuckDB {duck_rows} (expected {entry['rows_expected']}), "
                  f"epochs {epochs} (expected {entry['epochs_committed']})")
    for (fmt, ok), n in sorted(seen.items()):
        readers = "pyiceberg and DuckDB" if fmt == "iceberg" else "deltalake and DuckDB"
        print(f"{fmt}: {n} tables {'read as expected' if ok else 'MISMATCHED'} by {readers}")
    print(f"{sum(seen.values()) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

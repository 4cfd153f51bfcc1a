"""Reads every table in a `verdict --keep DIR` manifest with engines other than this project's.

Iceberg through pyiceberg (a Python implementation of the spec: its SqlCatalog on the `sqlite`
catalog file, StaticTable on the metadata file of a `memory` table); Delta through the
`deltalake` Python package. For each table it checks that the reader sees the rows the manifest
expects and the epochs it says were committed (after `epochs_survive_expiry`, only those the
retained history still shows). Exits non-zero on any mismatch.

usage: python read_tables.py DIR/manifest.json
"""

import collections
import glob
import json
import os
import sys

from deltalake import DeltaTable
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.table import StaticTable


def iceberg_table(entry):
    table = entry["table"]
    if table["catalog"] == "sqlite":
        catalog = SqlCatalog(
            table["catalog_name"],
            uri=f"sqlite:///{table['sqlite_file']}",
            warehouse=table["warehouse"],
        )
        return catalog.load_table(f"{table['namespace']}.{table['table']}")
    return StaticTable.from_metadata(table["metadata_file"])


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
        if entry["scenario"] == "epochs_survive_expiry":
            # Retention removed the commits that carried the first epochs: the reader must see
            # the rows, and only epochs that were committed.
            ok = rows == entry["rows_expected"] and not (
                collections.Counter(epochs) - collections.Counter(entry["epochs_committed"])
            )
        else:
            ok = rows == entry["rows_expected"] and sorted(epochs) == sorted(entry["epochs_committed"])
        seen[(fmt, ok)] += 1
        if not ok:
            failures += 1
            print(f"MISMATCH {label}: {rows} rows (expected {entry['rows_expected']}), "
                  f"epochs {epochs} (expected {entry['epochs_committed']})")
    for (fmt, ok), n in sorted(seen.items()):
        print(f"{fmt}: {n} tables {'read as expected' if ok else 'MISMATCHED'}")
    print(f"{sum(seen.values()) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

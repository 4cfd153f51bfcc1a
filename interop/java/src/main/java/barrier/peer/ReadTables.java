package barrier.peer;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Iceberg Java as an independent reader of every Iceberg table a {@code verdict --keep DIR} run
 * left, as interop/read_tables.py reads them with pyiceberg and DuckDB: the rows of the current
 * snapshot, read from its Parquet files with {@code IcebergGenerics}, and the {@code app:epoch} of
 * every snapshot on main's ancestry, checked against the manifest (for a body the arm is known to
 * fail, the rows this project's own reader found). A `sqlite` table through the JDBC catalog, a
 * `memory` table from its metadata file; a table on S3 (the REST catalogs) is counted as not read,
 * since this build has no S3 FileIO.
 *
 * <p>usage: {@code barrier.peer.ReadTables DIR/manifest.json}; exits 1 on any mismatch.
 */
public final class ReadTables {
  public static void main(String[] args) throws IOException, Peer.PeerError {
    JsonNode manifest = Peer.JSON.readTree(new File(args[0]));
    int failures = 0;
    Map<String, Integer> seen = new TreeMap<>();
    for (JsonNode entry : manifest.path("tables")) {
      JsonNode location = entry.path("table");
      if (location.isNull() || !location.path("format").asText().equals("iceberg")) {
        continue;
      }
      String catalog = location.path("catalog").asText();
      if (!catalog.equals("sqlite") && !catalog.equals("memory")) {
        seen.merge("not read (on S3, which this build's FileIO does not reach)", 1, Integer::sum);
        continue;
      }
      String label = entry.path("arm").asText() + " (" + entry.path("build").asText() + ", " + catalog + ") " + entry.path("scenario").asText();
      Table table = open(location);
      long rows = 0;
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        for (Record ignored : records) {
          rows++;
        }
      }
      List<String> epochs = epochs(table);
      boolean ok;
      JsonNode knownFailure = entry.path("known_failure");
      if (knownFailure.isTextual() ? !knownFailure.asText().isEmpty() : knownFailure.asBoolean(false)) {
        // The arm's known failure: the readers must agree with what this project's reader found.
        ok = rows == entry.path("rows").asLong();
      } else {
        List<String> committed = new ArrayList<>();
        entry.path("epochs_committed").forEach(e -> committed.add(e.asText()));
        if (entry.path("scenario").asText().equals("epochs_survive_expiry")) {
          // Retention removed the commits of the first epochs: only committed ones may show.
          List<String> left = new ArrayList<>(committed);
          ok = epochs.stream().allMatch(left::remove);
        } else {
          List<String> sorted = new ArrayList<>(epochs);
          Collections.sort(sorted);
          Collections.sort(committed);
          ok = sorted.equals(committed);
        }
        ok = ok && rows == entry.path("rows_expected").asLong();
      }
      seen.merge(ok ? "read as expected" : "MISMATCHED", 1, Integer::sum);
      if (!ok) {
        failures++;
        System.out.println("MISMATCH " + label + ": " + rows + " rows, epochs " + epochs + " (manifest: " + entry + ")");
      }
    }
    seen.forEach((what, n) -> System.out.println("iceberg: " + n + " tables " + what + " by Iceberg Java"));
    System.out.println((seen.getOrDefault("read as expected", 0)) + " passed, " + failures + " failed");
    System.exit(failures == 0 ? 0 : 1);
  }

  static Table open(JsonNode location) throws Peer.PeerError {
    if (location.path("catalog").asText().equals("memory")) {
      HadoopFileIO io = new HadoopFileIO(new org.apache.hadoop.conf.Configuration());
      return new BaseTable(new StaticTableOperations(location.path("metadata_file").asText(), io), location.path("table").asText());
    }
    return Peer.catalog(location).loadTable(Peer.identifier(location));
  }

  /** {@code app:epoch} of every snapshot on main's ancestry, oldest first. */
  static List<String> epochs(Table table) {
    List<String> epochs = new ArrayList<>();
    for (Snapshot s = table.currentSnapshot(); s != null; s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      Map<String, String> summary = s.summary();
      if (summary.containsKey(Peer.APP_ID_KEY)) {
        epochs.add(summary.get(Peer.APP_ID_KEY) + ":" + summary.get(Peer.EPOCH_KEY));
      }
    }
    Collections.reverse(epochs);
    return epochs;
  }
}

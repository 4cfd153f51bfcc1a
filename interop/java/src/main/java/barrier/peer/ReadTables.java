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
 * The JVM readers of every table a {@code verdict --keep DIR} run left, as interop/read_tables.py
 * reads them with pyiceberg, deltalake and DuckDB. Delta: Delta Kernel Java ({@link DeltaTables}):
 * the rows, and each app's latest {@code txn} version against the newest epoch it committed.
 * Iceberg: Iceberg Java, the rows of the current
 * snapshot, read from its Parquet files with {@code IcebergGenerics}, and the {@code app:epoch} of
 * every snapshot on main's ancestry, checked against the manifest (for a body the arm is known to
 * fail, the rows this project's own reader found). A `memory` table from its metadata file; every
 * other through the catalog the peers open ({@link Peer#catalog}): the JDBC catalog, or the REST
 * catalog with S3FileIO.
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
      if (location.isNull()) {
        continue;
      }
      String format = location.path("format").asText();
      String label = entry.path("arm").asText() + " (" + entry.path("build").asText() + ", " + entry.path("catalog").asText() + ") " + entry.path("scenario").asText();
      List<String> committed = new ArrayList<>();
      entry.path("epochs_committed").forEach(e -> committed.add(e.asText()));
      long rows;
      boolean epochsOk;
      String epochs;
      if (format.equals("iceberg")) {
        Table table = open(location);
        rows = 0;
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
          for (Record ignored : records) {
            rows++;
          }
        }
        List<String> found = epochs(table);
        epochs = found.toString();
        if (entry.path("scenario").asText().equals("epochs_survive_expiry")) {
          // Retention removed the commits of the first epochs: only committed ones may show.
          List<String> left = new ArrayList<>(committed);
          epochsOk = found.stream().allMatch(left::remove);
        } else {
          List<String> sorted = new ArrayList<>(found);
          Collections.sort(sorted);
          List<String> expected = new ArrayList<>(committed);
          Collections.sort(expected);
          epochsOk = sorted.equals(expected);
        }
      } else {
        // The kernel gives each app's latest txn version, not the history: it must be the
        // newest epoch the app committed.
        DeltaTables table = new DeltaTables(location.path("table_path").asText());
        rows = table.rows();
        Map<String, Long> newest = new TreeMap<>();
        for (String commit : committed) {
          int colon = commit.lastIndexOf(':');
          newest.merge(commit.substring(0, colon), Long.parseLong(commit.substring(colon + 1)), Math::max);
        }
        Map<String, Long> latest = new TreeMap<>();
        for (String app : newest.keySet()) {
          table.latestVersion(app).ifPresent(version -> latest.put(app, version));
        }
        epochs = "latest txn " + latest;
        epochsOk = latest.equals(newest);
      }
      boolean ok;
      JsonNode knownFailure = entry.path("known_failure");
      if (knownFailure.isTextual() ? !knownFailure.asText().isEmpty() : knownFailure.asBoolean(false)) {
        // The arm's known failure: the readers must agree with what this project's reader found.
        ok = rows == entry.path("rows").asLong();
      } else {
        ok = epochsOk && rows == entry.path("rows_expected").asLong();
      }
      String reader = format.equals("iceberg") ? "Iceberg Java" : "Delta Kernel Java";
      seen.merge(format + ": %d tables " + (ok ? "read as expected" : "MISMATCHED") + " by " + reader, 1, Integer::sum);
      if (!ok) {
        failures++;
        System.out.println("MISMATCH " + label + ": " + rows + " rows, epochs " + epochs + " (manifest: " + entry + ")");
      }
    }
    int passed = 0;
    for (Map.Entry<String, Integer> line : seen.entrySet()) {
      System.out.println(String.format(line.getKey(), line.getValue()));
      passed += line.getKey().contains("read as expected") ? line.getValue() : 0;
    }
    System.out.println(passed + " passed, " + failures + " failed");
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

package barrier.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The JVM peers: `(app, epoch)` commits written the way an application writes them with Iceberg
 * Java, on the tables the Rust fixtures create (same schema, catalogs, summary keys and watermark
 * property), speaking docs/peer-protocol.md.
 *
 * <ul>
 *   <li>{@code java-iceberg-validator}: looks the epoch up on a loaded table, then commits the
 *       append and the watermark in one transaction whose fast append carries {@code
 *       validateWith(SnapshotAncestryValidator)} over the epoch. Iceberg Java runs the validator
 *       on the ancestry of every base it applies the append to, so on each retry after a lost
 *       swap too (apache/iceberg #14509, since 1.11.0).
 *   <li>{@code java-iceberg-naive}: the same lookup once, then the same transaction without the
 *       validator: Flink {@code IcebergSink}'s shape, whose committer reads its checkpoint id once
 *       and lets the library retry.
 * </ul>
 *
 * <p>Both reach the table through Iceberg Java's JDBC catalog (the tables iceberg-catalog-sql
 * keeps, schema V1) and its default FileIO, HadoopFileIO, which reads the {@code file://}
 * warehouse the Rust fixtures write; or through its REST catalog, with S3FileIO on the S3
 * endpoint the REST servers share. The swap is the table operations' {@code commit}, which the
 * peer wraps to report {@code swap-reached}.
 */
public final class Peer {
  static final String APP_ID_KEY = "barrier.app-id";
  static final String EPOCH_KEY = "barrier.epoch";
  static final String WATERMARK_PREFIX = "barrier.watermark.";
  static final ObjectMapper JSON = new ObjectMapper();

  /** A failure, by the Rust {@code SinkError} kind it amounts to. */
  static final class PeerError extends Exception {
    final String kind;

    PeerError(String kind, String message, Throwable cause) {
      super(message, cause);
      this.kind = kind;
    }

    PeerError(String kind, String message) {
      this(kind, message, null);
    }

    ObjectNode asJson() {
      ObjectNode out = JSON.createObjectNode();
      out.put("kind", kind);
      out.put("message", getMessage());
      return out;
    }
  }

  /** The protocol's side of the harness: events it waits on, answered with {"go": true}. */
  static final class Harness {
    private final PrintStream out;
    private final BufferedReader requests;

    Harness(PrintStream out, BufferedReader requests) {
      this.out = out;
      this.requests = requests;
    }

    void send(JsonNode message) {
      out.println(message.toString());
      out.flush();
    }

    /** Reports {@code event} and waits for the harness's go; a writer nobody holds (a stress worker) goes on. */
    void await(String event) {
      if (out == null) {
        return;
      }
      ObjectNode message = JSON.createObjectNode();
      message.put("event", event);
      send(message);
      try {
        String line = requests.readLine();
        JsonNode go = line == null ? null : JSON.readTree(line).get("go");
        if (go == null || !go.asBoolean()) {
          throw new IllegalStateException("expected go after " + event + ", got " + line);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private final boolean validator;
  private final Catalog catalog;
  private final TableIdentifier identifier;
  private final Harness harness;
  private int loads;
  private int updates;

  Peer(String arm, JsonNode location, Harness harness) throws PeerError {
    switch (arm) {
      case "java-iceberg-validator" -> validator = true;
      case "java-iceberg-naive" -> validator = false;
      default -> throw new PeerError("Corrupt", "unknown peer " + arm);
    }
    this.harness = harness;
    this.catalog = catalog(location);
    this.identifier = identifier(location);
  }

  /** Closes the catalog's connections (the JDBC pool, the REST client), if it has any. */
  void close() {
    if (catalog instanceof java.io.Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        System.err.println("peer: closing the catalog: " + e);
      }
    }
  }

  /**
   * The catalog the fixture's table is in: the JDBC catalog on iceberg-catalog-sql's tables (SQLite
   * or PostgreSQL), or the REST catalog of one of the project's REST servers.
   */
  static Catalog catalog(JsonNode location) throws PeerError {
    String kind = location.path("catalog").asText();
    String uri =
        switch (kind) {
          case "sqlite" -> "jdbc:sqlite:" + location.path("sqlite_file").asText();
          case "postgres" -> jdbcPostgres(location.path("uri").asText());
          case "rest", "rustberg", "rest-fixture" -> null;
          default -> throw new PeerError("CatalogUnavailable", "no catalog of Iceberg Java's here reaches " + kind);
        };
    if (uri == null) {
      return rest(kind, location);
    }
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize(
        location.path("catalog_name").asText(),
        Map.of(
            CatalogProperties.URI, uri,
            CatalogProperties.WAREHOUSE_LOCATION, location.path("warehouse").asText(),
            // iceberg-catalog-sql's tables have the V1 schema's `iceberg_type` column.
            "jdbc.schema-version", "V1"));
    return catalog;
  }

  /**
   * Iceberg Java's REST catalog on the server at the location's {@code uri}, authenticated as the
   * server wants (docs/peer-protocol.md: {@code rest} takes the S3 key pair as an OAuth client
   * credential, {@code rustberg} the token in {@code $BARRIER_RUSTBERG_TOKEN}, {@code
   * rest-fixture} nothing), its data through S3FileIO on {@code $BARRIER_S3_ENDPOINT}.
   */
  static Catalog rest(String kind, JsonNode location) throws PeerError {
    String endpoint = env("BARRIER_S3_ENDPOINT");
    String key = env("BARRIER_S3_ACCESS_KEY");
    String secret = env("BARRIER_S3_SECRET_KEY");
    // SeaweedFS's S3 refuses the SDK's default request checksums (a bad Content-MD5).
    System.setProperty("aws.requestChecksumCalculation", "when_required");
    System.setProperty("aws.responseChecksumValidation", "when_required");
    Map<String, String> properties = new java.util.HashMap<>(Map.of(
        CatalogProperties.URI, location.path("uri").asText(),
        CatalogProperties.WAREHOUSE_LOCATION, location.path("warehouse").asText(),
        CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO",
        "s3.endpoint", endpoint,
        "s3.path-style-access", "true",
        "s3.access-key-id", key,
        "s3.secret-access-key", secret,
        "client.region", "us-east-1",
        "http-client.type", "urlconnection"));
    switch (kind) {
      case "rest" -> properties.put("credential", key + ":" + secret);
      case "rustberg" -> properties.put("token", env("BARRIER_RUSTBERG_TOKEN"));
      default -> {}
    }
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    try {
      catalog.initialize(location.path("catalog_name").asText(), properties);
    } catch (RuntimeException e) {
      throw new PeerError("CatalogUnavailable", e.toString(), e);
    }
    return catalog;
  }

  static String env(String name) throws PeerError {
    String value = System.getenv(name);
    if (value == null) {
      throw new PeerError("CatalogUnavailable", name + " is not set");
    }
    return value;
  }

  static TableIdentifier identifier(JsonNode location) {
    return TableIdentifier.of(Namespace.of(location.path("namespace").asText()), location.path("table").asText());
  }

  /** {@code postgres://USER@HOST:PORT/DB}, the URL the Rust catalog connects with, as JDBC spells it. */
  static String jdbcPostgres(String url) throws PeerError {
    java.net.URI uri = java.net.URI.create(url);
    if (!"postgres".equals(uri.getScheme()) || uri.getUserInfo() == null) {
      throw new PeerError("CatalogUnavailable", "not a postgres://USER@HOST:PORT/DB URL: " + url);
    }
    return "jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath() + "?user=" + uri.getUserInfo();
  }

  /** The table, behind operations that report each swap to the harness and count round trips. */
  Table load() throws PeerError {
    loads++;
    Table loaded;
    try {
      loaded = catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      throw new PeerError("TableNotFound", e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new PeerError("CatalogUnavailable", e.toString(), e);
    }
    return new BaseTable(new Observed(((HasTableOperations) loaded).operations()), loaded.name());
  }

  /** The catalog's operations, with each refresh counted and each swap reported first. */
  final class Observed implements TableOperations {
    private final TableOperations inner;

    Observed(TableOperations inner) {
      this.inner = inner;
    }

    @Override
    public TableMetadata current() {
      return inner.current();
    }

    @Override
    public TableMetadata refresh() {
      loads++;
      return inner.refresh();
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      harness.await("swap-reached");
      updates++;
      inner.commit(base, metadata);
    }

    @Override
    public FileIO io() {
      return inner.io();
    }

    @Override
    public EncryptionManager encryption() {
      return inner.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return inner.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return inner.locationProvider();
    }

    @Override
    public long newSnapshotId() {
      return inner.newSnapshotId();
    }
  }

  /**
   * The app's epoch in {@code snapshots} (newest first: main's ancestry), as
   * spike/iceberg/src/common/epoch.rs reads it: the first snapshot of the app decides.
   */
  static Long epochIn(Iterable<Snapshot> snapshots, String app) {
    for (Snapshot snapshot : snapshots) {
      Map<String, String> summary = snapshot.summary();
      if (app.equals(summary.get(APP_ID_KEY))) {
        return Long.parseLong(summary.get(EPOCH_KEY));
      }
    }
    return null;
  }

  static Long watermark(Table table, String app) {
    String value = table.properties().get(WATERMARK_PREFIX + app);
    return value == null ? null : Long.parseLong(value);
  }

  static Long max(Long a, Long b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : Math.max(a, b);
  }

  /** The larger of the app's watermark and its newest epoch on main's ancestry. */
  static Long committedEpoch(Table table, String app) {
    List<Snapshot> ancestry = new ArrayList<>();
    for (Snapshot s = table.currentSnapshot(); s != null; s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      ancestry.add(s);
    }
    return max(watermark(table, app), epochIn(ancestry, app));
  }

  /**
   * Rejects an ancestry that records the epoch. The ancestry carries no table property, so the
   * watermark is read once, from the table the append started from (as `iceberg-validator`).
   */
  static SnapshotAncestryValidator epochValidator(String app, long epoch, Long watermark) {
    return new SnapshotAncestryValidator() {
      @Override
      public boolean validate(Iterable<Snapshot> baseSnapshots) {
        Long committed = max(watermark, epochIn(baseSnapshots, app));
        return committed == null || committed < epoch;
      }

      @Override
      public String errorMessage() {
        return "epoch " + epoch + " of " + app + " is already committed";
      }
    };
  }

  Long committedEpoch(String app) throws PeerError {
    return committedEpoch(load(), app);
  }

  long rowCount() throws PeerError {
    long rows = 0;
    try (CloseableIterable<FileScanTask> tasks = load().newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        rows += task.file().recordCount();
      }
    } catch (IOException e) {
      throw new PeerError("Storage", e.toString(), e);
    }
    return rows;
  }

  ObjectNode commit(String app, long epoch, byte[] batch) throws PeerError {
    Table table = load();
    Long committed = committedEpoch(table, app);
    if (committed != null && committed >= epoch) {
      return alreadyCommitted(committed);
    }
    harness.await("check-passed");
    DataFile file = write(table, batch);
    Transaction tx = Transactions.newTransaction(table.name(), ((HasTableOperations) table).operations());
    AppendFiles append = tx.newFastAppend().appendFile(file).set(APP_ID_KEY, app).set(EPOCH_KEY, Long.toString(epoch));
    if (validator) {
      append = append.validateWith(epochValidator(app, epoch, watermark(table, app)));
    }
    try {
      append.commit();
      tx.updateProperties().set(WATERMARK_PREFIX + app, Long.toString(epoch)).commit();
      tx.commitTransaction();
    } catch (ValidationException e) {
      // The validator's refusal: the epoch is on the base the library refreshed to.
      Long now = committedEpoch(app);
      if (now != null && now >= epoch) {
        return alreadyCommitted(now);
      }
      throw new PeerError("Iceberg", e.getMessage(), e);
    } catch (CommitFailedException e) {
      throw new PeerError("Conflict", e.getMessage(), e);
    } catch (CommitStateUnknownException e) {
      throw new PeerError("OutcomeUnknown", e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new PeerError("Storage", e.toString(), e);
    } catch (RuntimeException e) {
      throw new PeerError("Iceberg", e.toString(), e);
    }
    ObjectNode told = JSON.createObjectNode();
    told.put("told", "committed");
    return told;
  }

  static ObjectNode alreadyCommitted(long committed) {
    ObjectNode told = JSON.createObjectNode();
    told.put("told", "already-committed");
    told.put("committed", committed);
    return told;
  }

  /** The batch as one Parquet data file of the table, after checking it fits the table's schema. */
  static DataFile write(Table table, byte[] batch) throws PeerError {
    Schema schema = table.schema();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(batch), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      checkSchema(root.getSchema().getFields(), schema);
      OutputFile out = table.io().newOutputFile(table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet"));
      DataWriter<Record> writer =
          Parquet.writeData(out)
              .schema(schema)
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(table.spec())
              .overwrite()
              .build();
      try (writer) {
        while (reader.loadNextBatch()) {
          for (int row = 0; row < root.getRowCount(); row++) {
            GenericRecord record = GenericRecord.create(schema);
            for (FieldVector vector : root.getFieldVectors()) {
              Object value = vector.getObject(row);
              record.setField(vector.getName(), value == null ? null : vector instanceof org.apache.arrow.vector.VarCharVector ? value.toString() : value);
            }
            writer.write(record);
          }
        }
      }
      return writer.toDataFile();
    } catch (IOException | UncheckedIOException e) {
      throw new PeerError("Storage", e.toString(), e);
    }
  }

  /** Refuses a batch whose columns, types or nullability differ from the table's, before any write. */
  static void checkSchema(List<Field> offered, Schema table) throws PeerError {
    List<String> offeredColumns = new ArrayList<>();
    for (Field field : offered) {
      offeredColumns.add(field.getName() + ": " + arrowType(field.getType()) + (field.isNullable() ? "" : " not null"));
    }
    List<String> tableColumns = new ArrayList<>();
    for (Types.NestedField field : table.columns()) {
      tableColumns.add(field.name() + ": " + icebergType(field.type()) + (field.isOptional() ? "" : " not null"));
    }
    if (!offeredColumns.equals(tableColumns)) {
      throw new PeerError("SchemaMismatch", "offered " + offeredColumns + ", table has " + tableColumns);
    }
  }

  static String arrowType(ArrowType type) {
    if (type instanceof ArrowType.Int integer && integer.getBitWidth() == 64 && integer.getIsSigned()) {
      return "Int64";
    }
    return type instanceof ArrowType.Utf8 ? "Utf8" : type.toString();
  }

  static String icebergType(Type type) {
    return switch (type.typeId()) {
      case LONG -> "Int64";
      case STRING -> "Utf8";
      default -> type.toString();
    };
  }

  /** {@code serve ARM LOCATION}: one writer, driven over JSON lines (docs/peer-protocol.md). */
  static int serve(String arm, String locationJson) throws IOException {
    PrintStream out = System.out;
    // The protocol owns stdout; anything a library prints goes to stderr.
    System.setOut(System.err);
    BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Harness harness = new Harness(out, requests);
    Peer peer;
    try {
      peer = new Peer(arm, JSON.readTree(locationJson), harness);
    } catch (PeerError e) {
      harness.send(JSON.createObjectNode().set("error", e.asJson()));
      return 1;
    }
    // `reopens`: this JVM serves another table when asked (`open`), so that the harness keeps it
    // for the next fixture instead of starting a JVM per writer (docs/peer-protocol.md).
    harness.send(JSON.createObjectNode().put("ready", true).put("reopens", true));
    for (String line = requests.readLine(); line != null; line = requests.readLine()) {
      JsonNode request = JSON.readTree(line);
      peer.loads = 0;
      peer.updates = 0;
      try {
        ObjectNode reply = JSON.createObjectNode();
        switch (request.path("op").asText()) {
          case "open" -> {
            Peer next = new Peer(arm, request.path("location"), harness);
            peer.close();
            peer = next;
            reply.putNull("ok");
          }
          case "commit" -> {
            ObjectNode told =
                peer.commit(
                    request.path("app").asText(),
                    request.path("epoch").asLong(),
                    HexFormat.of().parseHex(request.path("batch").asText()));
            told.put("loads", peer.loads);
            told.put("updates", peer.updates);
            reply.set("ok", told);
          }
          case "committed_epoch" -> {
            Long committed = peer.committedEpoch(request.path("app").asText());
            if (committed == null) {
              reply.putNull("ok");
            } else {
              reply.put("ok", committed);
            }
          }
          case "row_count" -> reply.put("ok", peer.rowCount());
          default -> throw new PeerError("Corrupt", "unknown request " + line);
        }
        harness.send(reply);
      } catch (PeerError e) {
        harness.send(JSON.createObjectNode().set("error", e.asJson()));
      }
    }
    return 0;
  }

  /**
   * {@code stress-worker ARM LOCATION --app A --epochs N --rows R --id K --logs DIR --max-errors M
   * --ready FILE --start FILE [--turns W]}: one writer process of a `stress` run, as
   * interop/peer.py's (docs/peer-protocol.md): from the table's committed epoch (replayed) to N,
   * each epoch until told committed or already committed, errors backing off, every attempt logged
   * twice (its beginning, then its answer) into DIR/writer-K.jsonl.
   */
  static int stressWorker(String arm, String locationJson, Map<String, String> flags) throws Exception {
    Peer peer = new Peer(arm, JSON.readTree(locationJson), new Harness(null, null));
    String app = flags.get("--app");
    long epochs = Long.parseLong(flags.get("--epochs"));
    int rows = Integer.parseInt(flags.get("--rows"));
    long writer = Long.parseLong(flags.get("--id"));
    int maxErrors = Integer.parseInt(flags.get("--max-errors"));
    Long turns = flags.containsKey("--turns") ? Long.parseLong(flags.get("--turns")) : null;
    long peers = Long.parseLong(flags.getOrDefault("--peers", "1"));
    java.nio.file.Path logs = java.nio.file.Path.of(flags.get("--logs"));
    java.nio.file.Files.write(java.nio.file.Path.of(flags.get("--ready")), new byte[0]);
    while (!java.nio.file.Files.exists(java.nio.file.Path.of(flags.get("--start")))) {
      Thread.sleep(10);
    }
    try (PrintStream log =
        new PrintStream(
            new java.io.FileOutputStream(logs.resolve("writer-" + writer + ".jsonl").toFile(), true), true, StandardCharsets.UTF_8)) {
      int[] errors = {0};
      java.util.function.Consumer<PeerError> await =
          e -> {
            if (++errors[0] > maxErrors) {
              System.err.println("peer: " + errors[0] + " errors in a row, last: " + e.kind + ": " + e.getMessage());
              System.exit(1);
            }
            try {
              Thread.sleep(20L * Math.min(errors[0], 10));
            } catch (InterruptedException interrupted) {
              throw new IllegalStateException(interrupted);
            }
          };
      long epoch;
      while (true) {
        try {
          Long committed = peer.committedEpoch(app);
          epoch = committed == null || committed == 0 ? 1 : committed;
          break;
        } catch (PeerError e) {
          await.accept(e);
        }
      }
      for (int attempt = 1; epoch <= epochs; attempt++) {
        List<Long> first = waitsFor(turns, peers, writer, epoch);
        while (first != null && !turnEnded(logs, first, epoch)) {
          Thread.sleep(10);
        }
        ObjectNode event = JSON.createObjectNode();
        event.put("writer", writer);
        event.put("app", app);
        event.put("epoch", epoch);
        event.put("batch", "w" + writer + "-p" + ProcessHandle.current().pid() + "-e" + epoch + "-a" + attempt);
        event.put("at_ms", System.currentTimeMillis());
        log.println(event);
        peer.loads = 0;
        peer.updates = 0;
        PeerError failed = null;
        try {
          event.setAll(peer.commit(app, epoch, stressBatch(epoch, rows, event.get("batch").asText())));
        } catch (PeerError e) {
          failed = e;
          event.put("told", "error");
          event.put("kind", e.kind);
        }
        event.put("loads", peer.loads);
        event.put("updates", peer.updates);
        event.put("at_ms", System.currentTimeMillis());
        log.println(event);
        if (failed != null) {
          await.accept(failed);
        } else {
          epoch++;
          errors[0] = 0;
        }
      }
    }
    return 0;
  }

  /** The rows every stress writer offers: ids epoch*1000.., each carrying the batch's identity. */
  static byte[] stressBatch(long epoch, int rows, String identity) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        org.apache.arrow.vector.BigIntVector ids = new org.apache.arrow.vector.BigIntVector(
            new Field("id", new org.apache.arrow.vector.types.pojo.FieldType(false, new ArrowType.Int(64, true), null), null), allocator);
        org.apache.arrow.vector.VarCharVector payload = new org.apache.arrow.vector.VarCharVector("payload", allocator)) {
      ids.allocateNew(rows);
      payload.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        ids.set(i, epoch * 1000 + i);
        payload.setSafe(i, identity.getBytes(StandardCharsets.UTF_8));
      }
      ids.setValueCount(rows);
      payload.setValueCount(rows);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(ids, payload))) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (org.apache.arrow.vector.ipc.ArrowStreamWriter writer = new org.apache.arrow.vector.ipc.ArrowStreamWriter(root, null, out)) {
          writer.start();
          writer.writeBatch();
          writer.end();
        }
        return out.toByteArray();
      }
    }
  }

  /**
   * The writers whose answer at {@code epoch} this one waits for, if any: the Rust writers on their
   * turn, the epoch's leading peer on the peers' turn (spike/lab/src/stress/turns.rs).
   */
  static List<Long> waitsFor(Long turns, long peers, long writer, long epoch) {
    if (turns == null) {
      return null;
    }
    if (epoch % 3 == 2) {
      return java.util.stream.LongStream.range(0, turns).boxed().toList();
    }
    long leader = turns + (epoch / 3) % peers;
    return epoch % 3 == 0 && writer != leader ? List.of(leader) : null;
  }

  /** Whether one of {@code writers} logged an answer at {@code epoch} or later. */
  static boolean turnEnded(java.nio.file.Path logs, List<Long> writers, long epoch) {
    for (long rust : writers) {
      List<String> lines;
      try {
        lines = java.nio.file.Files.readAllLines(logs.resolve("writer-" + rust + ".jsonl"));
      } catch (IOException missing) {
        continue;
      }
      for (String line : lines) {
        try {
          JsonNode event = JSON.readTree(line);
          if (event.has("told") && event.path("epoch").asLong() >= epoch) {
            return true;
          }
        } catch (IOException cut) {
          // a line cut by a kill
        }
      }
    }
    return false;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("serve")) {
      System.exit(serve(args[1], args[2]));
    }
    if (args.length >= 3 && args[0].equals("stress-worker") && args.length % 2 == 1) {
      Map<String, String> flags = new java.util.HashMap<>();
      for (int i = 3; i + 1 < args.length; i += 2) {
        flags.put(args[i], args[i + 1]);
      }
      System.exit(stressWorker(args[1], args[2], flags));
    }
    System.err.println("usage: barrier.peer.Peer serve ARM LOCATION | stress-worker ARM LOCATION --app A ...");
    System.exit(2);
  }
}

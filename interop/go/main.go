// Command peer is the Go peers: `(app, epoch)` commits written the way an application writes
// them with iceberg-go, on the tables the Rust fixtures create (same schema, catalogs, summary
// keys and watermark property), speaking docs/peer-protocol.md.
//
//   - go-iceberg-assert-ref: looks the epoch up on a loaded table, then commits the append and the
//     watermark in one transaction that first calls Transaction.AssertRefSnapshotID(main): the
//     commit then fails with ErrCommitFailed, instead of replaying onto the fresh head, if any
//     snapshot landed on main after the read (apache/iceberg-go #1786). On that error it reloads,
//     looks again and retries itself: the Go twin of `iceberg-requirement`.
//   - go-iceberg-naive: the same lookup once, then the same transaction without the assertion; the
//     library's retry replays the append onto the refreshed head.
//
// Both reach the table through iceberg-go's SQL catalog (iceberg-catalog-sql's tables, schema V1)
// on SQLite (mattn/go-sqlite3) or PostgreSQL (pgx), and its local-file IO for the file://
// warehouse; or through its REST catalog, with its S3 IO on the S3 endpoint the REST servers
// share. The swap is the catalog's CommitTable, which the peer wraps to report swap-reached.
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	iceio "github.com/apache/iceberg-go/io"
	_ "github.com/apache/iceberg-go/io/gocloud/s3"
	"github.com/apache/iceberg-go/table"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
)

const (
	appIDKey        = "barrier.app-id"
	epochKey        = "barrier.epoch"
	watermarkPrefix = "barrier.watermark."
	// The owned loop's bound, as spike/sink/src/retry.rs sets it for the Rust arms.
	maxAttempts = 200
)

// peerError is a failure, by the Rust SinkError kind it amounts to.
type peerError struct {
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Attempts *int   `json:"attempts,omitempty"`
}

func (e *peerError) Error() string { return e.Kind + ": " + e.Message }

func fail(kind string, err error) *peerError { return &peerError{Kind: kind, Message: err.Error()} }

// harness is the protocol's side of the Rust harness: events it waits on, answered with {"go": true}.
type harness struct {
	out      *bufio.Writer
	requests *bufio.Scanner
}

func (h *harness) send(message any) {
	line, err := json.Marshal(message)
	if err != nil {
		panic(err)
	}
	h.out.Write(append(line, '\n'))
	h.out.Flush()
}

// await reports `event` and waits for the harness's go; a writer nobody holds (nil) goes on.
func (h *harness) await(event string) {
	if h == nil {
		return
	}
	h.send(map[string]string{"event": event})
	var reply struct {
		Go bool `json:"go"`
	}
	if !h.requests.Scan() || json.Unmarshal(h.requests.Bytes(), &reply) != nil || !reply.Go {
		panic(fmt.Sprintf("expected go after %s, got %q", event, h.requests.Text()))
	}
}

type location struct {
	Catalog     string `json:"catalog"`
	CatalogName string `json:"catalog_name"`
	Namespace   string `json:"namespace"`
	Table       string `json:"table"`
	Warehouse   string `json:"warehouse"`
	SqliteFile  string `json:"sqlite_file"`
	URI         string `json:"uri"`
}

// tables is what the peer asks of its catalog, SQL or REST.
type tables interface {
	LoadTable(ctx context.Context, ident table.Identifier) (*table.Table, error)
	CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error)
}

type peer struct {
	assertRef bool
	catalog   tables
	// db is the SQL catalog's database handle, closed when the peer serves another table.
	db      *sql.DB
	ident   table.Identifier
	harness *harness
	loads   int
	updates int
}

// observed is the catalog as a table commits through it: each swap reported first, each load counted.
type observed struct{ p *peer }

func (o observed) LoadTable(ctx context.Context, ident table.Identifier) (*table.Table, error) {
	o.p.loads++
	return o.p.catalog.LoadTable(ctx, ident)
}

func (o observed) CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	o.p.harness.await("swap-reached")
	o.p.updates++
	return o.p.catalog.CommitTable(ctx, ident, reqs, updates)
}

func open(arm string, loc location, h *harness) (*peer, *peerError) {
	p := &peer{harness: h, ident: catalog.ToIdentifier(loc.Namespace, loc.Table)}
	switch arm {
	case "go-iceberg-assert-ref":
		p.assertRef = true
	case "go-iceberg-naive":
	default:
		return nil, &peerError{Kind: "Corrupt", Message: "unknown peer " + arm}
	}
	var db *sql.DB
	var dialect sqlcat.SupportedDialect
	var err error
	switch loc.Catalog {
	case "sqlite":
		db, err = sql.Open("sqlite3", loc.SqliteFile)
		dialect = sqlcat.SQLite
	case "postgres":
		db, err = sql.Open("pgx", loc.URI)
		dialect = sqlcat.Postgres
	case "rest", "rustberg", "rest-fixture":
		p.catalog, err = restCatalog(loc)
		if err != nil {
			return nil, fail("CatalogUnavailable", err)
		}
		return p, nil
	default:
		return nil, &peerError{Kind: "CatalogUnavailable", Message: "no catalog of iceberg-go's here reaches " + loc.Catalog}
	}
	if err != nil {
		return nil, fail("CatalogUnavailable", err)
	}
	p.db = db
	p.catalog, err = sqlcat.NewCatalog(loc.CatalogName, db, dialect, iceberg.Properties{
		"warehouse": loc.Warehouse,
		// iceberg-catalog-sql's tables have the V1 schema's `iceberg_type` column.
		sqlcat.SchemaVersionKey: sqlcat.SchemaVersionV1,
	})
	if err != nil {
		return nil, fail("CatalogUnavailable", err)
	}
	return p, nil
}

// restCatalog is iceberg-go's REST catalog on the server at the location's uri, authenticated as
// the server wants (docs/peer-protocol.md: rest takes the S3 key pair as an OAuth client
// credential, rustberg the token in $BARRIER_RUSTBERG_TOKEN, rest-fixture nothing), its data
// through the S3 IO on $BARRIER_S3_ENDPOINT (path-style; checksums only where S3 requires them,
// which SeaweedFS's S3 needs).
func restCatalog(loc location) (*rest.Catalog, error) {
	key, secret := os.Getenv("BARRIER_S3_ACCESS_KEY"), os.Getenv("BARRIER_S3_SECRET_KEY")
	options := []rest.Option{
		rest.WithWarehouseLocation(loc.Warehouse),
		rest.WithAdditionalProps(iceberg.Properties{
			iceio.S3EndpointURL:            os.Getenv("BARRIER_S3_ENDPOINT"),
			iceio.S3AccessKeyID:            key,
			iceio.S3SecretAccessKey:        secret,
			iceio.S3Region:                 "us-east-1",
			iceio.S3ForceVirtualAddressing: "false",
			iceio.S3CompatMode:             "true",
		}),
	}
	switch loc.Catalog {
	case "rest":
		options = append(options, rest.WithCredential(key+":"+secret))
	case "rustberg":
		options = append(options, rest.WithOAuthToken(os.Getenv("BARRIER_RUSTBERG_TOKEN")))
	}
	return rest.NewCatalog(context.Background(), loc.CatalogName, loc.URI, options...)
}

// load is the table, committing through the observed catalog.
func (p *peer) load(ctx context.Context) (*table.Table, *peerError) {
	p.loads++
	t, err := p.catalog.LoadTable(ctx, p.ident)
	if errors.Is(err, catalog.ErrNoSuchTable) {
		return nil, fail("TableNotFound", err)
	}
	if err != nil {
		return nil, fail("CatalogUnavailable", err)
	}
	return table.New(t.Identifier(), t.Metadata(), t.MetadataLocation(), t.FS, observed{p}), nil
}

// committedEpoch is the larger of the app's watermark and its newest epoch on main's ancestry, as
// spike/iceberg/src/common/epoch.rs reads them.
func committedEpoch(t *table.Table, app string) (*int64, *peerError) {
	var found *int64
	if w, ok := t.Properties()[watermarkPrefix+app]; ok {
		v, err := strconv.ParseInt(w, 10, 64)
		if err != nil {
			return nil, fail("Corrupt", err)
		}
		found = &v
	}
	for s := t.CurrentSnapshot(); s != nil; {
		if s.Summary != nil && s.Summary.Properties[appIDKey] == app {
			v, err := strconv.ParseInt(s.Summary.Properties[epochKey], 10, 64)
			if err != nil {
				return nil, fail("Corrupt", err)
			}
			if found == nil || v > *found {
				found = &v
			}
			break
		}
		if s.ParentSnapshotID == nil {
			break
		}
		s = t.SnapshotByID(*s.ParentSnapshotID)
	}
	return found, nil
}

// checkSchema refuses a batch whose columns, types or nullability differ from the table's, before any write.
func checkSchema(offered *arrow.Schema, t *table.Table) *peerError {
	var got, want []string
	for _, f := range offered.Fields() {
		got = append(got, column(f.Name, f.Type.String(), !f.Nullable))
	}
	for _, f := range t.Schema().Fields() {
		name := f.Type.String()
		switch f.Type.(type) {
		case iceberg.Int64Type:
			name = "int64"
		case iceberg.StringType:
			name = "utf8"
		}
		want = append(want, column(f.Name, name, f.Required))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return &peerError{Kind: "SchemaMismatch", Message: fmt.Sprintf("offered %v, table has %v", got, want)}
	}
	return nil
}

func column(name, typ string, required bool) string {
	if required {
		return name + ": " + typ + " not null"
	}
	return name + ": " + typ
}

func (p *peer) commit(ctx context.Context, app string, epoch int64, batch []byte) (map[string]any, *peerError) {
	attempts := 1
	if p.assertRef {
		attempts = maxAttempts
	}
	for attempt := 0; attempt < attempts; attempt++ {
		t, perr := p.load(ctx)
		if perr != nil {
			return nil, perr
		}
		committed, perr := committedEpoch(t, app)
		if perr != nil {
			return nil, perr
		}
		if committed != nil && *committed >= epoch {
			return map[string]any{"told": "already-committed", "committed": *committed}, nil
		}
		p.harness.await("check-passed")
		err := p.append(ctx, t, app, epoch, batch)
		if err == nil {
			return map[string]any{"told": "committed"}, nil
		}
		var own *peerError
		if errors.As(err, &own) {
			return nil, own
		}
		refused := errors.Is(err, table.ErrCommitFailed)
		if !refused {
			// Any other failure of the commit is one iceberg-go calls unknown (the catalog may have
			// taken it): resolved, as this project's sinks resolve one, by looking at the table.
			// On the SQL catalog a requirement the table no longer meets is such a failure
			// (catalog/sql CommitTable validates before it writes anything, and does not wrap the
			// error in ErrCommitFailed), so the library's own retry never runs there.
			t, perr := p.load(ctx)
			if perr != nil {
				return nil, fail("OutcomeUnknown", err)
			}
			now, perr := committedEpoch(t, app)
			if perr != nil {
				return nil, perr
			}
			if now != nil && *now >= epoch {
				return map[string]any{"told": "already-committed", "committed": *now}, nil
			}
			if !strings.HasPrefix(err.Error(), "requirement failed") {
				return nil, fail("OutcomeUnknown", err)
			}
		}
		if !p.assertRef {
			n := p.updates
			return nil, &peerError{Kind: "Conflict", Message: err.Error(), Attempts: &n}
		}
		time.Sleep(time.Duration(min(1<<min(attempt, 6), 50)) * time.Millisecond)
	}
	n := attempts
	return nil, &peerError{Kind: "Conflict", Message: fmt.Sprintf("gave up after %d conflicting attempts", n), Attempts: &n}
}

// append commits the batch and the watermark in one transaction: what every Iceberg arm commits.
func (p *peer) append(ctx context.Context, t *table.Table, app string, epoch int64, batch []byte) error {
	reader, err := ipc.NewReader(bytes.NewReader(batch))
	if err != nil {
		return fail("SchemaMismatch", err)
	}
	defer reader.Release()
	if perr := checkSchema(reader.Schema(), t); perr != nil {
		return perr
	}
	var records []arrow.RecordBatch
	for reader.Next() {
		rec := reader.RecordBatch()
		rec.Retain()
		records = append(records, rec)
	}
	rdr, err := array.NewRecordReader(reader.Schema(), records)
	if err != nil {
		return fail("SchemaMismatch", err)
	}
	defer rdr.Release()

	tx := t.NewTransaction()
	if p.assertRef {
		if err := tx.AssertRefSnapshotID(table.MainBranch); err != nil {
			return fail("Iceberg", err)
		}
	}
	props := iceberg.Properties{appIDKey: app, epochKey: strconv.FormatInt(epoch, 10)}
	if err := tx.Append(ctx, rdr, props); err != nil {
		return fail("Storage", err)
	}
	if err := tx.SetProperties(iceberg.Properties{watermarkPrefix + app: strconv.FormatInt(epoch, 10)}); err != nil {
		return fail("Iceberg", err)
	}
	_, err = tx.Commit(ctx)
	return err
}

func (p *peer) rowCount(ctx context.Context) (int64, *peerError) {
	t, perr := p.load(ctx)
	if perr != nil {
		return 0, perr
	}
	tasks, err := t.Scan().PlanFiles(ctx)
	if err != nil {
		return 0, fail("Storage", err)
	}
	var rows int64
	for _, task := range tasks {
		rows += task.File.Count()
	}
	return rows, nil
}

// serve drives one writer over JSON lines (docs/peer-protocol.md).
func serve(arm, locationJSON string) int {
	out := bufio.NewWriter(os.Stdout)
	// The protocol owns stdout; anything a library prints goes to stderr.
	os.Stdout = os.Stderr
	requests := bufio.NewScanner(os.Stdin)
	requests.Buffer(make([]byte, 1<<20), 1<<30)
	h := &harness{out: out, requests: requests}
	var loc location
	if err := json.Unmarshal([]byte(locationJSON), &loc); err != nil {
		h.send(map[string]any{"error": fail("Corrupt", err)})
		return 1
	}
	p, perr := open(arm, loc, h)
	if perr != nil {
		h.send(map[string]any{"error": perr})
		return 1
	}
	// reopens: this process serves another table when asked (open), so that the harness keeps it
	// for the next fixture instead of starting a new one (docs/peer-protocol.md).
	h.send(map[string]bool{"ready": true, "reopens": true})
	ctx := context.Background()
	for requests.Scan() {
		var request struct {
			Op       string          `json:"op"`
			App      string          `json:"app"`
			Epoch    int64           `json:"epoch"`
			Batch    string          `json:"batch"`
			Location json.RawMessage `json:"location"`
		}
		var value any
		var perr *peerError
		p.loads, p.updates = 0, 0
		if err := json.Unmarshal(requests.Bytes(), &request); err != nil {
			perr = fail("Corrupt", err)
		} else {
			switch request.Op {
			case "open":
				var next location
				if err := json.Unmarshal(request.Location, &next); err != nil {
					perr = fail("Corrupt", err)
					break
				}
				var opened *peer
				if opened, perr = open(arm, next, h); perr == nil {
					if p.db != nil {
						p.db.Close()
					}
					p = opened
				}
			case "commit":
				batch, err := hex.DecodeString(request.Batch)
				if err != nil {
					perr = fail("Corrupt", err)
					break
				}
				var told map[string]any
				told, perr = p.commit(ctx, request.App, request.Epoch, batch)
				if told != nil {
					told["loads"], told["updates"] = p.loads, p.updates
					value = told
				}
			case "committed_epoch":
				var t *table.Table
				if t, perr = p.load(ctx); perr == nil {
					value, perr = committedEpoch(t, request.App)
				}
			case "row_count":
				value, perr = p.rowCount(ctx)
			default:
				perr = &peerError{Kind: "Corrupt", Message: "unknown request " + requests.Text()}
			}
		}
		if perr != nil {
			h.send(map[string]any{"error": perr})
		} else {
			h.send(map[string]any{"ok": value})
		}
	}
	return 0
}

// quiet is the harness of a writer nobody holds (a stress worker): every event goes on at once.
func quiet() *harness { return nil }

// stressWorker is one writer process of a `stress` run, as interop/peer.py's stress-worker is
// (docs/peer-protocol.md): from the table's committed epoch (replayed) to `epochs`, each epoch
// until told committed or already committed, errors backing off, every attempt logged twice (its
// beginning, then its answer) into logs/writer-<id>.jsonl.
func stressWorker(arm, locationJSON string, flags map[string]string) int {
	var loc location
	if err := json.Unmarshal([]byte(locationJSON), &loc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, perr := open(arm, loc, quiet())
	if perr != nil {
		fmt.Fprintln(os.Stderr, perr)
		return 1
	}
	number := func(name string) int64 {
		n, err := strconv.ParseInt(flags[name], 10, 64)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", name, err))
		}
		return n
	}
	app, epochs, rows, writer, maxErrors := flags["--app"], number("--epochs"), number("--rows"), number("--id"), number("--max-errors")
	turns, peers := int64(-1), int64(1)
	if _, ok := flags["--turns"]; ok {
		turns, peers = number("--turns"), number("--peers")
	}
	if err := os.WriteFile(flags["--ready"], nil, 0o644); err != nil {
		panic(err)
	}
	for {
		if _, err := os.Stat(flags["--start"]); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	logs := flags["--logs"]
	log, err := os.OpenFile(fmt.Sprintf("%s/writer-%d.jsonl", logs, writer), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	errorsInARow := int64(0)
	wait := func(e *peerError) {
		errorsInARow++
		if errorsInARow > maxErrors {
			fmt.Fprintf(os.Stderr, "peer: %d errors in a row, last: %v\n", errorsInARow, e)
			os.Exit(1)
		}
		time.Sleep(time.Duration(20*min(errorsInARow, 10)) * time.Millisecond)
	}
	ctx := context.Background()
	var epoch int64
	for {
		t, perr := p.load(ctx)
		if perr == nil {
			var committed *int64
			if committed, perr = committedEpoch(t, app); perr == nil {
				epoch = 1
				if committed != nil && *committed > 0 {
					epoch = *committed
				}
				break
			}
		}
		wait(perr)
	}
	for attempt := 1; epoch <= epochs; attempt++ {
		for first := waitsFor(turns, peers, writer, epoch); first != nil && !turnEnded(logs, first, epoch); {
			time.Sleep(10 * time.Millisecond)
		}
		event := map[string]any{"writer": writer, "app": app, "epoch": epoch,
			"batch": fmt.Sprintf("w%d-p%d-e%d-a%d", writer, os.Getpid(), epoch, attempt), "at_ms": time.Now().UnixMilli()}
		writeLine(log, event)
		batch, err := stressBatch(epoch, rows, event["batch"].(string))
		if err != nil {
			panic(err)
		}
		p.loads, p.updates = 0, 0
		told, perr := p.commit(ctx, app, epoch, batch)
		if perr != nil {
			told = map[string]any{"told": "error", "kind": perr.Kind}
		}
		for k, v := range told {
			event[k] = v
		}
		event["loads"], event["updates"], event["at_ms"] = p.loads, p.updates, time.Now().UnixMilli()
		writeLine(log, event)
		if perr != nil {
			wait(perr)
		} else {
			epoch++
			errorsInARow = 0
		}
	}
	return 0
}

func writeLine(f *os.File, event map[string]any) {
	line, err := json.Marshal(event)
	if err != nil {
		panic(err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		panic(err)
	}
}

// stressBatch is the rows every stress writer offers: ids epoch*1000.., each row carrying the batch's identity.
func stressBatch(epoch, rows int64, identity string) ([]byte, error) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "payload", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := int64(0); i < rows; i++ {
		b.Field(0).(*array.Int64Builder).Append(epoch*1000 + i)
		b.Field(1).(*array.StringBuilder).Append(identity)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var out bytes.Buffer
	w := ipc.NewWriter(&out, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// waitsFor is the writers whose answer at `epoch` this one waits for, if any: the Rust writers on
// their turn, the epoch's leading peer on the peers' turn (spike/lab/src/stress/turns.rs).
func waitsFor(turns, peers, writer, epoch int64) []int64 {
	if turns < 0 {
		return nil
	}
	if epoch%3 == 2 {
		rust := make([]int64, turns)
		for i := range rust {
			rust[i] = int64(i)
		}
		return rust
	}
	if leader := turns + (epoch/3)%peers; epoch%3 == 0 && writer != leader {
		return []int64{leader}
	}
	return nil
}

// turnEnded is whether one of `writers` logged an answer at `epoch` or later.
func turnEnded(logs string, writers []int64, epoch int64) bool {
	for _, rust := range writers {
		data, err := os.ReadFile(fmt.Sprintf("%s/writer-%d.jsonl", logs, rust))
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var event struct {
				Told  *string `json:"told"`
				Epoch int64   `json:"epoch"`
			}
			// A line cut by a kill does not parse.
			if json.Unmarshal(line, &event) == nil && event.Told != nil && event.Epoch >= epoch {
				return true
			}
		}
	}
	return false
}

func main() {
	switch {
	case len(os.Args) == 4 && os.Args[1] == "serve":
		os.Exit(serve(os.Args[2], os.Args[3]))
	case len(os.Args) >= 4 && os.Args[1] == "stress-worker" && len(os.Args)%2 == 0:
		flags := map[string]string{}
		for i := 4; i+1 < len(os.Args); i += 2 {
			flags[os.Args[i]] = os.Args[i+1]
		}
		os.Exit(stressWorker(os.Args[2], os.Args[3], flags))
	default:
		fmt.Fprintln(os.Stderr, "usage: peer serve ARM LOCATION | peer stress-worker ARM LOCATION --app A --epochs N --rows R --id K --logs DIR --max-errors M --ready F --start F [--turns W]")
		os.Exit(2)
	}
}

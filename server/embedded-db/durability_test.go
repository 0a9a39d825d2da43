//go:build unix

package main

// A kill -9 of the launcher in the middle of writes loses no
// acknowledged write. The test builds the real launcher binary, runs it as a separate process,
// has several writers, each with a client (and connections) of its own, insert, update (by
// `_id`, by the app's compare-and-set filter and by a filter without `_id`) and delete, SIGKILLs the process at a random moment, restarts it on the
// same data directory and compares what it holds with every acknowledged result. An operation
// in flight at the kill may have happened or not; anything acknowledged must be there.
//
// The kill moment and the writers' choices come from a seed it prints; PRESSROOM_DURABILITY_SEED
// replays them (the interleaving of the writers is up to the scheduler, so a replay is close,
// not identical).

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

const (
	durabilityWriters = 4
	durabilityKills   = 3
	// Each writer has this many acknowledged operations in a round before the kill may come.
	durabilityMinAcked = 10
)

func TestKill9LosesNoAcknowledgedWrite(t *testing.T) {
	// In parallel: its own launcher process (README.md, "How it is built").
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard only
	defer cancel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PRESSROOM_DURABILITY_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (replay with PRESSROOM_DURABILITY_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))

	bin := buildLauncher(ctx, t)
	dir := t.TempDir()
	srv := startLauncher(ctx, t, bin, dir)
	client := connectLauncher(ctx, t, srv.uri)
	createAppBlogIndexes(ctx, t, client.Database("app").Collection("blogs"))

	writers := make([]*durabilityWriter, durabilityWriters)
	for i := range writers {
		writers[i] = &durabilityWriter{n: i, rng: rand.New(rand.NewPCG(seed, uint64(i+1))), docs: map[string]*trackedDoc{}}
	}

	for round := 1; round <= durabilityKills; round++ {
		blogs := client.Database("app").Collection("blogs")
		delay := time.Duration(50+rng.IntN(1200)) * time.Millisecond
		var killed atomic.Bool
		var wg sync.WaitGroup
		acked := make(chan struct{}, durabilityWriters)
		for _, w := range writers {
			// Each writer has a client of its own (its own connections), as separate processes
			// would: the launcher's atomic writes and its durability hold whoever sends them.
			own := connectLauncher(ctx, t, srv.uri)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { _ = own.Disconnect(context.Background()) }()
				w.run(ctx, own.Database("app").Collection("blogs"), &killed, acked)
			}()
		}
		// The kill comes once every writer is under way, plus the seeded delay: where it lands
		// is random; nothing here asserts how long anything takes.
		for range writers {
			select {
			case <-acked:
			case <-ctx.Done():
				t.Fatalf("round %d: writers did not get going: %v", round, ctx.Err())
			}
		}
		time.Sleep(delay)
		killed.Store(true)
		srv.kill9(t)
		wg.Wait()
		_ = client.Disconnect(context.Background())

		var ops, inFlight int
		var errs []string
		for _, w := range writers {
			ops += w.acked
			if w.inFlight != "" {
				inFlight++
			}
			errs = append(errs, w.errs...)
		}
		t.Logf("round %d: killed %v after the writers got going; %d operations acknowledged so far; in flight at the kill: %d (%s)",
			round, delay, ops, inFlight, inFlightOps(writers))
		for _, e := range errs {
			t.Errorf("round %d: %s", round, e)
		}
		if t.Failed() {
			t.FailNow()
		}

		srv = startLauncher(ctx, t, bin, dir)
		client = connectLauncher(ctx, t, srv.uri)
		blogs = client.Database("app").Collection("blogs")
		checkAppBlogIndexes(ctx, t, blogs)
		// The tags element table changes in the transaction of each write (its triggers), so a
		// kill leaves it in step with the blogs it kept (once the keeper made it, a second in).
		if msg := elementTablesOutOfStep(ctx, t, filepath.Join(dir, "app.sqlite")); msg != "" {
			t.Errorf("round %d (seed %d): %s", round, seed, msg)
		}
		problems, summary := checkDurability(ctx, t, blogs, writers)
		t.Logf("round %d: after the restart: %s", round, summary)
		for _, p := range problems {
			t.Errorf("round %d (seed %d): %s", round, seed, p)
		}
		if len(problems) > 0 {
			t.FailNow()
		}
	}

	// The element table checks above had a table to check.
	func() {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "app.sqlite")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var tagged []string
		for _, fields := range elementTablesOf(ctx, t, db) {
			tagged = append(tagged, fields...)
		}
		if !slices.Equal(tagged, []string{"tags"}) {
			t.Errorf("element tables: %v, want one for tags", tagged)
		}
	}()

	// The data directory is still fully usable: writes, the unique index, the pushed-down list
	// query, a clean shutdown and SQLite's own integrity check.
	blogs := client.Database("app").Collection("blogs")
	probe := writers[0].newDoc("ws_1", "probe")
	if _, err := blogs.InsertOne(ctx, probe); err != nil {
		t.Fatalf("insert after the restarts: %v", err)
	}
	dup := writers[0].newDoc("ws_1", "probe-dup")
	dup[1].Value = "ws_1"
	dup[2].Value = "probe" // the slug of probe, in the same workspace
	if _, err := blogs.InsertOne(ctx, dup); !mongo.IsDuplicateKeyError(err) {
		t.Errorf("a second blog with the slug %q in ws_1: want a duplicate key error, got %v", "probe", err)
	}
	if _, err := blogs.DeleteOne(ctx, bson.M{"_id": "probe"}); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"ws_0", "ws_1"} {
		want := 0
		for _, w := range writers {
			for _, d := range w.docs {
				if d.confirmed.exists && d.confirmed.workspaceID == ws && d.confirmed.status == "released" {
					want++
				}
			}
		}
		cur, err := blogs.Find(ctx, bson.D{{Key: "workspaceId", Value: ws}, {Key: "status", Value: "released"}},
			options.Find().SetSort(bson.D{{Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}}))
		if err != nil {
			t.Fatal(err)
		}
		var got []bson.M
		if err = cur.All(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != want {
			t.Errorf("released blogs of %s through the list query: %d, want %d", ws, len(got), want)
		}
	}
	_ = client.Disconnect(context.Background())
	srv.stop(t)
	file := filepath.Join(dir, "app.sqlite")
	db, err := sql.Open("sqlite", "file:"+file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err = db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("PRAGMA integrity_check: %q %v", integrity, err)
	}

	// The checker itself catches a lost write: take one acknowledged insert and one acknowledged
	// update back behind the server's back, restart, and it must report exactly those two.
	var gone, stale string
	for _, w := range writers {
		for _, id := range slices.Sorted(mapKeys(w.docs)) {
			if d := w.docs[id]; d.confirmed.exists {
				if gone == "" {
					gone = id
				} else if stale == "" {
					stale = id
				}
			}
		}
	}
	if gone == "" || stale == "" {
		t.Fatalf("fewer than two live documents to check the checker with")
	}
	tbl := tablesOf(t, filepath.Join(dir, "app.sqlite"))["blogs"]
	for _, q := range []struct {
		sql string
		id  string
	}{
		{fmt.Sprintf(`DELETE FROM %q WHERE _ferretdb_sjson->>'$._id' = ?`, tbl), gone},
		{fmt.Sprintf(`UPDATE %q SET _ferretdb_sjson = json_set(_ferretdb_sjson, '$.title', 'an older title') WHERE _ferretdb_sjson->>'$._id' = ?`, tbl), stale},
	} {
		res, err := db.ExecContext(ctx, q.sql, q.id)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("%s (%s): %d rows", q.sql, q.id, n)
		}
	}
	_ = db.Close()
	srv = startLauncher(ctx, t, bin, dir)
	client = connectLauncher(ctx, t, srv.uri)
	defer client.Disconnect(context.Background())
	problems, _ := checkDurability(ctx, t, client.Database("app").Collection("blogs"), writers)
	if len(problems) != 2 || !strings.Contains(problems[0]+problems[1], gone+":") ||
		!strings.Contains(problems[0]+problems[1], stale+":") {
		t.Errorf("the checker should report exactly %s (deleted) and %s (changed); it reported %q", gone, stale, problems)
	} else {
		t.Logf("the checker catches lost writes: %q", problems)
	}
	srv.stop(t)
}

// docState is what the test knows of one blog: absent, or present with these fields.
type docState struct {
	exists      bool
	workspaceID string
	slug        string
	status      string
	revision    string
	title       string
	body        string
}

func (s docState) String() string {
	if !s.exists {
		return "absent"
	}
	return fmt.Sprintf("{%s %s %s rev %s %q}", s.workspaceID, s.slug, s.status, s.revision, s.title)
}

// trackedDoc is the last acknowledged state of a blog and, when an operation on it was in
// flight at the kill, the state that operation would have left.
type trackedDoc struct {
	confirmed docState
	pending   *docState
}

// durabilityWriter owns its blogs (no other writer touches them), so each blog's operations are
// sequential and its expected state is known exactly.
type durabilityWriter struct {
	n        int
	rng      *rand.Rand
	docs     map[string]*trackedDoc
	next     int
	acked    int      // acknowledged operations, all rounds
	inFlight string   // the operation in flight at the last kill, if any
	errs     []string // failures before the kill
}

func (w *durabilityWriter) randHex() string {
	return fmt.Sprintf("%016x", w.rng.Uint64())
}

// tags returns 0 to 3 tags of 8: blogs' tags, which get an element table (released_by_tag).
func (w *durabilityWriter) tags() bson.A {
	tags := bson.A{}
	for range w.rng.IntN(4) {
		tags = append(tags, fmt.Sprintf("tag-%d", w.rng.IntN(8)))
	}
	return tags
}

func (w *durabilityWriter) newDoc(ws, id string) bson.D {
	now := time.Now()
	return bson.D{
		{Key: "_id", Value: id},
		{Key: "workspaceId", Value: ws},
		{Key: "slug", Value: id},
		{Key: "status", Value: "draft"},
		{Key: "revision", Value: w.randHex()},
		{Key: "title", Value: "title " + w.randHex()},
		{Key: "body", Value: strings.Repeat("body of "+id+" ", 60)},
		{Key: "tags", Value: w.tags()},
		{Key: "createdAt", Value: now},
		{Key: "updatedAt", Value: now},
		{Key: "releasedAt", Value: nil},
	}
}

func stateOf(d bson.D) docState {
	m := d.Map()
	return docState{
		exists: true, workspaceID: m["workspaceId"].(string), slug: m["slug"].(string), status: m["status"].(string),
		revision: m["revision"].(string), title: m["title"].(string), body: m["body"].(string),
	}
}

// run does random operations until one fails after killed is set. It signals acked once, after
// durabilityMinAcked acknowledged operations in this round.
func (w *durabilityWriter) run(ctx context.Context, blogs *mongo.Collection, killed *atomic.Bool, acked chan<- struct{}) {
	w.inFlight = ""
	signalled := false
	for i := 0; ; i++ { // i operations acknowledged so far in this round
		if !signalled && i >= durabilityMinAcked {
			acked <- struct{}{}
			signalled = true
		}
		if ctx.Err() != nil {
			w.errs = append(w.errs, fmt.Sprintf("writer %d: %v", w.n, ctx.Err()))
			return
		}
		desc, pending, err := w.step(ctx, blogs)
		if err == nil {
			w.acked++
			continue
		}
		if !killed.Load() {
			w.errs = append(w.errs, fmt.Sprintf("writer %d: %s before the kill: %v", w.n, desc, err))
			if !signalled {
				acked <- struct{}{}
			}
			return
		}
		// Unacknowledged: it may or may not have happened.
		for id, s := range pending {
			w.docs[id].pending = &s
		}
		w.inFlight = desc
		if !signalled {
			acked <- struct{}{}
		}
		return
	}
}

// step does one operation. On success it records the new states as confirmed; on failure it
// returns the states the operation would have left (pending), for the caller to judge.
func (w *durabilityWriter) step(ctx context.Context, blogs *mongo.Collection) (string, map[string]docState, error) {
	var live []string
	for _, id := range slices.Sorted(mapKeys(w.docs)) {
		if w.docs[id].confirmed.exists {
			live = append(live, id)
		}
	}
	ws := fmt.Sprintf("ws_%d", w.n%2)
	p := w.rng.IntN(100)
	if len(live) < 4 || p < 20 {
		n := 1
		if w.rng.IntN(4) == 0 {
			n = 3
		}
		var docs []any
		pending := map[string]docState{}
		for range n {
			id := fmt.Sprintf("b_w%d_%d", w.n, w.next)
			w.next++
			d := w.newDoc(ws, id)
			docs = append(docs, d)
			pending[id] = stateOf(d)
			w.docs[id] = &trackedDoc{}
		}
		var err error
		if n == 1 {
			_, err = blogs.InsertOne(ctx, docs[0])
		} else {
			_, err = blogs.InsertMany(ctx, docs)
		}
		return w.done(fmt.Sprintf("insert of %d", n), pending, err, nil)
	}

	id := live[w.rng.IntN(len(live))]
	cur := w.docs[id].confirmed
	next := cur
	next.revision = w.randHex()
	var (
		desc    string
		filter  bson.D
		set     bson.D
		deleted bool
	)
	switch {
	case p < 40: // by _id
		desc = "updateOne({_id}) of " + id
		next.title = "title " + w.randHex()
		filter = bson.D{{Key: "_id", Value: id}}
		set = bson.D{{Key: "title", Value: next.title}, {Key: "revision", Value: next.revision}, {Key: "tags", Value: w.tags()}}
	case p < 65: // the app's compare-and-set (blogs-store.ts, writeVersion)
		desc = "compare-and-set of " + id
		next.status = map[string]string{"draft": "released", "released": "draft"}[cur.status]
		filter = bson.D{{Key: "_id", Value: id}, {Key: "workspaceId", Value: cur.workspaceID},
			{Key: "status", Value: cur.status}, {Key: "revision", Value: cur.revision}}
		var releasedAt any
		if next.status == "released" {
			releasedAt = time.Now()
		}
		set = bson.D{{Key: "status", Value: next.status}, {Key: "releasedAt", Value: releasedAt},
			{Key: "updatedAt", Value: time.Now()}, {Key: "revision", Value: next.revision}}
	case p < 70: // a compare-and-set that lost its race must change nothing
		desc = "stale compare-and-set of " + id
		filter = bson.D{{Key: "_id", Value: id}, {Key: "workspaceId", Value: cur.workspaceID},
			{Key: "status", Value: cur.status}, {Key: "revision", Value: "stale" + cur.revision}}
		set = bson.D{{Key: "title", Value: "must not be written"}}
		next = cur
	case p < 82: // a filter without _id
		desc = "updateOne({workspaceId, slug}) of " + id
		next.title = "title " + w.randHex()
		filter = bson.D{{Key: "workspaceId", Value: cur.workspaceID}, {Key: "slug", Value: cur.slug}}
		set = bson.D{{Key: "title", Value: next.title}, {Key: "revision", Value: next.revision}}
	case p < 94:
		desc = "deleteOne({_id}) of " + id
		filter, deleted = bson.D{{Key: "_id", Value: id}}, true
	default:
		desc = "deleteOne({workspaceId, slug}) of " + id
		filter, deleted = bson.D{{Key: "workspaceId", Value: cur.workspaceID}, {Key: "slug", Value: cur.slug}}, true
	}
	want := int64(1)
	if strings.HasPrefix(desc, "stale") {
		want = 0
	}
	if deleted {
		res, err := blogs.DeleteOne(ctx, filter)
		var n int64
		if err == nil {
			n = res.DeletedCount
		}
		return w.done(desc, map[string]docState{id: {}}, err, func() error {
			if n != want {
				return fmt.Errorf("deleted %d, want %d", n, want)
			}
			return nil
		})
	}
	res, err := blogs.UpdateOne(ctx, filter, bson.D{{Key: "$set", Value: set}})
	return w.done(desc, map[string]docState{id: next}, err, func() error {
		if res.MatchedCount != want || res.ModifiedCount != want {
			return fmt.Errorf("matched %d, modified %d, want %d", res.MatchedCount, res.ModifiedCount, want)
		}
		return nil
	})
}

func (w *durabilityWriter) done(desc string, states map[string]docState, err error, verify func() error) (string, map[string]docState, error) {
	if err != nil {
		return desc, states, err
	}
	if verify != nil {
		if err = verify(); err != nil {
			// Acknowledged, but not what it should have done: a failure whether or not killed.
			w.errs = append(w.errs, fmt.Sprintf("writer %d: %s: %v", w.n, desc, err))
		}
	}
	for id, s := range states {
		w.docs[id].confirmed = s
	}
	return desc, nil, nil
}

func inFlightOps(writers []*durabilityWriter) string {
	var ops []string
	for _, w := range writers {
		if w.inFlight != "" {
			ops = append(ops, w.inFlight)
		}
	}
	return strings.Join(ops, "; ")
}

// checkDurability compares every blog in the database with what the writers know, then takes
// what it found as the new confirmed state (resolving operations that were in flight).
func checkDurability(ctx context.Context, t *testing.T, blogs *mongo.Collection, writers []*durabilityWriter) ([]string, string) {
	t.Helper()
	cur, err := blogs.Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var found []bson.D
	if err = cur.All(ctx, &found); err != nil {
		t.Fatal(err)
	}
	got := map[string]docState{}
	for _, d := range found {
		got[d.Map()["_id"].(string)] = stateOf(d)
	}
	var problems []string
	known := map[string]bool{}
	var present, pendingTaken, pendingNot int
	for _, w := range writers {
		for _, id := range slices.Sorted(mapKeys(w.docs)) {
			d := w.docs[id]
			known[id] = true
			have := got[id]
			switch {
			case have == d.confirmed:
			case d.pending != nil && have == *d.pending:
				pendingTaken++
			default:
				want := "acknowledged " + d.confirmed.String()
				if d.pending != nil {
					want += " or in flight " + d.pending.String()
				}
				problems = append(problems, fmt.Sprintf("%s: found %s, want %s", id, have, want))
			}
			if d.pending != nil && have == d.confirmed {
				pendingNot++
			}
			if have.exists {
				present++
			}
			d.confirmed, d.pending = have, nil
		}
	}
	for _, id := range slices.Sorted(mapKeys(got)) {
		if !known[id] {
			problems = append(problems, fmt.Sprintf("%s: a blog nobody wrote", id))
		}
	}
	return problems, fmt.Sprintf("%d blogs found; of the operations in flight %d had happened, %d had not",
		present, pendingTaken, pendingNot)
}

// checkAppBlogIndexes asserts that listIndexes still shows the indexes createAppBlogIndexes made.
func checkAppBlogIndexes(ctx context.Context, t *testing.T, blogs *mongo.Collection) {
	t.Helper()
	specs, err := blogs.Indexes().ListSpecifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range specs {
		var keys bson.D
		if err = bson.Unmarshal(s.KeysDocument, &keys); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s:%v ", k.Key, k.Value)
		}
		got[s.Name] = fmt.Sprintf("%sunique=%v", b.String(), s.Unique != nil && *s.Unique)
	}
	want := map[string]string{"_id_": "_id:1 unique=false"}
	for _, ix := range appIndexes(t) {
		if ix.Collection == "blogs" {
			want[ix.Name] = ix.describe()
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("index %s after the restart: %q, want %q (all: %v)", name, got[name], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("indexes after the restart: %v", got)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// buildLauncher builds this directory's launcher (as server/src/platform/embedded-db/launcher.ts does) into a temporary dir.
func buildLauncher(ctx context.Context, t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pressroom-db")
	args := []string{"build", "-mod=readonly", "-buildvcs=false", "-o", bin, "."}
	// The same -trimpath as this test binary, so the packages it compiled are reused.
	if info, ok := debug.ReadBuildInfo(); !ok || slices.Contains(info.Settings, debug.BuildSetting{Key: "-trimpath", Value: "true"}) {
		args = slices.Insert(args, 1, "-trimpath")
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// launcher is one run of the launcher binary, a separate process.
type launcher struct {
	cmd    *exec.Cmd
	uri    string
	stderr *lockedBuffer
	exited chan struct{}
}

func startLauncher(ctx context.Context, t *testing.T, bin, dir string, flags ...string) *launcher {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-listen", "127.0.0.1:0", "-data-dir", dir, "-exit-on-stdin-close"}, flags...)...)
	stdout := &firstLine{line: make(chan string, 1)}
	l := &launcher{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = stdout, l.stderr
	stdin, err := cmd.StdinPipe() // held open: if the test process dies, the launcher exits
	if err != nil {
		t.Fatal(err)
	}
	if err = cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(l.exited) }()
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		<-l.exited
	})
	select {
	case line := <-stdout.line:
		var ok bool
		if l.uri, ok = strings.CutPrefix(line, `{"uri":"`); !ok || !strings.HasSuffix(l.uri, `"}`) {
			t.Fatalf("launcher printed %q, want {\"uri\":…}", line)
		}
		l.uri = strings.TrimSuffix(l.uri, `"}`)
	case <-l.exited:
		t.Fatalf("launcher exited before it was ready (%v):\n%s", cmd.ProcessState, l.stderr)
	case <-ctx.Done():
		t.Fatalf("launcher gave no URI: %v\n%s", ctx.Err(), l.stderr)
	}
	return l
}

func (l *launcher) kill9(t *testing.T) {
	t.Helper()
	if err := l.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-l.exited
	if ws, ok := l.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("launcher ended with %v, not by SIGKILL:\n%s", l.cmd.ProcessState, l.stderr)
	}
}

func (l *launcher) stop(t *testing.T) {
	t.Helper()
	if err := l.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-l.exited
	if code := l.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("launcher exited with %v after SIGTERM:\n%s", l.cmd.ProcessState, l.stderr)
	}
}

func connectLauncher(ctx context.Context, t *testing.T, uri string) *mongo.Client {
	t.Helper()
	// No retried writes: an error means the write was not acknowledged, nothing more. A short
	// server selection timeout only makes operations issued after the kill fail sooner.
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(uri).SetRetryWrites(false).
		SetServerSelectionTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if err = client.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return client
}

// firstLine sends the first line written to it.
type firstLine struct {
	buf  []byte
	sent bool
	line chan string
}

func (f *firstLine) Write(p []byte) (int, error) {
	if !f.sent {
		f.buf = append(f.buf, p...)
		if i := bytes.IndexByte(f.buf, '\n'); i >= 0 {
			f.line <- string(f.buf[:i])
			f.sent = true
		}
	}
	return len(p), nil
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

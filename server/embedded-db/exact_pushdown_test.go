package main

// Proof for the FerretDB patch (README.md, "The FerretDB patch"): a differential test of the
// exact pushdown of finds against the stock query path (writes: exact_writes_test.go; plans of
// the app's queries: app_query_plans_test.go).
//
// Replay a failure with PRESSROOM_PUSHDOWN_SEED=<seed printed by the failing test>.

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// sqlLog records the SQL of the patch's pushed-down queries (FerretDB logs each at debug level).
type sqlLog struct {
	mu      sync.Mutex
	queries []loggedQuery
	attrs   []slog.Attr
	parent  *sqlLog
	// quiet: a client connection's logger, which at debug level dumps every message (slow).
	quiet bool
	// triggerReads counts the backend's reads of sqlite_master for element tables' triggers.
	triggerReads int
}

type loggedQuery struct {
	sql  string
	args []any
}

func (l *sqlLog) root() *sqlLog {
	if l.parent != nil {
		return l.parent
	}
	return l
}

func (l *sqlLog) Enabled(context.Context, slog.Level) bool { return !l.quiet }

func (l *sqlLog) Handle(_ context.Context, r slog.Record) error {
	// Pushed-down queries (whole stored documents, of which a projection's fields alone may then
	// be decoded: exact_projection_test.go) and counts (and the sizes of a count's word lists,
	// "SELECT (SELECT COUNT(*)"), their checks, the stock path's own queries with a WHERE (for
	// `{_id: …}`, written "SELECT  _ferretdb_sjson", with two spaces), and writes.
	q, ok := strings.CutPrefix(r.Message, ">>> ")
	if ok && strings.Contains(q, "FROM sqlite_master WHERE type = 'trigger'") {
		root := l.root()
		root.mu.Lock()
		root.triggerReads++
		root.mu.Unlock()
	}
	if !ok || !(strings.HasPrefix(q, "SELECT _ferretdb_sjson FROM") && strings.Contains(q, "WHERE") ||
		strings.HasPrefix(q, "SELECT  _ferretdb_sjson FROM") && strings.Contains(q, "WHERE") ||
		strings.HasPrefix(q, "SELECT EXISTS") || strings.HasPrefix(q, "SELECT COUNT(*)") || strings.HasPrefix(q, "SELECT (SELECT COUNT(*)") || strings.HasPrefix(q, "WITH m AS MATERIALIZED") ||
		strings.HasPrefix(q, "UPDATE ") || strings.HasPrefix(q, "DELETE ")) {
		return nil
	}
	var args []any
	for _, a := range l.attrs {
		if a.Key == "args" {
			args, _ = a.Value.Any().([]any)
		}
	}
	root := l.root()
	root.mu.Lock()
	defer root.mu.Unlock()
	root.queries = append(root.queries, loggedQuery{sql: q, args: args})
	return nil
}

func (l *sqlLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	quiet := l.quiet
	for _, a := range attrs {
		quiet = quiet || a.Key == "name" && strings.HasPrefix(a.Value.String(), "//")
	}
	return &sqlLog{attrs: append(append([]slog.Attr{}, l.attrs...), attrs...), parent: l.root(), quiet: quiet}
}

func (l *sqlLog) WithGroup(string) slog.Handler { return l }

// takeTriggerReads returns how many reads of element tables' triggers there were since last asked.
func (l *sqlLog) takeTriggerReads() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.triggerReads
	l.triggerReads = 0
	return n
}

func (l *sqlLog) take() []loggedQuery {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queries
	l.queries = nil
	return q
}

// startFerretUntil runs a FerretDB on dir until ctx is done (tests that restart it on one dir).
func startFerretUntil(ctx context.Context, t *testing.T, dir string, exact bool) *mongo.Client {
	t.Helper()
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Logger:        slog.New(discard{}),
		Handler:       "sqlite",
		SQLiteURL:     "file:" + dir + "/",
		ExactPushdown: exact,
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = f.Run(ctx) }()
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(f.MongoDBURI()))
	if err != nil {
		t.Fatal(err)
	}
	context.AfterFunc(ctx, func() { _ = client.Disconnect(context.Background()) })
	t.Cleanup(func() { <-done })
	return client
}

// startFerret runs a FerretDB (patched; exact pushdown on or off) on dir and connects to it.
func startFerret(ctx context.Context, t *testing.T, dir string, exact bool, handler slog.Handler) *mongo.Client {
	t.Helper()
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Logger:        slog.New(handler),
		Handler:       "sqlite",
		SQLiteURL:     "file:" + dir + "/",
		ExactPushdown: exact,
		AtomicWrites:  exact, // the launcher's defaults against stock FerretDB
	})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = f.Run(runCtx) }()
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(f.MongoDBURI()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.Disconnect(context.Background())
		stop()
		<-done
	})
	return client
}

type discard struct{}

func (discard) Enabled(context.Context, slog.Level) bool  { return false }
func (discard) Handle(context.Context, slog.Record) error { return nil }
func (d discard) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discard) WithGroup(string) slog.Handler           { return d }

// gen makes documents and queries over a few fields whose values mix every BSON type the
// patch compares (strings, ObjectIds, booleans, dates, null, missing) and, with exotic set,
// the ones it must fall back on (numbers, arrays, objects).
type gen struct {
	r      *rand.Rand
	exotic bool
	oids   []primitive.ObjectID
	dates  []time.Time
}

func newGen(seed uint64, exotic bool) *gen {
	g := &gen{r: rand.New(rand.NewPCG(seed, 14)), exotic: exotic}
	for i := range 4 {
		var oid primitive.ObjectID
		oid[0], oid[11] = byte(i*60), byte(i)
		g.oids = append(g.oids, oid)
	}
	base := time.Date(2001, 9, 9, 1, 46, 39, 0, time.UTC) // around 10^12 ms: 12 and 13 digits
	for i := range 6 {
		g.dates = append(g.dates, base.Add(time.Duration(i*700-1000)*time.Millisecond))
	}
	g.dates = append(g.dates, time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)) // negative
	return g
}

// tagStrs are the strings of the tags field, an array field like blogs' tags.
var tagStrs = []string{"t1", "t2", "t3", "T1", "", "1", "é \"q\" \\"}

// tags returns a value for the tags field: mostly arrays of strings, and with exotic set also
// arrays whose elements are not all strings (numbers, null, objects, ObjectIds, booleans, dates;
// FerretDB 1.24 refuses nested arrays),
// or (nil, false) to let value pick any other value.
func (g *gen) tags() (any, bool) {
	pick := func() string { return tagStrs[g.r.IntN(len(tagStrs))] }
	n := g.r.IntN(100)
	switch {
	case n < 45:
		a := bson.A{}
		for range g.r.IntN(4) {
			a = append(a, pick())
		}
		return a, true
	case n < 55:
		return pick(), true
	case g.exotic && n < 75:
		return []bson.A{
			{int32(1), pick()}, {"1", int64(1)}, {nil, pick()}, {nil},
			{bson.M{"k": pick()}}, {g.oids[0], pick()}, {true, g.dates[0]}, {},
		}[g.r.IntN(8)], true
	default:
		return nil, false
	}
}

// value returns a value for field, or (nil, false) for a missing field.
func (g *gen) value(field string) (any, bool) {
	if field == "tags" {
		if v, ok := g.tags(); ok {
			return v, true
		}
	}
	strs := map[string][]string{
		"ws": {"w1", "w2", "w3", "W1", ""}, "status": {"draft", "released", "removed"},
		"slug": {"a", "b", "a-2", "é", "z"}, "at": {"2001", "w1"}, "tags": tagStrs,
	}[field]
	n := g.r.IntN(100)
	switch {
	case n < 55 && len(strs) > 0:
		return strs[g.r.IntN(len(strs))], true
	case n < 70 && (field == "at" || field == "flag"):
		if field == "flag" {
			return g.r.IntN(2) == 0, true
		}
		return g.dates[g.r.IntN(len(g.dates))], true
	case n < 75:
		return nil, true
	case n < 80:
		return g.oids[g.r.IntN(len(g.oids))], true
	case n < 84:
		return g.r.IntN(2) == 0, true
	case n < 88:
		return g.dates[g.r.IntN(len(g.dates))], true
	case g.exotic && n < 91 && field == "flag":
		// flag has no index, so only the documents a query's indexed terms select are checked
		// for it: an array there must make such a query fall back ({flag: true} matches it).
		return []any{g.r.IntN(2) == 0, "w2"}, true
	case g.exotic && n < 91:
		return []any{strs0(strs), "w2"}, true
	case g.exotic && n < 93:
		return int32(g.r.IntN(3)), true
	case g.exotic && n < 94:
		return bson.M{"k": "w1"}, true
	case n < 96 && len(strs) > 0:
		return strs[0], true
	default:
		return nil, false
	}
}

func strs0(s []string) any {
	if len(s) == 0 {
		return "x"
	}
	return s[0]
}

var genFields = []string{"ws", "status", "at", "slug", "flag", "tags"}

func (g *gen) doc(i int) bson.D {
	var id any = fmt.Sprintf("d%03d", i)
	if i%7 == 3 {
		id = primitive.NewObjectIDFromTimestamp(time.Unix(int64(1e9+i), 0))
	}
	d := bson.D{{Key: "_id", Value: id}}
	for _, f := range genFields {
		if v, ok := g.value(f); ok {
			d = append(d, bson.E{Key: f, Value: v})
		}
	}
	// No plain string in tags where ws is "w1": there an $elemMatch on tags needs no array
	// required in SQL (its check finds none), elsewhere it does (ExactQuery.StringChecks).
	if m := d.Map(); m["ws"] == "w1" {
		if s, ok := m["tags"].(string); ok {
			for i := range d {
				if d[i].Key == "tags" {
					d[i].Value = bson.A{s}
				}
			}
		}
	}
	return d
}

// cond returns one condition on a field: a value, or an operator document.
func (g *gen) cond(field string) any {
	v := func() any {
		x, ok := g.value(field)
		if !ok {
			return "w1"
		}
		return x
	}
	vals := func() bson.A {
		a := bson.A{}
		n := 1 + g.r.IntN(3)
		switch g.r.IntN(8) {
		case 0:
			n = 101 + g.r.IntN(60) // over inListMax: one JSON array per type rank
		case 1:
			n = 8 + g.r.IntN(93) // inValuesMin to inListMax: `IN (?, …)` per type rank
		}
		for range n {
			a = append(a, v())
		}
		return a
	}
	if field == "tags" && g.r.IntN(4) == 0 {
		return g.elemMatch()
	}
	if field == "tags" && g.r.IntN(2) == 0 {
		// The tag filter's shapes: string equality and $in of strings (and their negations).
		strs := bson.A{}
		for range 1 + g.r.IntN(3) {
			strs = append(strs, tagStrs[g.r.IntN(len(tagStrs))])
		}
		return []any{strs[0], bson.M{"$eq": strs[0]}, bson.M{"$in": strs}, bson.M{"$ne": strs[0]}, bson.M{"$nin": strs}}[g.r.IntN(5)]
	}
	switch g.r.IntN(10) {
	case 0, 1, 2:
		return v()
	case 3:
		return bson.M{"$ne": v()}
	case 4:
		return bson.M{"$in": vals()}
	case 5:
		return bson.M{"$nin": vals()}
	case 6:
		ops := []string{"$lt", "$lte", "$gt", "$gte"}
		return bson.M{ops[g.r.IntN(4)]: v()}
	case 7:
		return bson.D{{Key: "$gte", Value: v()}, {Key: "$lt", Value: v()}}
	case 8:
		return bson.M{"$exists": g.r.IntN(2) == 0}
	default:
		return bson.M{"$eq": v()}
	}
}

// elemBounds are the strings of $elemMatch conditions on tags: its strings, their prefixes and
// bounds around them, the empty string, non-ASCII and astral ones.
var elemBounds = []string{"t", "t1", "t2", "t3", "u", "T", "T1", "", "1", "2", "é", "é \"", "ê", "f", "\uffff", "😀"}

// prefixUpper is the least string above every string that starts with p (for p without a last
// code point of U+10FFFF): p with its last code point incremented, as the app computes it.
func prefixUpper(p string) string {
	r := []rune(p)
	if len(r) == 0 {
		return "\U0010FFFF"
	}
	r[len(r)-1]++
	if r[len(r)-1] == 0xD800 {
		r[len(r)-1] = 0xE000
	}
	return string(r)
}

// elemMatch returns an $elemMatch condition on tags: mostly string comparisons (the search's
// prefix range, others, equal, reversed and empty bounds), which are translated, and otherwise
// operators or operands that must fall back (numbers, null, $in, $nin, $exists, a field of the
// elements, an empty document).
func (g *gen) elemMatch() any {
	b := func() string { return elemBounds[g.r.IntN(len(elemBounds))] }
	var cond bson.D
	switch n := g.r.IntN(10); {
	case n < 4:
		p := b()
		cond = bson.D{{Key: "$gte", Value: p}, {Key: "$lt", Value: prefixUpper(p)}}
	case n < 8:
		ops := []string{"$gte", "$gt", "$lt", "$lte", "$eq"}
		g.r.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		for _, op := range ops[:1+g.r.IntN(3)] {
			cond = append(cond, bson.E{Key: op, Value: b()})
		}
	default:
		cond = []bson.D{
			{{Key: "$gte", Value: int32(1)}},
			{{Key: "$gte", Value: "t"}, {Key: "$lt", Value: int32(1)}},
			{{Key: "$gte", Value: nil}},
			{{Key: "$in", Value: bson.A{"t1", "t2"}}},
			// A negation that falls back. Not $ne: stock FerretDB refuses $ne (and $not) in an
			// $elemMatch only when a document reaches its filter, so whether it errs depends on
			// which documents each side reads, not on the answer (seen: an update of
			// {_id, tags: {$elemMatch: {$ne}}} the patched side answered from SQL with no match).
			{{Key: "$nin", Value: bson.A{"t1"}}},
			{{Key: "$exists", Value: true}},
			{{Key: "k", Value: "t1"}},
			{},
			{{Key: "$lt", Value: g.oids[0]}},
			{{Key: "$gte", Value: "t"}, {Key: "$regex", Value: "^t"}},
		}[g.r.IntN(10)]
	}
	return bson.D{{Key: "$elemMatch", Value: cond}}
}

func (g *gen) filter(depth int) bson.D {
	if depth == 0 && g.r.IntN(6) == 0 {
		return g.tagPage()
	}
	if depth == 0 && g.r.IntN(6) == 0 {
		return g.searchPage()
	}
	f := bson.D{}
	if depth == 0 && g.r.IntN(6) == 0 {
		// A list of compare-and-sets: one row-value IN (tupleIn), beside terms of its own.
		f = append(f, bson.E{Key: "$or", Value: g.tuples()})
	}
	if depth == 0 && g.r.IntN(4) == 0 {
		// A term on _id (always clean) with terms on other fields: the patch checks fields without
		// an index (flag) only in the documents that _id term selects.
		f = append(f, bson.E{Key: "_id", Value: bson.M{"$gte": fmt.Sprintf("d%03d", g.r.IntN(300))}})
	}
	for range g.r.IntN(3) {
		field := append(genFields, "_id", "nope")[g.r.IntN(len(genFields)+2)]
		if field == "_id" {
			// An _id range, or equality: with other keys not translated, still an _id lookup.
			var cond any = bson.M{"$lt": fmt.Sprintf("d%03d", g.r.IntN(300))}
			if g.r.IntN(2) == 0 {
				cond = fmt.Sprintf("d%03d", g.r.IntN(300))
			}
			f = append(f, bson.E{Key: "_id", Value: cond})
			continue
		}
		f = append(f, bson.E{Key: field, Value: g.cond(field)})
	}
	if depth == 0 && g.r.IntN(3) == 0 {
		// The keyset cursor's shape, and other $or/$and.
		op := []string{"$or", "$and"}[g.r.IntN(2)]
		f = append(f, bson.E{Key: op, Value: bson.A{g.filter(1), g.filter(1)}})
	}
	return f
}

// tuples returns the shape of a list of compare-and-sets (the changes feed's clear of its marks):
// an $or of branches that each pin the same fields to values, in either order; mostly at least
// tupleInMin branches (one row-value IN), sometimes fewer, and with the generator's values, some
// of which (null, numbers, arrays, documents) keep the $or as it was.
func (g *gen) tuples() bson.A {
	fields := [][]string{{"_id", "status"}, {"_id", "ws", "at"}, {"slug", "ws"}, {"_id", "flag"}}[g.r.IntN(4)]
	n := 8 + g.r.IntN(40)
	if g.r.IntN(4) == 0 {
		n = 2 + g.r.IntN(6)
	}
	branches := bson.A{}
	for range n {
		d := bson.D{}
		for _, f := range fields {
			var v any = fmt.Sprintf("d%03d", g.r.IntN(300))
			if f != "_id" {
				if x, ok := g.value(f); ok {
					v = x
				}
			}
			d = append(d, bson.E{Key: f, Value: v})
		}
		if g.r.IntN(2) == 0 {
			slices.Reverse(d)
		}
		branches = append(branches, d)
	}
	return branches
}

// tagPage returns the consumer tag filter's shape: a workspace, a status, `tags: {$in}` of
// strings and, half the time, a keyset cursor on (at, _id).
func (g *gen) tagPage() bson.D {
	strs := bson.A{}
	for range 1 + g.r.IntN(3) {
		strs = append(strs, tagStrs[g.r.IntN(len(tagStrs))])
	}
	f := bson.D{{Key: "ws", Value: []string{"w1", "w2", "w3"}[g.r.IntN(3)]}, {Key: "status", Value: "released"}, {Key: "tags", Value: bson.M{"$in": strs}}}
	return g.maybeKeyset(f)
}

// maybeKeyset is f, half the time with a keyset cursor on (at, _id) as the app's pages send it.
func (g *gen) maybeKeyset(f bson.D) bson.D {
	if g.r.IntN(2) == 0 {
		at := g.dates[g.r.IntN(len(g.dates))]
		f = append(f, bson.E{Key: "$or", Value: bson.A{
			bson.M{"at": bson.M{"$lt": at}},
			bson.D{{Key: "at", Value: at}, {Key: "_id", Value: bson.M{"$lt": fmt.Sprintf("d%03d", g.r.IntN(300))}}},
		}})
	}
	return f
}

// searchPage returns the consumer search's shape over tags: a workspace, a status and an $and of
// words (string equalities) and a last word's prefix (an $elemMatch of a string range), or the
// prefix alone; sometimes a tag filter or a keyset cursor on (at, _id) too.
func (g *gen) searchPage() bson.D {
	words := bson.A{}
	for range g.r.IntN(3) {
		words = append(words, bson.D{{Key: "tags", Value: tagStrs[g.r.IntN(len(tagStrs))]}})
	}
	p := elemBounds[g.r.IntN(len(elemBounds))]
	prefix := bson.D{{Key: "tags", Value: bson.D{{Key: "$elemMatch", Value: bson.D{{Key: "$gte", Value: p}, {Key: "$lt", Value: prefixUpper(p)}}}}}}
	f := bson.D{{Key: "ws", Value: []string{"w1", "w2", "w3"}[g.r.IntN(3)]}, {Key: "status", Value: "released"}}
	if g.r.IntN(8) == 0 {
		f = bson.D{} // the words alone: arrays required in SQL
	}
	if len(words) == 0 && g.r.IntN(2) == 0 {
		f = append(f, prefix...)
	} else {
		f = append(f, bson.E{Key: "$and", Value: append(words, prefix)})
	}
	if g.r.IntN(4) == 0 {
		f = append(f, bson.E{Key: "slug", Value: bson.M{"$in": bson.A{"a", "b"}}})
	}
	return g.maybeKeyset(f)
}

func (g *gen) sort() bson.D {
	sorts := []bson.D{
		nil,
		{{Key: "at", Value: -1}, {Key: "_id", Value: -1}},
		{{Key: "ws", Value: 1}, {Key: "at", Value: 1}, {Key: "_id", Value: 1}},
		{{Key: "status", Value: 1}},
		{{Key: "_id", Value: 1}},
		{{Key: "flag", Value: -1}, {Key: "slug", Value: 1}, {Key: "_id", Value: -1}},
		{{Key: "at", Value: 1}},
		{{Key: "flag", Value: 1}, {Key: "_id", Value: 1}},
		{{Key: "tags", Value: 1}, {Key: "_id", Value: 1}},
	}
	return sorts[g.r.IntN(len(sorts))]
}

func seedFromEnv(t *testing.T) uint64 {
	if s := os.Getenv("PRESSROOM_PUSHDOWN_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return seed
	}
	return uint64(time.Now().UnixNano())
}

// startPair starts a differential test's two servers, each on a directory of its own: the
// patched one (exact pushdown and atomic writes on), whose pushed-down SQL log records, and stock.
func startPair(ctx context.Context, t *testing.T) (log *sqlLog, patchedDir string, patched, stock *mongo.Client) {
	t.Helper()
	log = &sqlLog{}
	patchedDir = t.TempDir()
	patched = startFerret(ctx, t, patchedDir, true, log)
	stock = startFerret(ctx, t, t.TempDir(), false, discard{})
	return log, patchedDir, patched, stock
}

// casesFromEnv returns the number of cases that env asks for, or def.
func casesFromEnv(env string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil {
		return n
	}
	return def
}

// genIndexes are the indexes of gen's collections: the app's list, slug and tag-page shapes.
var genIndexes = []mongo.IndexModel{
	{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "status", Value: 1}, {Key: "at", Value: -1}, {Key: "_id", Value: -1}}},
	{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "slug", Value: 1}}},
	{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "status", Value: 1}, {Key: "tags", Value: 1}, {Key: "at", Value: -1}, {Key: "_id", Value: -1}}},
}

// fillBoth makes collection db.name on each client with these indexes and documents.
func fillBoth(ctx context.Context, t *testing.T, clients []*mongo.Client, db, name string, docs []any, indexes ...mongo.IndexModel) {
	t.Helper()
	for _, c := range clients {
		coll := c.Database(db).Collection(name)
		for _, m := range indexes {
			if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExactPushdownReturnsWhatStockReturns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	seed := seedFromEnv(t)
	t.Logf("seed %d (replay with PRESSROOM_PUSHDOWN_SEED=%d)", seed, seed)

	log, patchedDir, patched, stock := startPair(ctx, t)
	defer ferretdb.SetDriverCap(64)

	casesPerCollection := casesFromEnv("PRESSROOM_PUSHDOWN_CASES", 1000)
	for _, exotic := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "exotic"}[exotic]
		g := newGen(seed, exotic)
		docs := make([]any, 300)
		for i := range docs {
			docs[i] = g.doc(i)
		}
		fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", name, docs, genIndexes...)
		ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
		log.take()

		pushed, idOnly, viaElements, driven, elemMatches, arraysInSQL := 0, 0, 0, 0, 0, 0
		var stockTime, patchedTime time.Duration
		for i := range casesPerCollection {
			filter, sort, limit := g.filter(0), g.sort(), int64(g.r.IntN(4)*g.r.IntN(12))
			// Started from the shortest list of a string every match holds, or never (the cap
			// under which that list drives: pressroom_exact_driver.go), a third of the cases each.
			driverCap := []int64{0, 3, 1 << 20}[g.r.IntN(3)]
			ferretdb.SetDriverCap(driverCap)
			opts := options.Find().SetSort(sort).SetLimit(limit)
			if sort == nil {
				opts = options.Find().SetLimit(limit)
			}
			t0 := time.Now()
			want, wantErr := findRaw(ctx, stock.Database("d").Collection(name), filter, opts)
			t1 := time.Now()
			got, gotErr := findRaw(ctx, patched.Database("d").Collection(name), filter, opts)
			stockTime, patchedTime = stockTime+t1.Sub(t0), patchedTime+time.Since(t1)
			kind := 0 // stock path
			for _, q := range log.take() {
				switch {
				case strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson"):
					kind = 2
					if strings.Contains(q.sql, elementInfix) {
						viaElements++
					}
					if strings.Contains(q.sql, "CROSS JOIN") {
						driven++
					}
					if strings.Contains(q.sql, "WHERE rid = ") { // an $elemMatch (elemMatchTerm)
						elemMatches++
						if strings.Contains(q.sql, ")+0 = 5") {
							arraysInSQL++
						}
					}
				case strings.Contains(q.sql, "WHERE _ferretdb_sjson->'$._id' = ?"):
					kind = max(kind, 1) // {_id: v, …}: the stock path's _id lookup
				}
			}
			pushed += kind / 2
			idOnly += kind % 2
			if (wantErr == nil) != (gotErr == nil) || !sameDocs(want, got) {
				t.Fatalf("%s case %d (seed %d): find(%v).sort(%v).limit(%d), driver cap %d\nstock:   %v %v\npatched: %v %v",
					name, i, seed, filter, sort, limit, driverCap, ids(want), wantErr, ids(got), gotErr)
			}
		}
		t.Logf("%s: %d cases, %d pushed down (%d through an element table, %d of them started from its list; %d with an $elemMatch, %d of them requiring arrays in SQL), %d _id lookups; time in stock %v, in patched %v",
			name, casesPerCollection, pushed, viaElements, driven, elemMatches, arraysInSQL, idOnly, stockTime, patchedTime)
		if !exotic && (elemMatches < casesPerCollection/50 || arraysInSQL == 0 || arraysInSQL == elemMatches) {
			t.Errorf("%d of %d cases pushed down an $elemMatch, %d of them requiring arrays in SQL", elemMatches, casesPerCollection, arraysInSQL)
		}
		if !exotic && pushed < casesPerCollection/3 {
			t.Errorf("only %d of %d cases were pushed down", pushed, casesPerCollection)
		}
		if !exotic && driven < casesPerCollection/200 {
			t.Errorf("only %d of %d cases were started from a list", driven, casesPerCollection)
		}
		if exotic && pushed > 0 {
			// Every generated field holds an exotic value somewhere: all must fall back, except
			// queries on fields that happen to be clean.
			t.Logf("exotic: %d pushed down (fields without exotic values)", pushed)
		}
	}
}

func findRaw(ctx context.Context, c *mongo.Collection, filter bson.D, opts *options.FindOptions) ([]bson.Raw, error) {
	cur, err := c.Find(ctx, filter, opts)
	if err != nil {
		return nil, err
	}
	var out []bson.Raw
	for cur.Next(ctx) {
		out = append(out, append(bson.Raw{}, cur.Current...))
	}
	return out, cur.Err()
}

func sameDocs(a, b []bson.Raw) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func ids(docs []bson.Raw) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Lookup("_id").String()
	}
	return out
}

// explain returns SQLite's plan for query, read through a new read-only connection to file (so
// it sees the current schema), its steps joined with "; ".
func explain(ctx context.Context, t *testing.T, file string, query string, args ...any) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, detail)
	}
	return strings.Join(parts, "; ")
}

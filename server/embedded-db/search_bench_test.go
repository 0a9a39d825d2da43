package main

// Search pages (the consumer `q=`: released blogs of a workspace whose textTerms hold every word
// of q but the last and a word starting with the last; README.md, "$elemMatch of a string
// range"), through the driver and as SQL on the SQLite file (the probe of a range against its
// list, and of the words' equalities):
//
//	PRESSROOM_BENCH_SEARCH_BLOGS=10000 go test -run TestSearchPageFigures -v -timeout 30m .
//
// Skipped unless PRESSROOM_BENCH_SEARCH_BLOGS is set. Prints medians; asserts only the answers.

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// searchCommon are words of most blogs (each in 60-100 % of them), many starting with t.
var searchCommon = strings.Fields(`the then there these they this that to time take tell think try turn two
talk team test text thing thought through today together top and for with from about into over after
new post release notes update version more some other what when which while your will`)

// searchBlogTerms returns the distinct words of blog i: common ones, 150-250 of a vocabulary of
// 6,000 made-up words (skewed towards its start), and "zyxwv" on one blog in 2,000 (workspace ws_0).
func searchBlogTerms(r *rand.Rand, vocab []string, i int) bson.A {
	seen := map[string]bool{}
	terms := bson.A{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	for j, w := range searchCommon {
		if r.IntN(100) < 100-j {
			add(w)
		}
	}
	for range 150 + r.IntN(100) {
		u := r.Float64()
		add(vocab[int(u*u*float64(len(vocab)))])
	}
	if i%2000 == 8 {
		add("zyxwv")
	}
	return terms
}

func TestSearchPageFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_SEARCH_BLOGS"))
	if n <= 0 {
		t.Skip("set PRESSROOM_BENCH_SEARCH_BLOGS")
	}
	ctx := context.Background()
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	body := strings.Repeat("Lorem ipsum dolor sit amet. ", 73) // ~2 KB
	r := rand.New(rand.NewPCG(7, 7))
	var vocab []string
	letters := "abcdefghijklmnopqrstuvwxy" // no z: "zyx" is rare
	for range 6000 {
		w := make([]byte, 4+r.IntN(6))
		for k := range w {
			w[k] = letters[r.IntN(len(letters))]
		}
		vocab = append(vocab, string(w))
	}

	rows := 0
	func() {
		sub, stop := context.WithCancel(ctx)
		defer stop()
		blogs := startFerretUntil(sub, t, dir, true).Database("app").Collection("blogs")
		createAppBlogIndexes(ctx, t, blogs)
		if _, err := blogs.Indexes().CreateOne(ctx, mongo.IndexModel{
			Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "status", Value: 1}, {Key: "textTerms", Value: 1}, {Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}},
			Options: options.Index().SetName("released_search"),
		}); err != nil {
			t.Fatal(err)
		}
		var batch []any
		for i := range n {
			d := benchBlog(i, start, body)
			terms := searchBlogTerms(r, vocab, i)
			rows += len(terms)
			batch = append(batch, append(d, bson.E{Key: "textTerms", Value: terms}))
			if len(batch) == 500 || i == n-1 {
				if _, err := blogs.InsertMany(ctx, batch); err != nil {
					t.Fatal(err)
				}
				batch = nil
			}
		}
	}()
	t0 := time.Now()
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	t.Logf("%d blogs, %d distinct words each on average; the keeper made the indexes and element tables in %.0f ms", n, rows/n, ms(time.Since(t0)))

	page := options.Find().SetSort(bson.D{{Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(21)
	search := func(words []string, prefix string) bson.D {
		up := []rune(prefix)
		up[len(up)-1]++
		terms := bson.A{}
		for _, w := range words {
			terms = append(terms, bson.D{{Key: "textTerms", Value: w}})
		}
		terms = append(terms, bson.D{{Key: "textTerms", Value: bson.D{{Key: "$elemMatch", Value: bson.D{{Key: "$gte", Value: prefix}, {Key: "$lt", Value: string(up)}}}}}})
		return bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "status", Value: "released"}, {Key: "$and", Value: terms}}
	}
	cursorAt := func(filter bson.D, i int) bson.D { return keysetAfter(filter, start, i) }
	find := func(filter bson.D, opts *options.FindOptions) func(*mongo.Collection) (int, error) {
		return benchFind(ctx, filter, opts)
	}
	count := func(filter bson.D) func(*mongo.Collection) (int, error) {
		return func(c *mongo.Collection) (int, error) {
			n, err := c.CountDocuments(ctx, filter)
			return int(n), err
		}
	}
	shapes := []benchShape{
		{"q=the (common prefix), page 1", find(search(nil, "the"), page)},
		{"q=t (a prefix of every blog's many words)", find(search(nil, "t"), page)},
		{"q=zyx (rare prefix, 5 blogs)", find(search(nil, "zyx"), page)},
		{"q=qu (a prefix of 28 % of blogs)", find(search(nil, "qu"), page)},
		{"q=the zyx (common word, rare prefix)", find(search([]string{"the"}, "zyx"), page)},
		{"q=the ti (common word, common prefix)", find(search([]string{"the"}, "ti"), page)},
		{"q=release qu", find(search([]string{"release"}, "qu"), page)},
		{"q=the, keyset page at the middle", find(cursorAt(search(nil, "the"), n/2), page)},
		{"q=the, limit 101", find(search(nil, "the"), options.Find().SetSort(bson.D{{Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(101))},
		{"count q=the", count(search(nil, "the"))},
		{"count q=zyx", count(search(nil, "zyx"))},
		{"count q=the zyx", count(search([]string{"the"}, "zyx"))},
		{"count q=qu", count(search(nil, "qu"))},
	}
	results := timeShapes(ctx, t, dir, shapes, map[bool]int{false: 3, true: 11}, 44)
	t.Logf("%d blogs, 2 workspaces (9 in 10 released), ~2 KB bodies; medians of 3 (stock) or 11 runs, through the driver", n)
	for _, exact := range []bool{false, true} {
		t.Logf("-exact-pushdown=%v:", exact)
		for _, line := range results[exact] {
			t.Logf("  %s", line)
		}
	}

	// The SQL the patched server sends, timed on the file as it is and with the range as a list
	// (rowid IN) instead of a probe, and the words' equalities as probes instead of lists.
	log := &sqlLog{}
	blogs := startFerret(ctx, t, dir, true, log).Database("app").Collection("blogs")
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "app.sqlite")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	probe := regexp.MustCompile(`EXISTS \(SELECT 1 FROM ("[^"]+") WHERE rid = ("[^"]+")\.rowid AND (v >= \? AND v < \?)\)`)
	list := regexp.MustCompile(`\(("[^"]+")\.rowid IN \(SELECT rid FROM ("[^"]+") WHERE v IN \(\?\)\)\)`)
	timeSQL := func(q string, args []any) (float64, int) {
		var times []time.Duration
		var got int
		for range 11 {
			t0 := time.Now()
			rows, err := db.QueryContext(ctx, q, args...)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			got = 0
			for rows.Next() {
				got++
			}
			rows.Close()
			times = append(times, time.Since(t0))
		}
		slices.Sort(times)
		return ms(times[len(times)/2]), got
	}
	t.Logf("SQL on the file (median of 11): as sent; range as a list; words as probes")
	for _, s := range shapes {
		if _, err := s.run(blogs); err != nil {
			t.Fatal(err)
		}
		for _, q := range log.take() {
			if !strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson FROM") && !strings.HasPrefix(q.sql, "SELECT COUNT(*)") {
				continue
			}
			sent, nSent := timeSQL(q.sql, q.args)
			line := fmt.Sprintf("  %-44s %6.1f ms", s.name, sent)
			if asList := probe.ReplaceAllString(q.sql, `($2.rowid IN (SELECT rid FROM $1 WHERE $3))`); asList != q.sql {
				d, n := timeSQL(asList, q.args)
				line += fmt.Sprintf("; %6.1f ms", d)
				if n != nSent {
					t.Errorf("%s: the list form gave %d rows, the probe %d", s.name, n, nSent)
				}
			} else {
				line += "; (no probe)"
			}
			if asProbe := list.ReplaceAllString(q.sql, `EXISTS (SELECT 1 FROM $2 WHERE v IN (?) AND rid = $1.rowid)`); asProbe != q.sql {
				d, n := timeSQL(asProbe, q.args)
				line += fmt.Sprintf("; %6.1f ms", d)
				if n != nSent {
					t.Errorf("%s: the words' probes gave %d rows, their lists %d", s.name, n, nSent)
				}
			}
			if strings.Contains(q.sql, "CROSS JOIN") {
				line += " (from the range's short list)"
			}
			t.Logf("%s", line)
		}
	}
}

package main

// List pages (first, keyset cursor at the middle and near the end) and the app's compare-and-set
// update of a blog at N blogs, stock query path vs exact pushdown, on the same SQLite files:
//
//	PRESSROOM_BENCH_BLOGS=10000 go test -run TestListPageFigures -v .
//
// Skipped unless PRESSROOM_BENCH_BLOGS is set. Prints medians; asserts nothing about time.

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

func TestListPageFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_BLOGS"))
	if n <= 0 {
		t.Skip("set PRESSROOM_BENCH_BLOGS")
	}
	ctx := context.Background()
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

	// Seed through the patched server, with the app's blog indexes.
	func() {
		sub, stop := context.WithCancel(ctx)
		defer stop()
		client := startFerretUntil(sub, t, dir, true)
		blogs := client.Database("app").Collection("blogs")
		createAppBlogIndexes(ctx, t, blogs)
		body := strings.Repeat("Lorem ipsum dolor sit amet. ", 73) // ~2 KB
		var batch []any
		for i := range n {
			at := start.Add(time.Duration(i) * time.Minute)
			status := "released"
			var releasedAt any = at
			if i%10 == 9 {
				status, releasedAt = "draft", nil
			}
			batch = append(batch, bson.D{
				{Key: "_id", Value: fmt.Sprintf("b_%06d", i)}, {Key: "workspaceId", Value: fmt.Sprintf("ws_%d", i%2)},
				{Key: "status", Value: status}, {Key: "slug", Value: fmt.Sprintf("post-%d", i)},
				{Key: "title", Value: "A title"}, {Key: "bodyMarkdown", Value: body}, {Key: "tags", Value: bson.A{"a", "b"}},
				{Key: "createdAt", Value: at}, {Key: "updatedAt", Value: at}, {Key: "releasedAt", Value: releasedAt},
			})
			if len(batch) == 500 || i == n-1 {
				if _, err := blogs.InsertMany(ctx, batch); err != nil {
					t.Fatal(err)
				}
				batch = nil
			}
		}
		ensureIDIndexes(ctx, dir, slog.New(discard{}))
	}()

	released := bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "status", Value: "released"}}
	sortReleased := bson.D{{Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}}
	cursorAt := func(i int) bson.D { return keysetAfter(released, start, i) }
	find := func(filter bson.D, opts *options.FindOptions) func(*mongo.Collection) (int, error) {
		return benchFind(ctx, filter, opts)
	}
	// The app's compare-and-set write of a blog (blogs-store.ts, writeVersion).
	cas := func(c *mongo.Collection) (int, error) {
		i := n / 2 &^ 1
		filter := bson.D{{Key: "_id", Value: fmt.Sprintf("b_%06d", i)}, {Key: "workspaceId", Value: "ws_0"},
			{Key: "status", Value: "released"}, {Key: "revision", Value: bson.M{"$exists": false}}, {Key: "updatedAt", Value: start.Add(time.Duration(i) * time.Minute)}}
		res, err := c.UpdateOne(ctx, filter, bson.D{{Key: "$set", Value: bson.D{{Key: "title", Value: "A title"}}}})
		if err != nil {
			return 0, err
		}
		return int(res.MatchedCount), nil
	}
	shapes := []benchShape{
		{"list page 1 (limit 21)", find(released, options.Find().SetSort(sortReleased).SetLimit(21))},
		{"list cursor page at the middle (limit 21)", find(cursorAt(n/2), options.Find().SetSort(sortReleased).SetLimit(21))},
		{"list cursor page near the end (limit 21)", find(cursorAt(60), options.Find().SetSort(sortReleased).SetLimit(21))},
		{"list limit 101", find(released, options.Find().SetSort(sortReleased).SetLimit(101))},
		{"findOne {workspaceId, slug}", find(bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "slug", Value: "post-42"}}, options.Find().SetLimit(1))},
		{"updateOne {_id, workspaceId, status, …} (CAS)", cas},
	}
	results := timeShapes(ctx, t, dir, shapes, map[bool]int{false: 5, true: 5}, 46)
	t.Logf("%d blogs, 2 workspaces (9 in 10 released), ~2 KB bodies; 5 runs each", n)
	for _, exact := range []bool{false, true} {
		t.Logf("-exact-pushdown=%v:", exact)
		for _, line := range results[exact] {
			t.Logf("  %s", line)
		}
	}
}

// keysetAfter is filter with the list's keyset cursor after the bench seeds' blog i (released
// i minutes after start, _id b_%06d): the app's $or on releasedAt and _id.
func keysetAfter(filter bson.D, start time.Time, i int) bson.D {
	at := start.Add(time.Duration(i) * time.Minute)
	return append(append(bson.D{}, filter...), bson.E{Key: "$or", Value: bson.A{
		bson.M{"releasedAt": bson.M{"$lt": at}},
		bson.D{{Key: "releasedAt", Value: at}, {Key: "_id", Value: bson.M{"$lt": fmt.Sprintf("b_%06d", i)}}},
	}})
}

// benchFind is a timed shape's find: every document read, their number returned.
func benchFind(ctx context.Context, filter bson.D, opts *options.FindOptions) func(*mongo.Collection) (int, error) {
	return func(c *mongo.Collection) (int, error) {
		cur, err := c.Find(ctx, filter, opts)
		if err != nil {
			return 0, err
		}
		var docs []bson.Raw
		err = cur.All(ctx, &docs)
		return len(docs), err
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchShape is one query of a figures test: it returns how many documents it read.
type benchShape struct {
	name string
	run  func(*mongo.Collection) (int, error)
}

// timeShapes runs each shape runs[exact] times against the blogs of dir's "app" database, on
// stock FerretDB (exact false) and with the exact pushdown, and returns one line per shape:
// the documents it read and the median, min and max time (names padded to width).
func timeShapes(ctx context.Context, t *testing.T, dir string, shapes []benchShape, runs map[bool]int, width int) map[bool][]string {
	t.Helper()
	results := map[bool][]string{}
	for _, exact := range []bool{false, true} {
		if runs[exact] == 0 {
			continue
		}
		sub, stop := context.WithCancel(ctx)
		blogs := startFerretUntil(sub, t, dir, exact).Database("app").Collection("blogs")
		for _, s := range shapes {
			var times []time.Duration
			var count int
			for range runs[exact] {
				t0 := time.Now()
				got, err := s.run(blogs)
				if err != nil {
					t.Fatal(err)
				}
				times = append(times, time.Since(t0))
				count = got
			}
			slices.Sort(times)
			results[exact] = append(results[exact], fmt.Sprintf("%-*s %3d docs  median %8.1f ms  (min %.1f, max %.1f)",
				width, s.name, count, ms(times[len(times)/2]), ms(times[0]), ms(times[len(times)-1])))
		}
		stop()
	}
	return results
}

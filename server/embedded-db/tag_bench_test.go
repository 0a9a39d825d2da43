package main

// Tag pages (the consumer tag filter: released blogs of a workspace with `tags: {$in}`, newest
// first, pages of 100) and the cost of a blog write with and without the tags element table:
//
//	PRESSROOM_BENCH_BLOGS=10000 go test -run TestTagPageFigures -v .
//
// Skipped unless PRESSROOM_BENCH_BLOGS is set. Prints medians; asserts nothing about time.

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// benchBlog is the i-th blog of the tag figures: 2 workspaces, 9 in 10 released, ~2 KB body;
// "common" on a tenth and "rare" on a thousandth of each workspace's blogs, and two of ten others.
func benchBlog(i int, start time.Time, body string) bson.D {
	at := start.Add(time.Duration(i) * time.Minute)
	status := "released"
	var releasedAt any = at
	if i%10 == 9 {
		status, releasedAt = "draft", nil
	}
	tags := bson.A{fmt.Sprintf("topic-%d", (i/2)%7), fmt.Sprintf("kind-%d", (i/2)%3)}
	if (i/2)%10 == 0 {
		tags = append(tags, "common")
	}
	if (i/2)%1000 == 7 {
		tags = append(tags, "rare")
	}
	return bson.D{
		{Key: "_id", Value: fmt.Sprintf("b_%06d", i)}, {Key: "workspaceId", Value: fmt.Sprintf("ws_%d", i%2)},
		{Key: "status", Value: status}, {Key: "slug", Value: fmt.Sprintf("post-%d", i)},
		{Key: "title", Value: "A title"}, {Key: "bodyMarkdown", Value: body}, {Key: "tags", Value: tags},
		{Key: "createdAt", Value: at}, {Key: "updatedAt", Value: at}, {Key: "releasedAt", Value: releasedAt},
	}
}

func TestTagPageFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_BLOGS"))
	if n <= 0 {
		t.Skip("set PRESSROOM_BENCH_BLOGS")
	}
	ctx := context.Background()
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	body := strings.Repeat("Lorem ipsum dolor sit amet. ", 73) // ~2 KB

	func() {
		sub, stop := context.WithCancel(ctx)
		defer stop()
		blogs := startFerretUntil(sub, t, dir, true).Database("app").Collection("blogs")
		createAppBlogIndexes(ctx, t, blogs)
		var batch []any
		for i := range n {
			batch = append(batch, benchBlog(i, start, body))
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
	t.Logf("the keeper made the indexes and the tags element table (back-filled from %d blogs) in %.0f ms", n, ms(time.Since(t0)))

	page := options.Find().SetSort(bson.D{{Key: "releasedAt", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(101)
	tagged := func(tags ...any) bson.D {
		return bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "status", Value: "released"}, {Key: "tags", Value: bson.M{"$in": bson.A(tags)}}}
	}
	cursorAt := func(filter bson.D, i int) bson.D { return keysetAfter(filter, start, i) }
	find := func(filter bson.D) func(*mongo.Collection) (int, error) { return benchFind(ctx, filter, page) }
	shapes := []benchShape{
		{"tag on 10%, page 1 (limit 101)", find(tagged("common"))},
		{"tag on 10%, keyset page at the middle", find(cursorAt(tagged("common"), n/2))},
		{"tag on 0.1%, page 1 (limit 101)", find(tagged("rare"))},
		{"tag on 0.1%, keyset page at the middle", find(cursorAt(tagged("rare"), n/2))},
		{"2 tags (10% + 0.1%), page 1", find(tagged("common", "rare"))},
		{"tag on 1/7, page 1", find(tagged("topic-3"))},
	}
	results := timeShapes(ctx, t, dir, shapes, map[bool]int{false: 3, true: 7}, 40)
	// The exact pushdown again, never starting from a tag's list (pressroom_exact_driver.go), then
	// as by default (under 64 blogs), in the same run.
	ferretdb.SetDriverCap(0)
	never := timeShapes(ctx, t, dir, shapes, map[bool]int{false: 0, true: 7}, 40)[true]
	ferretdb.SetDriverCap(64)
	again := timeShapes(ctx, t, dir, shapes, map[bool]int{false: 0, true: 7}, 40)[true]
	t.Logf("%d blogs, 2 workspaces (9 in 10 released), ~2 KB bodies; medians of 3 (stock) or 7 runs", n)
	for _, exact := range []bool{false, true} {
		t.Logf("-exact-pushdown=%v:", exact)
		for _, line := range results[exact] {
			t.Logf("  %s", line)
		}
	}
	for _, m := range []struct {
		name  string
		lines []string
	}{{"-exact-pushdown=true, never from a tag's list (driver cap 0):", never}, {"-exact-pushdown=true again, from a list under 64 (the default):", again}} {
		t.Logf("%s", m.name)
		for _, line := range m.lines {
			t.Logf("  %s", line)
		}
	}

	// Writes, exact pushdown on: with the tags element table, then without it (dropped, and taken
	// out of the blogs' insert and update triggers; the keeper is not run again).
	sub, stop := context.WithCancel(ctx)
	defer stop()
	blogs := startFerretUntil(sub, t, dir, true).Database("app").Collection("blogs")
	next := n
	for _, withElements := range []bool{true, false} {
		if !withElements {
			db, err := openDataFile(filepath.Join(dir, "app.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			table := tablesOf(t, filepath.Join(dir, "app.sqlite"))["blogs"]
			tables, triggers, err := readElementSchema(ctx, db, nil)
			if err != nil {
				t.Fatal(err)
			}
			var others []string // the blogs' other element tables, kept
			for e := range tables {
				if f, ok := strings.CutPrefix(e, table+elementInfix); ok && f != "tags" {
					others = append(others, f)
				}
			}
			if _, err = ensureCollectionElements(ctx, db, table, others, tables, triggers, map[string]bool{}); err != nil {
				t.Fatal(err)
			}
			_ = db.Close()
		}
		timed := func(name string, op func(i int) error) string {
			var times []time.Duration
			for range 200 {
				t0 := time.Now()
				if err := op(next); err != nil {
					t.Fatal(err)
				}
				times = append(times, time.Since(t0))
				next++
			}
			slices.Sort(times)
			return fmt.Sprintf("%-36s median %.2f ms (p90 %.2f)", name, ms(times[len(times)/2]), ms(times[len(times)*9/10]))
		}
		lines := []string{
			timed("insertOne (3 tags)", func(i int) error {
				_, err := blogs.InsertOne(ctx, benchBlog(i, start, body))
				return err
			}),
			timed("updateOne {_id} $set title", func(i int) error {
				_, err := blogs.UpdateOne(ctx, bson.M{"_id": fmt.Sprintf("b_%06d", i-200)}, bson.M{"$set": bson.M{"title": "B"}})
				return err
			}),
			timed("updateOne {_id} $set tags (3 new)", func(i int) error {
				_, err := blogs.UpdateOne(ctx, bson.M{"_id": fmt.Sprintf("b_%06d", i-400)},
					bson.M{"$set": bson.M{"tags": bson.A{"x", "y", fmt.Sprint(i)}}})
				return err
			}),
		}
		t.Logf("writes %s the tags element table (200 each):", map[bool]string{true: "with", false: "without"}[withElements])
		for _, l := range lines {
			t.Logf("  %s", l)
		}
		if !withElements {
			var n int
			db, _ := sql.Open("sqlite", "file:"+filepath.Join(dir, "app.sqlite")+"?mode=ro")
			_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE instr(name, ?) > 0`, elementInfix).Scan(&n)
			_ = db.Close()
			if n != 0 {
				t.Fatalf("the element table is still there (%d objects)", n)
			}
		}
	}
}

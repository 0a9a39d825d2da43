package main

// The tag counts of a workspace (server/src/blogs/tag-counts.ts) with and without the column that
// makes the twin of released_by_tag a covering index for them (exact_index.go,
// ferretdb.ExactNotStringsExpr), on blogs the size of an imported site's (~25 KB: a 10 KB body,
// its 10 KB HTML, 300 search terms):
//
//	PRESSROOM_BENCH_TAG_COUNT_BLOGS=20000 go test -run TestTagCountFigures -v .
//
// Skipped unless PRESSROOM_BENCH_TAG_COUNT_BLOGS is set. Prints medians of 15; asserts only that
// both give the same answer.

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
)

func TestTagCountFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_TAG_COUNT_BLOGS"))
	if n <= 0 {
		t.Skip("set PRESSROOM_BENCH_TAG_COUNT_BLOGS to run")
	}
	ctx := context.Background()
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, discard{})
	coll := client.Database("app").Collection("blogs")
	body := strings.Repeat("A paragraph of a blog body, long enough. ", 250)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	createAppBlogIndexes(ctx, t, coll)
	for from := 0; from < n; from += 1000 {
		docs := make([]any, 0, 1000)
		for i := from; i < min(from+1000, n); i++ {
			terms := bson.A{}
			for k := range 300 {
				terms = append(terms, fmt.Sprintf("term%d", (i+k)%5000))
			}
			docs = append(docs, append(keeperBlog(i, start, body),
				bson.E{Key: "bodyHtml", Value: body}, bson.E{Key: "manyTerms", Value: terms}))
		}
		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // the element tables, then the indexes that carry their column
		ensureIDIndexes(ctx, dir, slog.New(discard{}))
	}

	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "status", Value: "released"}}}},
		{{Key: "$project", Value: bson.D{{Key: "tags", Value: 1}}}},
		{{Key: "$unwind", Value: "$tags"}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tags"}, {Key: "count", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
	}
	measure := func() (time.Duration, []bson.D) {
		var times []time.Duration
		var answer []bson.D
		for range 15 {
			began := time.Now()
			cur, err := coll.Aggregate(ctx, pipeline)
			if err != nil {
				t.Fatal(err)
			}
			answer = nil
			if err = cur.All(ctx, &answer); err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Since(began))
		}
		slices.Sort(times)
		return times[len(times)/2], answer
	}
	with, want := measure()
	released, err := coll.CountDocuments(ctx, pipeline[0][0].Value)
	if err != nil {
		t.Fatal(err)
	}

	// The same index without the column: DROP and CREATE in one turn.
	file := filepath.Join(dir, "app.sqlite")
	db, err := openDataFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := tablesOf(t, file)["blogs"] + exactIndexInfix + "released_by_tag"
	var def string
	if err = db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = ?`, name).Scan(&def); err != nil {
		t.Fatal(err)
	}
	column := ", " + ferretdb.ExactNotStringsExpr("tags") + ")"
	if !strings.HasSuffix(def, column) {
		t.Fatalf("the keeper built %s without the column: %s", name, def)
	}
	without := strings.TrimSuffix(def, column) + ")"
	if err = db.txInTurn(ctx, []string{fmt.Sprintf(`DROP INDEX %q`, name), without}); err != nil {
		t.Fatal(err)
	}
	plain, got := measure()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the answers differ:\n%v\n%v", want, got)
	}
	t.Logf("%d blogs, %d released in the workspace counted: tag counts p50 %.1f ms from the covering index, %.1f ms without its column (%.0f×); %d tags",
		n, released, ms(with), ms(plain), float64(plain)/float64(with), len(want))
}

package main

// The SQLite connections keep their prepared statements (the FerretDB patch's
// internal/backends/sqlite/metadata/pool/pressroom_stmt_cache.go; README.md, "The FerretDB
// patch"): a statement text run again on a connection is not prepared again, and a kept
// statement still does what the schema says when the keeper adds indexes, element tables and
// their triggers, or the collection is dropped and made again.

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

func TestPreparedStatementsAreKeptPerConnection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	coll := startFerretUntil(ctx, t, dir, true).Database("db1").Collection("posts")
	for i := range 20 {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: fmt.Sprintf("p%02d", i)}, {Key: "ws", Value: "w"}}); err != nil {
			t.Fatal(err)
		}
	}
	// runs does n lookups by _id and n updates by _id, and returns what the caches did meanwhile.
	runs := func(n int) (prepared, reused int64) {
		p0, r0 := ferretdb.StatementCacheStats()
		for i := range n {
			id := fmt.Sprintf("p%02d", i%20)
			if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Err(); err != nil {
				t.Fatal(err)
			}
			if _, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: i}}}}); err != nil {
				t.Fatal(err)
			}
		}
		p1, r1 := ferretdb.StatementCacheStats()
		return p1 - p0, r1 - r0
	}
	runs(10) // the driver's pool and the statements warm up
	prepared, reused := runs(100)
	// Each lookup and update runs a few statements (the pushdown's checks, the read, the write);
	// at most a handful of the texts are new to a connection.
	if prepared > 20 || reused < 200 {
		t.Fatalf("100 lookups and 100 updates: %d statements prepared, %d reused; want ≤ 20 and ≥ 200", prepared, reused)
	}
	t.Logf("100 lookups and 100 updates: %d statements prepared, %d reused", prepared, reused)

	ferretdb.SetStatementCache(false)
	prepared, reused = runs(20)
	ferretdb.SetStatementCache(true)
	if prepared != 0 || reused != 0 {
		t.Fatalf("with the cache off: %d prepared, %d reused; want 0 and 0", prepared, reused)
	}
}

func TestKeptStatementsFollowSchemaChanges(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	coll := startFerretUntil(ctx, t, dir, true).Database("db1").Collection("blogs")
	file := filepath.Join(dir, "db1.sqlite")
	keep := func() { ensureIDIndexes(ctx, dir, slog.New(discard{})) }
	n := 0
	insert := func(tags any) {
		n++
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: fmt.Sprintf("b%03d", n)}, {Key: "ws", Value: "w"}, {Key: "tags", Value: tags}}); err != nil {
			t.Fatal(err)
		}
	}
	tagged := func(tag string) string {
		t.Helper()
		cur, err := coll.Find(ctx, bson.D{{Key: "ws", Value: "w"}, {Key: "tags", Value: tag}}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			t.Fatal(err)
		}
		var docs []bson.M
		if err := cur.All(ctx, &docs); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range docs {
			got = append(got, d["_id"].(string))
		}
		return strings.Join(got, ",")
	}
	mustBe := func(step, tag, want string) {
		t.Helper()
		if got := tagged(tag); got != want {
			t.Fatalf("%s: {tags: %q} found [%s], want [%s]", step, tag, got, want)
		}
		if problem := elementTablesOutOfStep(ctx, t, file); problem != "" {
			t.Fatalf("%s: %s", step, problem)
		}
	}

	// The insert, the find and their checks are prepared and kept before any index exists.
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "tags", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		insert("a")
	}
	mustBe("strings only", "a", "b001,b002,b003")
	insert(bson.A{"a", "b"})
	mustBe("an array before the keeper's pass", "b", "b004")

	// The keeper (another connection) adds the pushdown's indexes, the element table and its
	// triggers; the kept insert must fire the new triggers.
	keep()
	insert(bson.A{"b", "c"})
	insert(bson.A{"c"})
	mustBe("after the keeper's pass", "c", "b005,b006")
	mustBe("after the keeper's pass", "b", "b004,b005")

	// Dropped and made again under the same name: the kept statements name a table that went
	// away and came back.
	if err := coll.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tagged("a"); got != "" {
		t.Fatalf("dropped: {tags: \"a\"} found [%s]", got)
	}
	insert(bson.A{"a", "z"})
	insert("z")
	if got := tagged("z"); got != "b007,b008" {
		t.Fatalf("made again: {tags: \"z\"} found [%s], want [b007,b008]", got)
	}
	// The old element table is the keeper's to rebuild (README.md, "Arrays"); then the kept
	// insert feeds the new one.
	keep()
	insert(bson.A{"z", "y"})
	mustBe("made again, after the keeper's pass", "z", "b007,b008,b009")
	mustBe("made again, after the keeper's pass", "y", "b009")
}

package main

import (
	"context"
	"database/sql"
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

// The keeper looks again at a database file only when something was committed to it since it
// last looked (keeper.go, README.md "The keeper's passes"): reads cost it nothing, and every
// change it reacts to (an array stored in an indexed field, which also rebuilds that field's
// indexes with one more column, a new index, a database dropped and made again) is still seen at
// the next pass.
func TestKeeperLooksOnlyAtFilesChangedSinceItLooked(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, discard{})
	a, b := client.Database("a").Collection("blogs"), client.Database("b").Collection("blogs")
	for _, coll := range []*mongo.Collection{a, b} {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "b_1"}, {Key: "tags", Value: "x"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "tags", Value: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	k := new(keeper)
	logger := slog.New(discard{})
	pass := func() int { return k.pass(ctx, dir, logger) }
	settle := func() { // the keeper's own changes make it look once more
		t.Helper()
		for range 3 {
			if pass() == 0 {
				return
			}
		}
		t.Fatal("three passes after the last change, the keeper still looks at a file")
	}
	schema := func(db, like string) []string {
		t.Helper()
		conn, err := sql.Open("sqlite", "file:"+filepath.Join(dir, db+".sqlite")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		rows, err := conn.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE name LIKE ? ORDER BY name`, like)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var name string
			if err = rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
		return names
	}

	twinOf := func(db string) string {
		t.Helper()
		conn, err := sql.Open("sqlite", "file:"+filepath.Join(dir, db+".sqlite")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var def string
		if err = conn.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name LIKE ?`, "%"+exactIndexInfix+"tags_1").Scan(&def); err != nil {
			t.Fatal(err)
		}
		return def
	}

	if n := pass(); n != 2 {
		t.Fatalf("a new keeper's first pass looked at %d files, want both", n)
	}
	settle()
	if got := schema("a", "%"+exactIndexInfix+"tags_1"); len(got) != 1 {
		t.Fatalf("the first pass made no twin of a's index: %v", got)
	}
	if def := twinOf("a"); strings.Contains(def, ferretdb.ExactNotStringsExpr("tags")) {
		t.Fatalf("the twin of an index on a field holding no array carries its column: %s", def)
	}

	// Reads commit nothing: no pass looks.
	for range 20 {
		if err := a.FindOne(ctx, bson.D{{Key: "tags", Value: "x"}}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := b.CountDocuments(ctx, bson.D{}); err != nil || n != 1 {
		t.Fatalf("count: %d %v", n, err)
	}
	if n := pass(); n != 0 {
		t.Fatalf("after reads only, a pass looked at %d files", n)
	}

	// An array stored in an indexed field of a: the next pass looks at a alone and makes its
	// element table.
	if _, err := a.InsertOne(ctx, bson.D{{Key: "_id", Value: "b_2"}, {Key: "tags", Value: bson.A{"x", "y"}}}); err != nil {
		t.Fatal(err)
	}
	if n := pass(); n != 1 {
		t.Fatalf("after a write to a, a pass looked at %d files, want 1", n)
	}
	if got := schema("a", "%"+elementInfix+"tags"); len(got) != 1 {
		t.Fatalf("no element table after the first array: %v", got)
	}
	if def := twinOf("a"); !strings.HasSuffix(def, ", "+ferretdb.ExactNotStringsExpr("tags")+")") {
		t.Fatalf("the twin of an index on a field holding arrays was not rebuilt with its column: %s", def)
	}
	settle()

	// A new index (recorded in FerretDB's metadata only) gets its twin.
	if _, err := b.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "at", Value: -1}}}); err != nil {
		t.Fatal(err)
	}
	if n := pass(); n != 1 {
		t.Fatalf("after an index of b, a pass looked at %d files, want 1", n)
	}
	if got := schema("b", "%"+exactIndexInfix+"at_-1"); len(got) != 1 {
		t.Fatalf("no twin of b's new index: %v", got)
	}
	settle()

	// b dropped and made again: a new file, looked at, with its _id path index.
	if err := client.Database("b").Drop(ctx); err != nil {
		t.Fatal(err)
	}
	pass()
	if _, err := b.InsertOne(ctx, bson.D{{Key: "_id", Value: "b_9"}}, options.InsertOne()); err != nil {
		t.Fatal(err)
	}
	if n := pass(); n != 1 {
		t.Fatalf("after b was made again, a pass looked at %d files, want 1", n)
	}
	if got := schema("b", "%"+idPathIndexSuffix); len(got) != 1 || !strings.HasSuffix(got[0], idPathIndexSuffix) {
		t.Fatalf("b made again has no _id path index: %v", got)
	}
	settle()

	// One pass in fullLookEvery looks at every file, changed or not.
	for k.passes%fullLookEvery != 0 {
		if n := pass(); n != 0 {
			t.Fatalf("pass %d looked at %d unchanged files", k.passes, n)
		}
	}
	if n := pass(); n != 2 {
		t.Fatalf("the full pass looked at %d files, want 2", n)
	}
}

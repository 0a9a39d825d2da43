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
	dir, client, a, b := twoKeptDatabases(ctx, t)
	k := &keeper{quietEvery: 1} // every change seen at the next pass (see the test below for more)
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

// A file the keeper found in step is looked at again at most once in quietEvery passes, however
// often commits come (keeper.go, README.md "The keeper's passes"): a server's steady small
// writes (usage counts, sessions) cost one look in quietEvery passes, not one a pass. What a look
// would make still comes within quietEvery passes, and a database dropped and made again is
// looked at in the next pass.
func TestKeeperLooksAtABusyFileInStepOnceInQuietEveryPasses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir, client, a, b := twoKeptDatabases(ctx, t)
	k := new(keeper)
	logger := slog.New(discard{})
	pass := func() int { return k.pass(ctx, dir, logger) }
	write := func(colls ...*mongo.Collection) {
		t.Helper()
		for _, coll := range colls {
			if _, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: "b_1"}},
				bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 4 { // the first pass builds; then the keeper's own changes make it look again
		pass()
	}

	// A commit to both files before every pass: both are looked at in the same passes, at least
	// twice in 3 × quietEvery passes and never twice within quietEvery.
	var looks []int
	for range 3 * quietEvery {
		write(a, b)
		switch n := pass(); n {
		case 0:
		case 2:
			looks = append(looks, k.passes-1)
		default:
			t.Fatalf("pass %d looked at %d files, want both or none", k.passes-1, n)
		}
	}
	if len(looks) < 2 {
		t.Fatalf("files changed before every pass were looked at in passes %v of %d: want one in %d", looks, 3*quietEvery, quietEvery)
	}
	for i := 1; i < len(looks); i++ {
		if looks[i]-looks[i-1] < quietEvery {
			t.Fatalf("files found in step were looked at again within %d passes: passes %v", quietEvery, looks)
		}
	}

	// Right after a look found both in step, b is dropped and made again: the next pass looks at
	// b, a new file, and gives it its _id path index, while a waits.
	for {
		write(a, b)
		if pass() == 2 {
			break
		}
	}
	if err := client.Database("b").Drop(ctx); err != nil {
		t.Fatal(err)
	}
	write(a)
	if n := pass(); n != 0 {
		t.Fatalf("with b gone and a in its quiet passes, a pass looked at %d files", n)
	}
	if _, err := b.InsertOne(ctx, bson.D{{Key: "_id", Value: "b_9"}}); err != nil {
		t.Fatal(err)
	}
	write(a)
	if n := pass(); n != 1 {
		t.Fatalf("after b was made again, a pass looked at %d files, want b alone", n)
	}
	conn, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "b.sqlite")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var indexes int
	if err = conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name LIKE ?`, "%"+idPathIndexSuffix).Scan(&indexes); err != nil || indexes != 1 {
		t.Fatalf("b made again has %d _id path indexes (%v), want 1", indexes, err)
	}

	// An array stored in a's indexed field while commits keep coming: its element table is made
	// within quietEvery passes.
	if _, err := a.InsertOne(ctx, bson.D{{Key: "_id", Value: "b_2"}, {Key: "tags", Value: bson.A{"x", "y"}}}); err != nil {
		t.Fatal(err)
	}
	made := false
	for range quietEvery {
		pass()
		var tables int
		aConn, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "a.sqlite")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		err = aConn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, "%"+elementInfix+"tags").Scan(&tables)
		_ = aConn.Close()
		if err != nil {
			t.Fatal(err)
		}
		if made = tables == 1; made {
			break
		}
		write(a)
	}
	if !made {
		t.Fatalf("no element table %d passes after the first array", quietEvery)
	}
	if k.passes >= fullLookEvery {
		t.Fatalf("the test ran into the full pass (%d passes): its looks prove nothing", k.passes)
	}
}

// twoKeptDatabases starts FerretDB on a new directory with databases a and b, each with a
// collection blogs holding one blog whose tags are a string, and an index on tags.
func twoKeptDatabases(ctx context.Context, t *testing.T) (string, *mongo.Client, *mongo.Collection, *mongo.Collection) {
	t.Helper()
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

	return dir, client, a, b
}

package main

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
)

// FerretDB 1.24.2's SQLite query for an `{_id: …}` filter (internal/backends/sqlite, Query):
// the expression our index must match exactly for SQLite to use it.
const ferretIDQuery = `SELECT _ferretdb_sjson FROM %q WHERE _ferretdb_sjson->'$._id' = ?`

func TestIDLookupsUseAnIndexOnceTheKeeperHasRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	keeperLog := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client := startFerretDB(ctx, t, dir) // backup_test.go
	coll := client.Database("db1").Collection("blogs")
	docs := []any{bson.M{"_id": "b_1", "title": "one"}, bson.M{"_id": "b_2", "title": "two"}}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(dir, "db1.sqlite")
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := tableOf(ctx, t, db, "blogs")
	plan := func() string {
		return explain(ctx, t, file, strings.Replace(ferretIDQuery, "%q", `"`+table+`"`, 1), `"b_1"`)
	}

	if p := plan(); !strings.HasPrefix(p, "SCAN") {
		t.Fatalf("without our index FerretDB's _id query should scan (the bug this works around); plan: %s", p)
	}
	ensureIDIndexes(ctx, dir, keeperLog)
	want := "USING INDEX " + table + idPathIndexSuffix
	if p := plan(); !strings.Contains(p, want) {
		t.Fatalf("plan %q does not contain %q", p, want)
	}

	// Idempotent, and FerretDB still reads, writes and lists indexes as before.
	ensureIDIndexes(ctx, dir, keeperLog)
	var got bson.M
	if err = coll.FindOne(ctx, bson.M{"_id": "b_2"}).Decode(&got); err != nil || got["title"] != "two" {
		t.Fatalf("findOne: %v %v", got, err)
	}
	if _, err = coll.UpdateOne(ctx, bson.M{"_id": "b_1"}, bson.M{"$set": bson.M{"title": "uno"}}); err != nil {
		t.Fatal(err)
	}
	specs, err := coll.Indexes().ListSpecifications(ctx)
	if err != nil || len(specs) != 1 || specs[0].Name != "_id_" {
		t.Fatalf("listIndexes should show FerretDB's own _id_ index only: %v %v", specs, err)
	}
	if err = client.Database("db1").Drop(ctx); err != nil {
		t.Fatalf("dropping a database with our index: %v", err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// The keeper gives an existing database (made without our indexes) the exact pushdown's indexes,
// skips indexes on dotted paths, and drops ours when FerretDB's index is dropped.
func TestExactIndexesFollowFerretDBIndexes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, discard{})
	coll := client.Database("db1").Collection("blogs")
	if _, err := coll.InsertOne(ctx, bson.M{"_id": "b1", "ws": "w", "meta": bson.M{"a": 1}}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "at", Value: -1}}, Options: options.Index().SetName("by_ws")},
		{Keys: bson.D{{Key: "meta.a", Value: 1}}, Options: options.Index().SetName("nested")},
	} {
		if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "db1.sqlite")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ours := func() []string {
		names := queryNames(ctx, t, db, `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%pressroom%' ORDER BY name`)
		for i, name := range names {
			names[i] = name[strings.Index(name, "_pressroom"):]
		}
		return names
	}
	if got := ours(); len(got) != 0 {
		t.Fatalf("before the keeper ran: %v", got)
	}
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	want := []string{"_pressroom_id_path", "_pressroom_t__id", "_pressroom_t_at", "_pressroom_t_ws", "_pressroom_x__id_", "_pressroom_x_by_ws"}
	if got := ours(); !slices.Equal(got, want) {
		t.Fatalf("after the keeper ran: %v, want %v", got, want)
	}
	if _, err := coll.Indexes().DropOne(ctx, "by_ws"); err != nil {
		t.Fatal(err)
	}
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	want = slices.DeleteFunc(want, func(s string) bool { return s == "_pressroom_x_by_ws" })
	if got := ours(); !slices.Equal(got, want) {
		t.Fatalf("after dropping by_ws: %v, want %v", got, want)
	}
}

// FerretDB builds no SQLite index for a non-unique index (nothing reads one; README.md, "The
// FerretDB patch"): listIndexes still shows it and it can be dropped, a unique index is built
// and refuses duplicates, and the keeper drops the SQLite index of a non-unique one that a
// database made before this has.
func TestNonUniqueIndexesAreRecordedNotBuilt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, discard{})
	coll := client.Database("db1").Collection("blogs")
	if _, err := coll.InsertOne(ctx, bson.M{"_id": "b1", "ws": "w", "slug": "s"}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "at", Value: -1}}, Options: options.Index().SetName("by_ws")},
		{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "slug", Value: 1}}, Options: options.Index().SetName("ws_slug").SetUnique(true)},
	} {
		if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "db1.sqlite")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := tableOf(ctx, t, db, "blogs")
	built := func() []string {
		names := queryNames(ctx, t, db, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND instr(name, 'pressroom') = 0 ORDER BY name`, table)
		for i, name := range names {
			names[i] = strings.TrimPrefix(name, table+"_")
		}
		return names
	}
	listed := func() []string {
		cur, err := coll.Indexes().List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var specs []bson.M
		if err = cur.All(ctx, &specs); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range specs {
			name := s["name"].(string)
			if s["unique"] == true {
				name += " (unique)"
			}
			names = append(names, name)
		}
		slices.Sort(names)
		return names
	}

	if got, want := built(), []string{"_id_", "ws_slug"}; !slices.Equal(got, want) {
		t.Fatalf("SQLite indexes %v, want %v", got, want)
	}
	if got, want := listed(), []string{"_id_", "by_ws", "ws_slug (unique)"}; !slices.Equal(got, want) {
		t.Fatalf("listIndexes %v, want %v", got, want)
	}
	if _, err = coll.InsertOne(ctx, bson.M{"_id": "b2", "ws": "w", "slug": "s"}); !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("a duplicate of the unique index: %v, want a duplicate key error", err)
	}
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	var n int
	if err = coll.FindOne(ctx, bson.M{"ws": "w"}).Err(); err != nil {
		t.Fatal(err)
	}
	if err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = ?`, table+exactIndexInfix+"by_ws").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the exact pushdown's index of by_ws: %d (%v), want 1", n, err)
	}
	if _, err = coll.Indexes().DropOne(ctx, "by_ws"); err != nil {
		t.Fatalf("dropping an index recorded, not built: %v", err)
	}
	if got, want := listed(), []string{"_id_", "ws_slug (unique)"}; !slices.Equal(got, want) {
		t.Fatalf("listIndexes after the drop %v, want %v", got, want)
	}

	// A database made before: FerretDB built the SQLite index of every index.
	if _, err = coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "slug", Value: 1}}, Options: options.Index().SetName("by_slug")}); err != nil {
		t.Fatal(err)
	}
	if _, err = db.ExecContext(ctx, fmt.Sprintf(`CREATE INDEX %q ON %q (_ferretdb_sjson->"slug")`, table+"_by_slug", table)); err != nil {
		t.Fatal(err)
	}
	if got, want := built(), []string{"_id_", "by_slug", "ws_slug"}; !slices.Equal(got, want) {
		t.Fatalf("SQLite indexes of the old database %v, want %v", got, want)
	}
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	if got, want := built(), []string{"_id_", "ws_slug"}; !slices.Equal(got, want) {
		t.Fatalf("SQLite indexes after the keeper %v, want %v", got, want)
	}
	if got, want := listed(), []string{"_id_", "by_slug", "ws_slug (unique)"}; !slices.Equal(got, want) {
		t.Fatalf("listIndexes after the keeper %v, want %v", got, want)
	}
	if _, err = coll.Indexes().DropAll(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := listed(), []string{"_id_"}; !slices.Equal(got, want) {
		t.Fatalf("listIndexes after dropping all %v, want %v", got, want)
	}
}

// queryNames returns the one column of the rows a query gives, in their order.
func queryNames(ctx context.Context, t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// tableOf returns the SQLite table of a FerretDB collection of the database db.
func tableOf(ctx context.Context, t *testing.T, db *sql.DB, collection string) string {
	t.Helper()
	var table string
	if err := db.QueryRowContext(ctx, `SELECT table_name FROM _ferretdb_collections WHERE name = ?`, collection).Scan(&table); err != nil {
		t.Fatal(err)
	}
	return table
}

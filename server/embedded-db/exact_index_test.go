package main

import (
	"context"
	"database/sql"
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
	ours := func() []string {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "db1.sqlite")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%pressroom%' ORDER BY name`)
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
			names = append(names, name[strings.Index(name, "_pressroom"):])
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

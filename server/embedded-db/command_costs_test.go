package main

// What every command pays, paid once (README.md, "The FerretDB patch"): a find looks its
// collection's metadata up by name without copying the others' (internal/backends/sqlite/
// database.go, ListCollections), and a command's parameters are read with its struct's
// `ferretdb` tags parsed once per type (internal/handler/handlerparams/extract_params.go). The
// answers must be those of before: whether a collection is capped decides what a find may do,
// and the tags decide which fields a command takes, which it requires and which it refuses.

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// wantCommandError fails the test unless err is the command error code with exactly message.
func wantCommandError(t *testing.T, err error, code int32, message string) {
	t.Helper()
	var ce mongo.CommandError
	if !errors.As(err, &ce) || ce.Code != code || ce.Message != message {
		t.Fatalf("want error %d %q, got %v", code, message, err)
	}
}

func TestAFindSeesItsCollectionAmongManyAsBefore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := startFerretUntil(ctx, t, t.TempDir(), true)
	db := client.Database("db1")
	// Many collections, the capped one among them (the lookup by name, not the first or last).
	for i := range 12 {
		name := fmt.Sprintf("c%02d", i)
		if i == 6 {
			opts := options.CreateCollection().SetCapped(true).SetSizeInBytes(1 << 20)
			if err := db.CreateCollection(ctx, "c06", opts); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Collection(name).InsertOne(ctx, bson.D{{Key: "_id", Value: name}, {Key: "n", Value: i}}); err != nil {
			t.Fatal(err)
		}
	}

	run := func(dbName string, cmd bson.D) (bson.M, error) {
		var out bson.M
		err := client.Database(dbName).RunCommand(ctx, cmd).Decode(&out)
		return out, err
	}
	batchOf := func(out bson.M) bson.A {
		return out["cursor"].(bson.M)["firstBatch"].(bson.A)
	}

	for range 2 { // the second time through whatever the first one kept
		// A capped collection is known as capped: a tailable find and a $natural sort are taken.
		out, err := run("db1", bson.D{{Key: "find", Value: "c06"}, {Key: "tailable", Value: true}})
		if err != nil {
			t.Fatalf("tailable find of the capped collection: %v", err)
		}
		if got := batchOf(out); len(got) != 1 {
			t.Fatalf("tailable find of the capped collection: %v", got)
		}
		if _, err = run("db1", bson.D{{Key: "find", Value: "c06"}, {Key: "sort", Value: bson.D{{Key: "$natural", Value: 1}}}}); err != nil {
			t.Fatalf("$natural sort of the capped collection: %v", err)
		}
		// The others, and a collection or a database that does not exist, are not.
		for _, name := range []string{"c05", "c07", "nope"} {
			_, err = run("db1", bson.D{{Key: "find", Value: name}, {Key: "tailable", Value: true}})
			wantCommandError(t, err, 2, "tailable cursor requested on non capped collection")
			_, err = run("db1", bson.D{{Key: "find", Value: name}, {Key: "sort", Value: bson.D{{Key: "$natural", Value: 1}}}})
			wantCommandError(t, err, 238, "$natural sort for non-capped collection is not supported.")
		}
		for _, c := range []struct{ db, coll string }{{"db1", "nope"}, {"nodb", "c06"}} {
			out, err = run(c.db, bson.D{{Key: "find", Value: c.coll}})
			if err != nil || len(batchOf(out)) != 0 {
				t.Fatalf("find of %s.%s, which does not exist: %v %v", c.db, c.coll, out, err)
			}
		}
		out, err = run("db1", bson.D{{Key: "find", Value: "c07"}, {Key: "filter", Value: bson.D{{Key: "n", Value: 7}}}})
		if err != nil || len(batchOf(out)) != 1 {
			t.Fatalf("find of c07: %v %v", out, err)
		}
		// collStats reads the same metadata.
		for name, capped := range map[string]bool{"c06": true, "c07": false} {
			out, err = run("db1", bson.D{{Key: "collStats", Value: name}})
			if err != nil || out["capped"] != capped {
				t.Fatalf("collStats of %s: capped %v, want %v (%v)", name, out["capped"], capped, err)
			}
		}
	}
}

func TestCommandParametersAreTakenRequiredAndRefusedAsBefore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := startFerretUntil(ctx, t, t.TempDir(), true)
	db := client.Database("db1")
	if _, err := db.Collection("c").InsertMany(ctx, []any{bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "_id", Value: 2}}}); err != nil {
		t.Fatal(err)
	}
	run := func(cmd bson.D) (bson.M, error) {
		var out bson.M
		err := db.RunCommand(ctx, cmd).Decode(&out)
		return out, err
	}
	for range 3 { // the first time parses the tags, the next ones use what it kept
		// Optional fields are taken (and `limit` applied); a field no command has is refused.
		out, err := run(bson.D{{Key: "find", Value: "c"}, {Key: "limit", Value: 1}, {Key: "batchSize", Value: 5}, {Key: "comment", Value: "x"}})
		if err != nil || len(out["cursor"].(bson.M)["firstBatch"].(bson.A)) != 1 {
			t.Fatalf("find with optional fields: %v %v", out, err)
		}
		_, err = run(bson.D{{Key: "find", Value: "c"}, {Key: "bogus", Value: 1}})
		wantCommandError(t, err, 9, `find: unknown field "bogus"`)
		// A required field missing is named.
		_, err = run(bson.D{{Key: "distinct", Value: "c"}})
		wantCommandError(t, err, 40414, "BSON field 'distinct.key' is missing but a required field")
		_, err = run(bson.D{{Key: "update", Value: "c"}})
		wantCommandError(t, err, 40414, "BSON field 'update.updates' is missing but a required field")
		// A field not implemented is refused as such.
		_, err = run(bson.D{{Key: "find", Value: "c"}, {Key: "collation", Value: bson.D{{Key: "locale", Value: "en"}}}})
		var ce mongo.CommandError
		if !errors.As(err, &ce) || ce.Code != 238 {
			t.Fatalf("find with a collation: want NotImplemented (238), got %v", err)
		}
	}
}

package main

// The app's indexes, as server/src/platform/db/indexes.ts (ensureIndexes) creates them on
// this database: read from testdata/app-indexes.json, which test/db/app-indexes.test.ts checks
// against what ensureIndexes asks for (and rewrites on request). One list, so the plan test, the
// durability test and the benchmarks never test indexes the app no longer has. The app asks for
// TTL indexes on sessions, signInFailures, invitations, rateCounters and keyUsage; FerretDB
// refuses TTL indexes, and the app then creates plain indexes of the same names and keys, which
// is what the file lists.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// appIndex is one index of testdata/app-indexes.json.
type appIndex struct {
	Collection string `json:"collection"`
	Name       string `json:"name"`
	Key        []struct {
		Field string `json:"field"`
		Order int    `json:"order"`
	} `json:"key"`
	Unique bool `json:"unique"`
}

// appIndexes reads testdata/app-indexes.json: every index of ensureIndexes, in its order.
func appIndexes(t *testing.T) []appIndex {
	t.Helper()
	text, err := os.ReadFile("testdata/app-indexes.json")
	if err != nil {
		t.Fatal(err)
	}
	var list []appIndex
	if err = json.Unmarshal(text, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func (ix appIndex) model() mongo.IndexModel {
	var keys bson.D
	for _, k := range ix.Key {
		keys = append(keys, bson.E{Key: k.Field, Value: k.Order})
	}
	opts := options.Index().SetName(ix.Name)
	if ix.Unique {
		opts.SetUnique(true)
	}
	return mongo.IndexModel{Keys: keys, Options: opts}
}

// describe is the index as checkAppBlogIndexes compares it: its keys in order and uniqueness.
func (ix appIndex) describe() string {
	var b strings.Builder
	for _, k := range ix.Key {
		fmt.Fprintf(&b, "%s:%d ", k.Field, k.Order)
	}
	return fmt.Sprintf("%sunique=%v", b.String(), ix.Unique)
}

// createAppIndexes creates every index of the app, one per command as the app does.
func createAppIndexes(ctx context.Context, t *testing.T, db *mongo.Database) {
	t.Helper()
	for _, ix := range appIndexes(t) {
		if _, err := db.Collection(ix.Collection).Indexes().CreateOne(ctx, ix.model()); err != nil {
			t.Fatal(err)
		}
	}
}

// createAppBlogIndexes creates the app's indexes of the blogs collection, one per command.
func createAppBlogIndexes(ctx context.Context, t *testing.T, blogs *mongo.Collection) {
	t.Helper()
	for _, ix := range appIndexes(t) {
		if ix.Collection != "blogs" {
			continue
		}
		if _, err := blogs.Indexes().CreateOne(ctx, ix.model()); err != nil {
			t.Fatal(err)
		}
	}
}

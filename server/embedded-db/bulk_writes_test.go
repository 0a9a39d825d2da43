package main

// Proof for the FerretDB patch's big deletes (README.md, "The FerretDB patch"): stock FerretDB
// deletes a deleteMany's matches in one `DELETE … IN (?, …)` with a variable per document, and
// SQLite refuses more than 32,766 variables ("too many SQL variables"), so a sweep or a purge
// matching more failed whole. The patch deletes in statements of at most 10,000 values, in one
// transaction. Each case runs on a server with the exact pushdown and on one without; the one
// with it matches more than the old limit in one call, the one without does the same in pieces
// each under the limit (what stock FerretDB could do), and the collections left must be
// byte-identical.

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// sqliteMaxVariables is SQLite's default SQLITE_MAX_VARIABLE_NUMBER (3.32 and later).
const sqliteMaxVariables = 32_766

// bulkPair is a patched server and a stock one, neither logging (at debug level, the
// differential tests' SQL log, FerretDB formats every statement of a 45,000-document write),
// with the directories the launcher's index keeper (id_index.go) would look after.
type bulkPair struct {
	patched, stock       *mongo.Client
	patchedDir, stockDir string
}

func startBulkPair(ctx context.Context, t *testing.T) bulkPair {
	t.Helper()
	p := bulkPair{patchedDir: t.TempDir(), stockDir: t.TempDir()}
	p.patched = startFerret(ctx, t, p.patchedDir, true, discard{})
	p.stock = startFerret(ctx, t, p.stockDir, false, discard{})
	return p
}

// index does what the launcher's keeper does within a second of a collection's creation: adds
// the `_id` path index (without which every one-document UPDATE or DELETE scans the table) and
// the exact pushdown's indexes, on both servers (the launcher runs it whatever -exact-pushdown).
func (p bulkPair) index(ctx context.Context) {
	quiet := slog.New(discard{})
	ensureIDIndexes(ctx, p.patchedDir, quiet)
	ensureIDIndexes(ctx, p.stockDir, quiet)
}

func bulkDocs(n int) []any {
	docs := make([]any, n)
	for i := range docs {
		docs[i] = bson.D{
			{Key: "_id", Value: fmt.Sprintf("rc_%06d", i)},
			{Key: "expiresAt", Value: time.UnixMilli(1_800_000_000_000 + int64(i)*1_000).UTC()},
			{Key: "n", Value: int32(i)},
			{Key: "keep", Value: i%10 == 0},
		}
	}
	return docs
}

// dump is the whole collection in _id order, raw.
func dump(ctx context.Context, t *testing.T, c *mongo.Collection) []bson.Raw {
	t.Helper()
	docs, err := findRaw(ctx, c, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func TestDeleteManyBeyondSQLitesVariableLimitDeletesEveryMatch(t *testing.T) {
	// In parallel: its own servers, no process-wide switch or counter (README.md, "How it is built").
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	pair := startBulkPair(ctx, t)
	patched, stock := pair.patched, pair.stock

	const n = 50_000 // keep: every tenth; the other 45,000 match
	fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", "sweep", bulkDocs(n),
		mongo.IndexModel{Keys: bson.D{{Key: "expiresAt", Value: 1}}})
	pair.index(ctx)
	p := patched.Database("d").Collection("sweep")
	s := stock.Database("d").Collection("sweep")

	// updateMany of all 45,000 (stock updates one statement per document: no limit to meet).
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "swept", Value: true}}}}
	pu, err := p.UpdateMany(ctx, bson.D{{Key: "keep", Value: false}}, set)
	if err != nil {
		t.Fatalf("updateMany of 45,000: %v", err)
	}
	su, err := s.UpdateMany(ctx, bson.D{{Key: "keep", Value: false}}, set)
	if err != nil {
		t.Fatal(err)
	}
	if pu.MatchedCount != 45_000 || pu.ModifiedCount != 45_000 || *pu != *su {
		t.Fatalf("updateMany: patched %+v, stock %+v", pu, su)
	}

	// The sweeper's shape: deleteMany by expiry, 45,000 matches in one call.
	sweep := bson.D{{Key: "keep", Value: false}, {Key: "expiresAt", Value: bson.D{{Key: "$lte", Value: time.UnixMilli(1_900_000_000_000).UTC()}}}}
	start := time.Now()
	pd, err := p.DeleteMany(ctx, sweep)
	if err != nil {
		t.Fatalf("deleteMany of 45,000 (over SQLite's %d variables): %v", sqliteMaxVariables, err)
	}
	t.Logf("deleteMany of 45,000 by expiry out of 50,000: %v", time.Since(start).Round(time.Millisecond))
	var stockDeleted int64
	for _, half := range []bson.D{
		{{Key: "n", Value: bson.D{{Key: "$lt", Value: int32(n / 2)}}}},
		{{Key: "n", Value: bson.D{{Key: "$gte", Value: int32(n / 2)}}}},
	} {
		r, err := s.DeleteMany(ctx, append(append(bson.D{}, sweep...), half...))
		if err != nil {
			t.Fatal(err)
		}
		stockDeleted += r.DeletedCount
	}
	if pd.DeletedCount != 45_000 || stockDeleted != 45_000 {
		t.Fatalf("deleted: patched %d, stock in pieces %d; want 45,000", pd.DeletedCount, stockDeleted)
	}
	left := dump(ctx, t, p)
	if len(left) != 5_000 || !sameDocs(left, dump(ctx, t, s)) {
		t.Fatalf("after the sweep: patched %d documents, not byte-identical to stock's", len(left))
	}
}

func TestDeleteManyOfAnIDListDeletesEveryListedDocument(t *testing.T) {
	// In parallel: its own servers, no process-wide switch or counter (README.md, "How it is built").
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	pair := startBulkPair(ctx, t)
	patched, stock := pair.patched, pair.stock

	const n = 50_000
	fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", "byid", bulkDocs(n))
	pair.index(ctx)
	p := patched.Database("d").Collection("byid")
	s := stock.Database("d").Collection("byid")

	// 40,000 listed ids (every document but every fifth), plus 1,000 that do not exist.
	var listed bson.A
	for i := range n + 1_000 {
		if i%5 != 0 {
			listed = append(listed, fmt.Sprintf("rc_%06d", i))
		}
	}
	byID := bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: listed}}}}
	start := time.Now()
	pd, err := p.DeleteMany(ctx, byID)
	if err != nil {
		t.Fatalf("deleteMany of 40,000 ids: %v", err)
	}
	took := time.Since(start)
	t.Logf("deleteMany of 40,000 listed ids out of 50,000: %v, %.0f documents/s", took.Round(time.Millisecond), float64(pd.DeletedCount)/took.Seconds())
	// The stock server deletes the same documents (n not a multiple of 5) by a rule instead of
	// the list, in halves under SQLite's limit: stock FerretDB checks an `$in` by comparing each
	// document with each listed value, and pieces of 10,000 ids cost a minute of this suite.
	var stockDeleted int64
	notFifth := bson.D{{Key: "n", Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$mod", Value: bson.A{5, 0}}}}}}}
	for _, half := range []bson.D{
		{{Key: "n", Value: bson.D{{Key: "$lt", Value: int32(n / 2)}}}},
		{{Key: "n", Value: bson.D{{Key: "$gte", Value: int32(n / 2)}}}},
	} {
		r, err := s.DeleteMany(ctx, bson.D{{Key: "$and", Value: bson.A{notFifth, half}}})
		if err != nil {
			t.Fatal(err)
		}
		stockDeleted += r.DeletedCount
	}
	if pd.DeletedCount != 40_000 || stockDeleted != 40_000 {
		t.Fatalf("deleted: patched %d, stock in pieces %d; want 40,000", pd.DeletedCount, stockDeleted)
	}
	left := dump(ctx, t, p)
	if len(left) != 10_000 || !sameDocs(left, dump(ctx, t, s)) {
		t.Fatalf("after the delete: patched %d documents, not byte-identical to stock's", len(left))
	}
}

package main

// A sort without `_id` is not a total order, so the patched backend does not sort in SQL: it
// sends the matching rows in table order (the stock path's input) and FerretDB's handler sorts
// them in Go, by MongoDB's comparison order. The sort's fields are then never compared in SQL,
// so what they hold (numbers, which the pushdown does not compare) must not stop the filter's
// pushdown. GridFS reads a file as `find({files_id: {$eq: id}}).sort({n: 1})` (the GridFS
// spec, https://github.com/mongodb/specifications/blob/master/source/gridfs/gridfs-spec.md,
// "Reading from GridFS Buckets"), `n` a number: without this, every read of a stored image read
// every chunk of the bucket in Go.

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// TestASortWithoutIDIsTheHandlersSoNumbersInItDoNotStopThePushdown runs GridFS's chunk reads, and
// sorts without `_id` on fields of numbers of every kind (int32, int64, doubles, -0; MongoDB
// compares them as numbers, https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/;
// FerretDB refuses ±Inf on write, and NaN drops the connection),
// of mixed types and of equal keys, on the patched and the stock server: the same documents in
// the same order, and the patched one pushes the filter down. A total sort on such a field
// (`{n: 1, _id: 1}`, done in SQL) still falls back, and still answers the same.
func TestASortWithoutIDIsTheHandlersSoNumbersInItDoNotStopThePushdown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log, patchedDir, patched, stock := startPair(ctx, t)

	file := func(i byte) primitive.ObjectID { return primitive.ObjectID{0x65, i} }
	ns := []any{int32(2), int64(1), 0.5, -1.5, math.Copysign(0, -1), int32(0), int64(1) << 40, 2.0, "s", nil, true}
	var docs []any
	for i, n := range ns { // in an order that is not n's, several files' chunks interleaved
		for f := range byte(3) {
			docs = append(docs, bson.D{
				{Key: "_id", Value: primitive.ObjectID{0x66, f, byte(len(ns) - i)}}, {Key: "files_id", Value: file(f)},
				{Key: "n", Value: n}, {Key: "data", Value: primitive.Binary{Data: []byte{byte(i)}}},
			})
		}
	}
	fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", "mediaFiles.chunks", docs,
		mongo.IndexModel{Keys: bson.D{{Key: "files_id", Value: 1}, {Key: "n", Value: 1}}})
	ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
	log.take()

	cases := []struct {
		name   string
		filter bson.D
		opts   *options.FindOptions
		pushed bool
	}{
		{"GridFS's chunk read `{files_id: {$eq}}` by n", bson.D{{Key: "files_id", Value: bson.D{{Key: "$eq", Value: file(1)}}}}, options.Find().SetSort(bson.D{{Key: "n", Value: 1}}), true},
		{"by n descending, limit 4", bson.D{{Key: "files_id", Value: file(2)}}, options.Find().SetSort(bson.D{{Key: "n", Value: -1}}).SetLimit(4), true},
		{"every file by files_id, n (equal keys: the stable input order)", bson.D{{Key: "files_id", Value: bson.D{{Key: "$in", Value: bson.A{file(0), file(2)}}}}}, options.Find().SetSort(bson.D{{Key: "files_id", Value: 1}, {Key: "n", Value: 1}}), true},
		{"a total order `{n: 1, _id: 1}`: sorted in SQL, so it falls back", bson.D{{Key: "files_id", Value: file(1)}}, options.Find().SetSort(bson.D{{Key: "n", Value: 1}, {Key: "_id", Value: 1}}), false},
	}
	for _, c := range cases {
		want, wantErr := findRaw(ctx, stock.Database("d").Collection("mediaFiles.chunks"), c.filter, c.opts)
		got, gotErr := findRaw(ctx, patched.Database("d").Collection("mediaFiles.chunks"), c.filter, c.opts)
		if wantErr != nil || gotErr != nil || !sameDocs(want, got) || len(want) == 0 {
			t.Errorf("%s:\nstock:   %v %v\npatched: %v %v", c.name, want, wantErr, got, gotErr)
		}
		pushed := false
		for _, q := range log.take() {
			pushed = pushed || strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson") && strings.Contains(q.sql, "files_id")
		}
		if pushed != c.pushed {
			t.Errorf("%s: pushed down %v, want %v", c.name, pushed, c.pushed)
		}
	}
}

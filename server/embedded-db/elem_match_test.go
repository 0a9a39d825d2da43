package main

// $elemMatch of string comparisons on a field with an element table (README.md, "The FerretDB
// patch", "$elemMatch of a string range"): both servers against MongoDB's rule, computed here
// from the documents themselves: an array with one string element that satisfies every
// condition together.

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// elemMatchTags are the values of tags in the oracle test's documents: arrays of strings on both
// sides of the ranges and inside them, plain strings (which $elemMatch never matches), arrays
// mixing types, empty arrays, null, other types, non-ASCII and astral strings.
var elemMatchTags = []any{
	bson.A{"pre"}, "pre", bson.A{"a", "z"}, bson.A{"prefix", "zzz"}, bson.A{}, nil, bson.A{"PRE"},
	bson.A{int32(1), "prx"}, bson.A{int32(5)}, bson.A{"pr"}, bson.A{"prf"}, bson.A{"pré"},
	bson.A{"préfixe", "a"}, bson.A{""}, bson.A{bson.D{{Key: "k", Value: "pre"}}}, bson.A{"été"},
	bson.A{"日本"}, bson.A{"😀x"}, primitive.ObjectID{1}, "prez", bson.A{"pre", "prf"},
	bson.A{nil, "prd"}, bson.A{true, "a"}, bson.A{"ps"}, bson.A{"pre", "pre"}, "",
	bson.A{"é", "ê"}, bson.A{"z", "a", "pref"},
}

// elemMatchRanges are string conditions of an $elemMatch: prefixes with the bound the app
// computes (last code point + 1), half-open and closed, one-sided, equal, reversed, empty.
var elemMatchRanges = []bson.D{
	{{Key: "$gte", Value: "pre"}, {Key: "$lt", Value: "prf"}},
	{{Key: "$gt", Value: "pre"}, {Key: "$lte", Value: "prf"}},
	{{Key: "$gte", Value: ""}, {Key: "$lt", Value: "a"}},
	{{Key: "$gte", Value: "a"}, {Key: "$lt", Value: "a"}},
	{{Key: "$gte", Value: "a"}, {Key: "$lte", Value: "a"}},
	{{Key: "$gte", Value: "z"}, {Key: "$lt", Value: "a"}},
	{{Key: "$eq", Value: "pre"}},
	{{Key: "$gte", Value: "pr"}, {Key: "$lt", Value: "ps"}},
	{{Key: "$gte", Value: "pré"}, {Key: "$lt", Value: "prê"}},
	{{Key: "$gte", Value: "é"}, {Key: "$lt", Value: "ê"}},
	{{Key: "$gte", Value: "😀"}, {Key: "$lt", Value: "😁"}},
	{{Key: "$gte", Value: "日"}, {Key: "$lt", Value: "旦"}},
	{{Key: "$gte", Value: "p"}},
	{{Key: "$lte", Value: "b"}},
	{{Key: "$gt", Value: ""}},
	{{Key: "$gte", Value: "pre"}, {Key: "$lt", Value: "prf"}, {Key: "$gt", Value: "pref"}},
	{{Key: "$gte", Value: "pre"}, {Key: "$eq", Value: "prf"}},
}

// elemMatchWants returns the _ids that MongoDB's $elemMatch of the string conditions cond
// selects among docs (sorted).
func elemMatchWants(docs []bson.D, cond bson.D) []string {
	var out []string
	for _, d := range docs {
		arr, ok := d.Map()["tags"].(bson.A)
		if !ok {
			continue
		}
		if slices.ContainsFunc(arr, func(e any) bool {
			s, isStr := e.(string)
			if !isStr {
				return false
			}
			for _, c := range cond {
				x := c.Value.(string)
				ok := map[string]bool{"$eq": s == x, "$gt": s > x, "$gte": s >= x, "$lt": s < x, "$lte": s <= x}[c.Key]
				if !ok {
					return false
				}
			}
			return true
		}) {
			out = append(out, d.Map()["_id"].(string))
		}
	}
	slices.Sort(out)
	return out
}

func TestElemMatchOfStringsIsOneElementMatchingAll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	log, patchedDir, patched, stock := startPair(ctx, t)
	defer ferretdb.SetDriverCap(64)

	var docs []bson.D
	var anyDocs []any
	for i, tags := range elemMatchTags {
		for j, ws := range []string{"w1", "w2"} {
			d := bson.D{{Key: "_id", Value: fmt.Sprintf("e%02d%d", i, j)}, {Key: "ws", Value: ws}, {Key: "status", Value: "released"}, {Key: "at", Value: time.UnixMilli(int64(1e12 + i))}}
			v := tags
			if _, plain := tags.(string); plain && ws == "w1" {
				v = bson.A{tags} // plain strings only in w2: w1's finds need no array in SQL
			}
			if v != nil || i%2 == 0 {
				d = append(d, bson.E{Key: "tags", Value: v}) // null, or missing
			}
			docs = append(docs, d)
			anyDocs = append(anyDocs, d)
		}
	}
	fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", "em", anyDocs, genIndexes...)
	ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
	log.take()

	pushed, explicit := 0, 0
	for _, cond := range elemMatchRanges {
		for _, driverCap := range []int64{0, 1 << 20} {
			ferretdb.SetDriverCap(driverCap)
			for _, anchor := range []string{"w1", "w2", ""} {
				em := bson.D{{Key: "tags", Value: bson.D{{Key: "$elemMatch", Value: cond}}}}
				filter := em
				var want []string
				if anchor != "" {
					filter = append(bson.D{{Key: "ws", Value: anchor}, {Key: "status", Value: "released"}}, em...)
					for _, id := range elemMatchWants(docs, cond) {
						if strings.HasSuffix(id, map[string]string{"w1": "0", "w2": "1"}[anchor]) {
							want = append(want, id)
						}
					}
				} else {
					want = elemMatchWants(docs, cond)
				}
				for name, c := range map[string]*mongo.Client{"stock": stock, "patched": patched} {
					coll := c.Database("d").Collection("em")
					got, err := findRaw(ctx, coll, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
					if err != nil {
						t.Fatal(err)
					}
					n, err := coll.CountDocuments(ctx, filter)
					if err != nil {
						t.Fatal(err)
					}
					gotIDs := make([]string, len(got))
					for i, d := range got {
						gotIDs[i] = d.Lookup("_id").StringValue()
					}
					if !slices.Equal(gotIDs, want) || int(n) != len(want) {
						t.Errorf("%s: find(%v), driver cap %d: %v (count %d), want %v", name, filter, driverCap, gotIDs, n, want)
					}
				}
				sqls := log.take()
				if len(sqls) == 0 || !slices.ContainsFunc(sqls, func(q loggedQuery) bool {
					return strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson") && strings.Contains(q.sql, elementInfix)
				}) {
					t.Errorf("find(%v) was not pushed down", filter)
				} else {
					pushed++
				}
				if slices.ContainsFunc(sqls, func(q loggedQuery) bool { return strings.Contains(q.sql, ")+0 = 5") }) {
					explicit++
				}
			}
		}
	}
	t.Logf("%d of %d finds pushed down, %d of them requiring arrays in SQL", pushed, 6*len(elemMatchRanges), explicit)
	if explicit == 0 || explicit >= pushed*3/4 {
		t.Errorf("%d of %d finds required arrays in SQL, want those of w2 and without a workspace (2 in 3)", explicit, pushed)
	}
}

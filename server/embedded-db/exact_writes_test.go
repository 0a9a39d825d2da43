package main

// Proof for the FerretDB patch's writes, counts and deletes (README.md, "The FerretDB patch"):
// the same generated operations against a server with the exact pushdown and one without, with
// the same documents, must give the same answers and leave byte-identical collections (same
// documents, same order). Counts (`count`, `countDocuments` and other aggregates of the same
// shape) come with skips and limits, small and large, and the patch answers them with a
// `SELECT COUNT(*)` where it can; counts of a field's values (`$unwind` then `$group` by it, the
// tag counts' shape) are answered by a `GROUP BY` where every value is a string. Replay a failure
// with PRESSROOM_PUSHDOWN_SEED=<seed it printed>; PRESSROOM_PUSHDOWN_WRITE_CASES=<n> changes the
// number of operations per collection.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

var writeOps = []string{
	"countDocuments", "count", "aggregate $match $limit", "aggregate count",
	"aggregate unwind count", "aggregate unwind count", // two chances in 12: half of them near misses
	"updateOne", "updateMany", "deleteOne", "deleteMany",
	"findOneAndUpdate", "findOneAndDelete",
	"updateMany $set bools", // a flag cleared or set on many documents (applied in SQL if exact)
}

func TestExactWritesDoWhatStockDoes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	seed := seedFromEnv(t)
	t.Logf("seed %d (replay with PRESSROOM_PUSHDOWN_SEED=%d)", seed, seed)

	log, patchedDir, patched, stock := startPair(ctx, t)
	defer ferretdb.SetDriverCap(64)

	cases := casesFromEnv("PRESSROOM_PUSHDOWN_WRITE_CASES", 500)
	for _, exotic := range []bool{false, true} {
		name := map[bool]string{false: "writes_plain", true: "writes_exotic"}[exotic]
		g := newGen(seed, exotic)
		r := rand.New(rand.NewPCG(seed, 15)) // the operations; g makes filters and values
		colls := map[bool]*mongo.Collection{}
		nextDoc := 0
		insert := func(n int) {
			docs := make([]any, n)
			for i := range docs {
				docs[i] = g.doc(nextDoc)
				nextDoc++
			}
			for _, c := range colls {
				if _, err := c.InsertMany(ctx, docs); err != nil {
					t.Fatal(err)
				}
			}
		}
		for exact, c := range map[bool]*mongo.Client{true: patched, false: stock} {
			coll := c.Database("d").Collection(name)
			for _, m := range []mongo.IndexModel{
				{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "status", Value: 1}, {Key: "at", Value: -1}, {Key: "_id", Value: -1}}},
				{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "slug", Value: 1}}},
				{Keys: bson.D{{Key: "at", Value: 1}}},
				{Keys: bson.D{{Key: "tags", Value: 1}}},
			} {
				if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
					t.Fatal(err)
				}
			}
			colls[exact] = coll
		}
		insert(300)
		ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
		log.take()

		pushed := map[string]int{}
		answeredBefore := ferretdb.UnwindCountsAnswered()
		for i := range cases {
			op := writeOps[r.IntN(len(writeOps))]
			filter, sort := g.filter(0), g.sort()
			if strings.Contains(op, "count") && r.IntN(3) == 0 {
				filter = driverFilter(r, func() string { return tagStrs[r.IntN(len(tagStrs))] })
			}
			update := bson.D{{Key: "$set", Value: bson.D{{Key: "marker", Value: i}}}}
			if field := genFields[r.IntN(len(genFields))]; r.IntN(2) == 0 {
				if v, ok := g.value(field); ok {
					update[0].Value = append(update[0].Value.(bson.D), bson.E{Key: field, Value: v})
				} else {
					update = append(update, bson.E{Key: "$unset", Value: bson.D{{Key: field, Value: ""}}})
				}
			}
			if r.IntN(5) == 0 {
				// Writes that change the tags array element by element.
				op := []string{"$push", "$pull", "$addToSet"}[r.IntN(3)]
				update = append(update, bson.E{Key: op, Value: bson.D{{Key: "tags", Value: tagStrs[r.IntN(len(tagStrs))]}}})
			}
			if op == "updateMany $set bools" {
				// flag holds a boolean in some documents; flag2 in those an earlier one set it in.
				bools := bson.D{{Key: "flag", Value: r.IntN(2) == 0}}
				switch r.IntN(3) {
				case 0:
					bools = append(bools, bson.E{Key: "flag2", Value: r.IntN(2) == 0})
				case 1:
					bools = bson.D{{Key: "flag2", Value: r.IntN(2) == 0}, bools[0]}
				}
				update = bson.D{{Key: "$set", Value: bools}}
				if r.IntN(3) > 0 {
					// Mostly documents that hold booleans there, which the SQL path takes.
					only := bson.D{}
					for _, b := range bools {
						only = append(only, bson.E{Key: b.Key, Value: bson.D{{Key: "$in", Value: bson.A{true, false}}}})
					}
					filter = bson.D{{Key: "$and", Value: bson.A{filter, only}}}
				}
			}
			limit, skip := int64(r.IntN(4)), int64(r.IntN(3))
			if strings.Contains(op, "count") && r.IntN(2) == 0 {
				// Counts: skips and limits beyond the matches too, and past 2^32 (where FerretDB's
				// iterators, counting in 32 bits, wrap).
				limit = []int64{0, 1, 5, 40, 1000, 1<<32 + 1}[r.IntN(6)]
				skip = []int64{0, 1, 7, 60, 1000, 1<<32 + 2}[r.IntN(6)]
			}
			after := r.IntN(2) == 0
			// Counts from the shortest list of a word that every match holds, or never (the cap
			// under which that list drives), in a third of the operations each.
			driverCap := []int64{0, 3, 1 << 20}[r.IntN(3)]
			ferretdb.SetDriverCap(driverCap)

			var results [2]string
			for j, exact := range []bool{false, true} {
				results[j] = runWriteOp(ctx, colls[exact], op, filter, sort, update, limit, skip, after)
			}
			kind := "stock"
			for _, q := range log.take() {
				switch {
				case strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson"):
					kind = "exact"
					if strings.Contains(q.sql, elementInfix) {
						kind = "exact, element table"
					}
				case strings.HasPrefix(q.sql, "UPDATE") && strings.Contains(q.sql, "json_set("):
					kind = "exact"
					pushed["set"]++
				case strings.HasPrefix(q.sql, "SELECT COUNT(*)") && strings.Contains(q.sql, "COUNT(CASE WHEN"):
					// The $set of booleans' check (the UPDATE follows when it passes).
				case strings.HasPrefix(q.sql, "SELECT COUNT(*)"):
					kind = "exact"
					pushed["COUNT(*)"]++
					if strings.Contains(q.sql, "CROSS JOIN") {
						pushed["driven"]++
					}
				case strings.HasPrefix(q.sql, "WITH m AS MATERIALIZED"):
					// Counts of a field's values; the backend may still fall back after it.
					kind = "exact"
					pushed["unwind"]++
				case strings.Contains(q.sql, "WHERE _ferretdb_sjson->'$._id' = ?") && kind == "stock":
					kind = "_id only" // the stock path's `{_id}` lookup, for more than `{_id}` too
				}
			}
			pushed[kind]++
			desc := fmt.Sprintf("%s case %d (seed %d): %s filter %v sort %v update %v limit %d skip %d returnAfter %v driver cap %d",
				name, i, seed, op, filter, sort, update, limit, skip, after, driverCap)
			if results[0] != results[1] {
				t.Fatalf("%s\nstock:   %s\npatched: %s", desc, results[0], results[1])
			}
			want, err := findRaw(ctx, colls[false], bson.D{}, options.Find())
			if err != nil {
				t.Fatal(err)
			}
			got, err := findRaw(ctx, colls[true], bson.D{}, options.Find())
			if err != nil {
				t.Fatal(err)
			}
			log.take()
			if !sameDocs(want, got) {
				t.Fatalf("%s: the collections differ afterwards\nstock:   %v\npatched: %v", desc, ids(want), ids(got))
			}
			if msg := elementTablesOutOfStep(ctx, t, filepath.Join(patchedDir, "d.sqlite")); msg != "" {
				t.Fatalf("%s: %s", desc, msg)
			}
			if len(want) < 150 {
				insert(100)
				ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
				log.take()
			}
		}
		t.Logf("%s: %d operations (%d documents inserted in all); answered by: exact %d (%d of them through an element table, %d counts by SELECT COUNT(*), %d of them driven by a list, %d value counts tried in SQL, %d $set of booleans by UPDATE), _id only %d, stock path %d",
			name, cases, nextDoc, pushed["exact"]+pushed["exact, element table"], pushed["exact, element table"], pushed["COUNT(*)"], pushed["driven"], pushed["unwind"], pushed["set"], pushed["_id only"], pushed["stock"])
		if !exotic && pushed["set"] < cases/100 {
			t.Errorf("only %d of %d operations were a $set of booleans by UPDATE", pushed["set"], cases)
		}
		if exact := pushed["exact"] + pushed["exact, element table"]; !exotic && exact < cases/3 {
			t.Errorf("only %d of %d operations were pushed down", exact, cases)
		}
		if !exotic && pushed["COUNT(*)"] < cases/12 {
			t.Errorf("only %d of %d operations were counts by SELECT COUNT(*)", pushed["COUNT(*)"], cases)
		}
		if !exotic && pushed["driven"] < cases/100 {
			t.Errorf("only %d of %d operations were counts driven by a list", pushed["driven"], cases)
		}
		answered := ferretdb.UnwindCountsAnswered() - answeredBefore
		t.Logf("%s: %d value counts answered in SQL (the others of the %d tried found a value that is not a string)", name, answered, pushed["unwind"])
		if !exotic && answered < int64(cases/40) {
			t.Errorf("only %d of %d operations were value counts answered in SQL", answered, cases)
		}
	}
}

// runWriteOp runs one operation and describes its answer (documents as extended JSON).
func runWriteOp(ctx context.Context, c *mongo.Collection, op string, filter, sort, update bson.D, limit, skip int64, after bool) string {
	describe := func(v any, err error) string {
		if err != nil {
			var se mongo.ServerError
			if errors.As(err, &se) || errors.Is(err, mongo.ErrNoDocuments) {
				return fmt.Sprintf("%v -> error %v", v, err)
			}
			return fmt.Sprintf("%v -> error %T %v", v, err, err)
		}
		return fmt.Sprintf("%v", v)
	}
	single := func(res *mongo.SingleResult) string {
		raw, err := res.Raw()
		return describe(raw.String(), err)
	}
	switch op {
	case "countDocuments":
		opts := options.Count().SetSkip(skip)
		if limit > 0 {
			opts.SetLimit(limit)
		}
		return describe(c.CountDocuments(ctx, filter, opts))
	case "count":
		cmd := bson.D{{Key: "count", Value: c.Name()}, {Key: "query", Value: filter}, {Key: "skip", Value: skip}, {Key: "limit", Value: limit}}
		var res bson.M
		err := c.Database().RunCommand(ctx, cmd).Decode(&res)
		return describe(res["n"], err)
	case "aggregate count":
		// The shape of countDocuments with other constant _ids and output names (answered in
		// SQL), and near misses that are not counts (answered by the stages).
		pipeline := bson.A{bson.D{{Key: "$match", Value: filter}}}
		if skip > 0 {
			pipeline = append(pipeline, bson.D{{Key: "$skip", Value: skip}})
		}
		if limit > 0 {
			pipeline = append(pipeline, bson.D{{Key: "$limit", Value: limit}})
		}
		groups := []bson.D{
			{{Key: "_id", Value: nil}, {Key: "count", Value: bson.D{{Key: "$sum", Value: 1}}}},
			{{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "_id", Value: "all"}},
			{{Key: "_id", Value: int64(7)}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}},
			{{Key: "_id", Value: 1}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 2}}}},
			{{Key: "_id", Value: "$ws"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}},
			{{Key: "_id", Value: 1}, {Key: "n", Value: bson.D{{Key: "$sum", Value: int64(1)}}}},
		}
		pipeline = append(pipeline, bson.D{{Key: "$group", Value: groups[int(limit+skip+int64(len(filter)))%len(groups)]}})
		if after {
			// $limit before $skip: not the counting shape.
			pipeline = bson.A{pipeline[0], bson.D{{Key: "$limit", Value: limit + 3}}, bson.D{{Key: "$skip", Value: skip}}, pipeline[len(pipeline)-1]}
		}
		return describe(aggregateText(ctx, c, pipeline))
	case "aggregate unwind count":
		// The shape of the tag counts (a field's values counted, answered in SQL when every value
		// is a string), with and without a $project of the field, and near misses.
		field := []string{"tags", "tags", "tags", "slug", "ws", "status", "at"}[int(limit*3+skip+int64(len(filter)))%7]
		unwind := bson.D{{Key: "$unwind", Value: "$" + field}}
		if after && skip == 2 {
			unwind = bson.D{{Key: "$unwind", Value: bson.D{{Key: "path", Value: "$" + field}}}}
		}
		group := bson.D{{Key: "_id", Value: "$" + field}, {Key: "count", Value: bson.D{{Key: "$sum", Value: 1}}}}
		pipeline := bson.A{bson.D{{Key: "$match", Value: filter}}}
		switch (limit + skip) % 6 {
		case 1:
			pipeline = append(pipeline, bson.D{{Key: "$project", Value: bson.D{{Key: field, Value: 1}}}})
		case 2:
			pipeline = append(pipeline, bson.D{{Key: "$project", Value: bson.D{{Key: field, Value: true}}}})
			group = bson.D{{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "_id", Value: "$" + field}}
		case 3:
			group[0].Value = "$ws" // not the unwound field
		case 4:
			group[1].Value = bson.D{{Key: "$sum", Value: 2}}
		case 5:
			pipeline = append(pipeline, bson.D{{Key: "$project", Value: bson.D{{Key: field, Value: 0}}}})
		}
		pipeline = append(pipeline, unwind, bson.D{{Key: "$group", Value: group}})
		return describe(aggregateText(ctx, c, pipeline))
	case "aggregate $match $limit":
		pipeline := bson.A{bson.D{{Key: "$match", Value: filter}}, bson.D{{Key: "$limit", Value: limit + 1}}}
		return describe(aggregateText(ctx, c, pipeline))
	case "updateOne":
		return describe(c.UpdateOne(ctx, filter, update))
	case "updateMany", "updateMany $set bools":
		return describe(c.UpdateMany(ctx, filter, update))
	case "deleteOne":
		return describe(c.DeleteOne(ctx, filter))
	case "deleteMany":
		return describe(c.DeleteMany(ctx, filter))
	case "findOneAndUpdate":
		opts := options.FindOneAndUpdate().SetReturnDocument(map[bool]options.ReturnDocument{false: options.Before, true: options.After}[after])
		if sort != nil {
			opts.SetSort(sort)
		}
		return single(c.FindOneAndUpdate(ctx, filter, update, opts))
	case "findOneAndDelete":
		opts := options.FindOneAndDelete()
		if sort != nil {
			opts.SetSort(sort)
		}
		return single(c.FindOneAndDelete(ctx, filter, opts))
	}
	panic(op)
}

// aggregateText runs pipeline and returns its documents as raw BSON text, so that types (an
// int32 count against an int64) are compared too.
func aggregateText(ctx context.Context, c *mongo.Collection, pipeline bson.A) (any, error) {
	cur, err := c.Aggregate(ctx, pipeline)
	if err != nil {
		return nil, err
	}
	var docs []bson.Raw
	err = cur.All(ctx, &docs)
	var buf bytes.Buffer
	for _, d := range docs {
		buf.WriteString(d.String())
	}
	return buf.String(), err
}

package main

// Proof for the projection pushdown of the FerretDB patch (README.md, "Projections read only
// their fields"): a find whose projection includes fields decodes of each document only the
// top-level fields its filter, sort and projection name, the others' bytes skipped (a document
// too wide for the one-pass split is decoded whole, then cut to them). Differential against
// the stock query path, on documents that hold those fields or not, with every BSON type
// FerretDB stores, nested documents and arrays; and projections the patch must leave to whole
// documents.
//
// Replay a failure with PRESSROOM_PUSHDOWN_SEED=<seed printed by the failing test>.

import (
	"context"
	"fmt"
	"log/slog"
	"math"
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

// extraFields are the fields besides genFields that projections name: every kind of value.
var extraFields = []string{"obj", "arr", "num", "txt", "bin", "re", "ts", "nul", "oid", "day"}

// extraValue returns a value for one of extraFields, or (nil, false) for a missing field.
func (g *gen) extraValue(field string) (any, bool) {
	if g.r.IntN(5) == 0 {
		return nil, false
	}
	if g.r.IntN(12) == 0 {
		return nil, true
	}
	pick := func(vs ...any) any { return vs[g.r.IntN(len(vs))] }
	switch field {
	case "obj":
		return pick(
			bson.D{{Key: "k", Value: "w1"}, {Key: "n", Value: bson.D{{Key: "x", Value: int32(1)}, {Key: "y", Value: bson.A{"a", int64(2)}}}}},
			bson.D{{Key: "n", Value: nil}, {Key: "k", Value: 2.5}},
			bson.D{},
			bson.D{{Key: "k", Value: bson.A{bson.D{{Key: "z", Value: true}}}}},
		), true
	case "arr":
		return pick(
			bson.A{}, bson.A{int32(1), "two", 3.0}, bson.A{bson.D{{Key: "k", Value: "w1"}}, bson.D{{Key: "k", Value: int32(2)}}},
			bson.A{nil, bson.D{}, g.dates[0]},
		), true
	case "num":
		return pick(int32(-7), int64(1)<<53+1, int64(math.MinInt64), 0.1, -0.0, 1e300, 5e-324, math.MaxFloat64, 2.0, 123456789.125), true
	case "txt":
		return pick("", "plain", "é \"q\" \\ \n\t\u0001 \u2028", strings.Repeat("long ", 100), "<b>&amp;</b>", "😀"), true
	case "bin":
		return pick(primitive.Binary{Subtype: 0, Data: []byte{0, 1, 2}}, primitive.Binary{Subtype: 4, Data: make([]byte, 16)}), true
	case "re":
		return pick(primitive.Regex{Pattern: "^a.*", Options: "i"}, primitive.Regex{Pattern: "x", Options: ""}), true
	case "ts":
		return pick(primitive.Timestamp{T: 1, I: 2}, primitive.Timestamp{T: 1700000000, I: 0}), true
	case "nul":
		return nil, true
	case "oid":
		return g.oids[g.r.IntN(len(g.oids))], true
	default: // day
		return g.dates[g.r.IntN(len(g.dates))], true
	}
}

// projDoc returns gen's document i with the extra fields put among its fields.
func (g *gen) projDoc(i int) bson.D {
	d := g.doc(i)
	for _, f := range extraFields {
		v, ok := g.extraValue(f)
		if !ok {
			continue
		}
		at := 1 + g.r.IntN(len(d)) // after _id
		d = append(d[:at], append(bson.D{{Key: f, Value: v}}, d[at:]...)...)
	}
	if i%20 == 0 {
		// Wider than the one-pass split takes (64 members): decoded whole, then cut.
		for w := range 64 {
			d = append(d, bson.E{Key: fmt.Sprintf("w%02d", w), Value: int32(w)})
		}
	}
	return d
}

// projection returns a projection: mostly inclusions (the patch pushes them down), otherwise
// shapes that must read whole documents, some of which the server refuses.
func (g *gen) projection() bson.D {
	names := append(append([]string{"_id", "nope"}, genFields...), extraFields...)
	names = append(names, "obj.k", "obj.n.x", "arr.k", "tags.0", "obj.nope")
	on := func() any { return []any{int32(1), true, int64(1), 1.0, int32(-1)}[g.r.IntN(5)] }
	switch n := g.r.IntN(100); {
	case n < 70:
		p := bson.D{}
		for range 1 + g.r.IntN(4) {
			// Never a path twice, or a path and its prefix ({arr: 1, "arr.k": 1}): FerretDB 1.24
			// (stock too) drops the connection on such a collision instead of answering an error.
			name := names[g.r.IntN(len(names))]
			if !slices.ContainsFunc(p, func(e bson.E) bool {
				return e.Key == name || strings.HasPrefix(e.Key, name+".") || strings.HasPrefix(name, e.Key+".")
			}) {
				p = append(p, bson.E{Key: name, Value: on()})
			}
		}
		if g.r.IntN(4) == 0 && !slices.ContainsFunc(p, func(e bson.E) bool { return e.Key == "_id" }) {
			p = append(p, bson.E{Key: "_id", Value: []any{int32(0), false}[g.r.IntN(2)]})
		}
		return p
	case n < 76:
		return bson.D{{Key: extraFields[g.r.IntN(len(extraFields))], Value: int32(0)}}
	case n < 80:
		return bson.D{{Key: "_id", Value: false}}
	case n < 84:
		return bson.D{{Key: "arr", Value: bson.M{"$slice": 1}}, {Key: "ws", Value: 1}}
	case n < 88:
		return bson.D{{Key: "arr", Value: bson.M{"$elemMatch": bson.M{"k": "w1"}}}}
	case n < 92:
		return bson.D{{Key: "tags.$", Value: 1}}
	default:
		return bson.D{{Key: "lit", Value: "x"}, {Key: "txt", Value: 1}}
	}
}

// projFilter returns gen's filter, sometimes with a term on an extra field (dotted or not).
func (g *gen) projFilter() bson.D {
	f := g.filter(0)
	switch g.r.IntN(8) {
	case 0:
		f = append(f, bson.E{Key: "num", Value: bson.M{"$gt": int32(0)}})
	case 1:
		f = append(f, bson.E{Key: "txt", Value: bson.M{"$exists": true}})
	case 2:
		f = append(f, bson.E{Key: "obj.k", Value: "w1"})
	case 3:
		f = append(f, bson.E{Key: "$expr", Value: "$flag"})
	}
	return f
}

func TestProjectionPushdownReturnsWhatStockReturns(t *testing.T) {
	// In parallel (README.md, "How it is built"): no test that runs beside it reads with a
	// projection in this process, so StoredFieldReads counts this test's finds only.
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	seed := seedFromEnv(t)
	t.Logf("seed %d (replay with PRESSROOM_PUSHDOWN_SEED=%d)", seed, seed)

	log, patchedDir, patched, stock := startPair(ctx, t)

	casesPerCollection := casesFromEnv("PRESSROOM_PUSHDOWN_CASES", 1000)
	for _, exotic := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "exotic"}[exotic]
		g := newGen(seed^0x5eed, exotic)
		docs := make([]any, 200)
		for i := range docs {
			docs[i] = g.projDoc(i)
		}
		fillBoth(ctx, t, []*mongo.Client{patched, stock}, "p", name, docs, genIndexes...)
		ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
		log.take()

		pushed, failed, partDocs := 0, 0, int64(0)
		for i := range casesPerCollection {
			filter, sort, limit, proj := g.projFilter(), g.sort(), int64(g.r.IntN(4)*g.r.IntN(12)), g.projection()
			opts := options.Find().SetLimit(limit).SetProjection(proj)
			if sort != nil {
				opts.SetSort(sort)
			}
			want, wantErr := findRaw(ctx, stock.Database("p").Collection(name), filter, opts)
			before := ferretdb.StoredFieldReads()
			got, gotErr := findRaw(ctx, patched.Database("p").Collection(name), filter, opts)
			if read := ferretdb.StoredFieldReads() - before; read > 0 {
				pushed++
				partDocs += read
			}
			log.take()
			if wantErr != nil {
				failed++
			}
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) || !sameDocs(want, got) {
				t.Fatalf("%s case %d (seed %d): find(%v, %v).sort(%v).limit(%d)\nstock:   %v %v\npatched: %v %v",
					name, i, seed, filter, proj, sort, limit, want, wantErr, got, gotErr)
			}
		}
		t.Logf("%s: %d cases, %d read only their fields (%d documents), %d refused alike by both", name, casesPerCollection, pushed, partDocs, failed)
		// A case counts when it returned a document read in part: finds that match nothing,
		// or only the wide documents, do not.
		if !exotic && pushed < casesPerCollection/10 {
			t.Errorf("only %d of %d cases read only their fields", pushed, casesPerCollection)
		}
	}
}

package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// driverWords are the words of the driver test's documents, with the share of documents that
// hold each: a word of every document beside rare ones, as `post 1234` in the admin search.
var driverWords = []struct {
	word  string
	share int // per 1,000 documents
}{{"post", 950}, {"rel", 300}, {"sec", 200}, {"12", 30}, {"1234", 8}, {"", 5}, {"none", 0}}

// driverDoc is one document of the driver test: a workspace, a status and its words in `tags`,
// an array mostly, or one string, missing, or an array holding other types too.
func driverDoc(r *rand.Rand, i int) bson.D {
	words := bson.A{}
	for _, w := range driverWords {
		if r.IntN(1000) < w.share {
			words = append(words, w.word)
		}
	}
	doc := bson.D{
		{Key: "_id", Value: fmt.Sprintf("d%05d", i)},
		{Key: "ws", Value: []string{"w1", "w1", "w2"}[r.IntN(3)]},
		{Key: "status", Value: []string{"draft", "released", "released", "removed"}[r.IntN(4)]},
	}
	switch n := r.IntN(20); {
	case n == 0:
		return doc // no tags
	case n == 1 && len(words) > 0:
		return append(doc, bson.E{Key: "tags", Value: words[0]})
	case n == 2:
		words = append(words, int32(7), nil, bson.D{{Key: "k", Value: "1234"}})
	}
	return append(doc, bson.E{Key: "tags", Value: words})
}

// driverFilter is the admin search's count (editor-list.ts editorFilter) over words that pick
// returns, in `tags`: one equality per word in an $and, and around them the terms that must
// never drive a count (a negation, an $or, an $in of several words) or may (an $in of one, a
// nested $and).
func driverFilter(r *rand.Rand, pick func() string) bson.D {
	words := bson.A{}
	for range 1 + r.IntN(3) {
		words = append(words, bson.D{{Key: "tags", Value: pick()}})
	}
	if r.IntN(2) == 0 {
		// The consumer search's last word, a prefix: an $elemMatch of a string range, which
		// drives from its list when that list (its rows, a document's several words each) is short.
		w := []rune(pick())
		p := string(w[:r.IntN(len(w)+1)])
		words[len(words)-1] = bson.D{{Key: "tags", Value: bson.D{{Key: "$elemMatch", Value: bson.D{{Key: "$gte", Value: p}, {Key: "$lt", Value: prefixUpper(p)}}}}}}
	}
	switch r.IntN(7) {
	case 0:
		words = append(words, bson.D{{Key: "tags", Value: bson.D{{Key: "$ne", Value: pick()}}}})
	case 1:
		words = append(words, bson.D{{Key: "tags", Value: bson.D{{Key: "$nin", Value: bson.A{pick()}}}}})
	case 2:
		words = bson.A{bson.D{{Key: "$or", Value: words}}}
	case 3:
		words = append(words, bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{pick(), pick()}}}}})
	case 4:
		words = append(words, bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{pick()}}}}})
	case 5:
		words = bson.A{bson.D{{Key: "$and", Value: words}}}
	}
	f := bson.D{{Key: "ws", Value: []string{"w1", "w2"}[r.IntN(2)]}, {Key: "status", Value: []string{"draft", "released"}[r.IntN(2)]}}
	if r.IntN(6) == 0 {
		f = bson.D{} // the words alone
	}
	return append(f, bson.E{Key: "$and", Value: words})
}

// TestQueriesDrivenByAShortListAnswerWhatStockAnswers: a query whose filter holds a word every
// match must hold may start from that word's list when it is short (the embedded database's
// README, "A query from a short list"). Against stock FerretDB, over documents where one word is
// in almost every document and others in few, each count (countDocuments and the count command,
// with skips and limits) and each find (sorted by a total order, by a field alone, or not at
// all, with and without a limit) is answered with the cap that lets every list drive, one that
// lets only short lists drive, and none; all must give stock's answer, byte for byte, and the
// first two must have started queries from a list.
func TestQueriesDrivenByAShortListAnswerWhatStockAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	seed := seedFromEnv(t)
	t.Logf("seed %d (replay with PRESSROOM_PUSHDOWN_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 35))
	defer ferretdb.SetDriverCap(64)

	log, patchedDir, patched, stock := startPair(ctx, t)
	docs := make([]any, 1500)
	for i := range docs {
		docs[i] = driverDoc(r, i)
	}
	colls := map[bool]*mongo.Collection{}
	for exact, c := range map[bool]*mongo.Client{true: patched, false: stock} {
		coll := c.Database("d").Collection("driven")
		for _, m := range []mongo.IndexModel{
			{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "status", Value: 1}}},
			{Keys: bson.D{{Key: "tags", Value: 1}}},
		} {
			if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
		colls[exact] = coll
	}
	ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
	log.take()

	count := func(c *mongo.Collection, cmd bool, filter bson.D, skip, limit int64) string {
		if cmd {
			var res bson.M
			err := c.Database().RunCommand(ctx, bson.D{{Key: "count", Value: c.Name()}, {Key: "query", Value: filter}, {Key: "skip", Value: skip}, {Key: "limit", Value: limit}}).Decode(&res)
			return fmt.Sprintf("%v %v", res["n"], err)
		}
		opts := options.Count()
		if skip > 0 {
			opts.SetSkip(skip)
		}
		if limit > 0 {
			opts.SetLimit(limit)
		}
		n, err := c.CountDocuments(ctx, filter, opts)
		return fmt.Sprintf("%d %v", n, err)
	}

	find := func(c *mongo.Collection, filter, sort bson.D, limit int64) string {
		opts := options.Find().SetLimit(limit)
		if sort != nil {
			opts.SetSort(sort)
		}
		docs, err := findRaw(ctx, c, filter, opts)
		return fmt.Sprintf("%v %v", docs, err)
	}

	cases := casesFromEnv("PRESSROOM_PUSHDOWN_COUNT_CASES", 400)
	driven, answered, nonZero, rangeDriven := map[int64]int{}, 0, 0, 0
	for i := range cases {
		filter := driverFilter(r, func() string { return driverWords[r.IntN(len(driverWords))].word })
		isFind, cmd := r.IntN(2) == 0, r.IntN(3) == 0
		var skip, limit int64
		if r.IntN(3) == 0 {
			skip, limit = []int64{0, 1, 5, 40}[r.IntN(4)], []int64{0, 1, 3, 100}[r.IntN(4)]
		}
		sort := []bson.D{nil, {{Key: "_id", Value: -1}}, {{Key: "status", Value: 1}, {Key: "_id", Value: 1}}, {{Key: "status", Value: -1}}}[r.IntN(4)]
		run := func(c *mongo.Collection) string {
			if isFind {
				return find(c, filter, sort, limit)
			}
			return count(c, cmd, filter, skip, limit)
		}
		desc := fmt.Sprintf("count %v filter %v skip %d limit %d", cmd, filter, skip, limit)
		if isFind {
			desc = fmt.Sprintf("find(%v).sort(%v).limit(%d)", filter, sort, limit)
		}
		want := run(colls[false])
		if !strings.HasPrefix(want, "0 ") && !strings.HasPrefix(want, "[] ") {
			nonZero++
		}
		for _, driverCap := range []int64{1 << 20, 20, 0} {
			ferretdb.SetDriverCap(driverCap)
			got := run(colls[true])
			for _, q := range log.take() {
				if strings.HasPrefix(q.sql, "SELECT COUNT(*)") || strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson FROM") {
					answered++
					if strings.Contains(q.sql, "CROSS JOIN") {
						driven[driverCap]++
					}
					if strings.Contains(q.sql, "(SELECT DISTINCT rid FROM") {
						rangeDriven++ // from the list of an $elemMatch's range
					}
				}
			}
			if got != want {
				t.Fatalf("case %d (seed %d): %s, driver cap %d:\nstock:   %s\npatched: %s", i, seed, desc, driverCap, want, got)
			}
		}
	}
	t.Logf("%d counts and finds, %d with matches, each with three caps: %d answered in SQL; started from a list: %d with every list, %d with lists under 20, %d with none; %d from an $elemMatch's range",
		cases, nonZero, answered, driven[1<<20], driven[20], driven[0], rangeDriven)
	if rangeDriven < cases/20 {
		t.Errorf("only %d queries started from an $elemMatch's list", rangeDriven)
	}
	if driven[0] != 0 {
		t.Errorf("%d queries started from a list with the cap at 0", driven[0])
	}
	if driven[1<<20] < cases/3 || driven[20] == 0 || driven[20] >= driven[1<<20] {
		t.Errorf("too few queries started from a list: %d of %d with every list, %d with short ones", driven[1<<20], cases, driven[20])
	}
	if nonZero < cases/4 {
		t.Errorf("only %d of %d queries had matches", nonZero, cases)
	}
}

// An $in of a string and another value ({tags: {$in: ["rare", null]}}) is an OR: a match may
// hold none of its strings (a document without tags matches the null), so the string's list
// must not drive the query. The differential write test found it (seed 1796615299373963216:
// `status: {$in: [null, "draft", ObjectId]}` answered only the drafts).
func TestAnInOfAStringAndAnotherValueIsNotDrivenByTheStringsList(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer ferretdb.SetDriverCap(64)
	ferretdb.SetDriverCap(1 << 20)

	_, patchedDir, patched, stock := startPair(ctx, t)
	// Plain strings, null and missing; one array, so that the keeper makes tags' element table,
	// deleted before the finds, so that the type checks let them through to SQL.
	docs := []any{bson.D{{Key: "_id", Value: "array"}, {Key: "tags", Value: bson.A{"rare", "x"}}}}
	for i := range 200 {
		d := bson.D{{Key: "_id", Value: fmt.Sprintf("d%03d", i)}}
		switch i % 10 {
		case 0:
			d = append(d, bson.E{Key: "tags", Value: "rare"})
		case 1: // no tags
		case 2:
			d = append(d, bson.E{Key: "tags", Value: nil})
		default:
			d = append(d, bson.E{Key: "tags", Value: "common"})
		}
		docs = append(docs, d)
	}
	fillBoth(ctx, t, []*mongo.Client{patched, stock}, "d", "in", docs,
		mongo.IndexModel{Keys: bson.D{{Key: "tags", Value: 1}}})
	ensureIDIndexes(ctx, patchedDir, slog.New(discard{}))
	for _, c := range []*mongo.Client{patched, stock} {
		if _, err := c.Database("d").Collection("in").DeleteOne(ctx, bson.D{{Key: "_id", Value: "array"}}); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []struct {
		filter bson.D
		want   int
	}{
		{bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{"rare", nil}}}}}, 60},
		{bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{nil, "rare", int32(7)}}}}}, 60},
		{bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{"rare"}}}}}, 20},
	} {
		opts := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}})
		want, err := findRaw(ctx, stock.Database("d").Collection("in"), c.filter, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := findRaw(ctx, patched.Database("d").Collection("in"), c.filter, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != c.want || !sameDocs(want, got) {
			t.Errorf("find(%v): stock %d documents, patched %d (want %d, the same)", c.filter, len(want), len(got), c.want)
		}
	}
}

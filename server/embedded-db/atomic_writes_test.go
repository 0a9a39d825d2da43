//go:build unix

package main

// Single-document writes are atomic in the launcher, as on MongoDB (README.md, "The FerretDB
// patch", atomic writes): many connections hammer one document through the real launcher binary
// with $inc, $max and $push, race compare-and-set updates, deletes and findAndModify on a revision,
// and upsert one _id. With the lock (the launcher's default) nothing is lost and exactly one
// compare-and-set wins each round; the same hammer against `-atomic-writes=false` (stock
// FerretDB's read-then-write) must find lost writes, which shows the checks can fail.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

const (
	hammerClients    = 20  // separate clients: separate connections
	hammerPerClient  = 500 // 10,000 updates of one document
	hammerGoroutines = 4   // in flight per client
	casWriters       = 8
	casRounds        = 20
	upsertWriters    = 16
	pushEvery        = 10 // one update in ten also pushes its number
)

func TestSingleDocumentWritesAreAtomicAcrossConnections(t *testing.T) {
	// In parallel: its own launcher process (README.md, "How it is built").
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // a hang guard only
	defer cancel()
	bin := buildLauncher(ctx, t)
	srv := startLauncher(ctx, t, bin, t.TempDir())
	clients := hammerConnect(ctx, t, srv.uri)

	for _, p := range atomicityProblems(ctx, t, clients) {
		t.Error(p)
	}
}

func TestWithoutTheLockTheHammerFindsLostWrites(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	bin := buildLauncher(ctx, t)
	srv := startLauncher(ctx, t, bin, t.TempDir(), "-atomic-writes=false")
	clients := hammerConnect(ctx, t, srv.uri)

	problems := atomicityProblems(ctx, t, clients)
	for _, p := range problems {
		t.Logf("without the lock, as expected: %s", p)
	}
	if len(problems) == 0 {
		t.Fatal("stock FerretDB's read-then-write lost nothing under the hammer: the atomicity test could not fail")
	}
}

func hammerConnect(ctx context.Context, t *testing.T, uri string) []*mongo.Client {
	t.Helper()
	clients := make([]*mongo.Client, hammerClients)
	for i := range clients {
		c, err := mongo.Connect(ctx, options.Client().ApplyURI(uri).SetMaxPoolSize(hammerGoroutines))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
		clients[i] = c
	}
	return clients
}

// atomicityProblems runs every hammer and returns what MongoDB's semantics would not allow.
func atomicityProblems(ctx context.Context, t *testing.T, clients []*mongo.Client) []string {
	t.Helper()
	coll := func(i int) *mongo.Collection { return clients[i%len(clients)].Database("app").Collection("hammer") }
	var problems []string
	problems = append(problems, hammerIncrements(ctx, t, coll)...)
	problems = append(problems, hammerCompareAndSet(ctx, t, coll)...)
	problems = append(problems, hammerUpserts(ctx, t, coll)...)
	return problems
}

// 10,000 concurrent updates of one document, each {$inc: {n: 1}, $max: {hi: i}}
// and one in ten also {$push: {seen: i}} (every other one through findOneAndUpdate), end at
// n = 10,000, hi = the largest i, and every pushed i in the array exactly once.
func hammerIncrements(ctx context.Context, t *testing.T, coll func(int) *mongo.Collection) []string {
	t.Helper()
	if _, err := coll(0).InsertOne(ctx, bson.D{{Key: "_id", Value: "counter"}, {Key: "n", Value: 0}, {Key: "hi", Value: -1}, {Key: "seen", Value: bson.A{}}}); err != nil {
		t.Fatal(err)
	}
	total := hammerClients * hammerPerClient
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, hammerClients*hammerGoroutines)
	start := time.Now()
	for c := range hammerClients {
		for range hammerGoroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= total {
						return
					}
					update := bson.D{
						{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}},
						{Key: "$max", Value: bson.D{{Key: "hi", Value: i}}},
					}
					if i%pushEvery == 0 { // a bounded array: each write rewrites the whole document
						update = append(update, bson.E{Key: "$push", Value: bson.D{{Key: "seen", Value: i}}})
					}
					var err error
					if i%2 == 0 {
						_, err = coll(c).UpdateOne(ctx, bson.D{{Key: "_id", Value: "counter"}}, update)
					} else {
						err = coll(c).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: "counter"}}, update).Err()
					}
					if err != nil {
						errs <- fmt.Errorf("update %d: %w", i, err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var got struct {
		N    int   `bson:"n"`
		Hi   int   `bson:"hi"`
		Seen []int `bson:"seen"`
	}
	if err := coll(0).FindOne(ctx, bson.D{{Key: "_id", Value: "counter"}}).Decode(&got); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d updates of one document from %d connections in %v: n = %d, hi = %d, %d pushed",
		total, hammerClients, time.Since(start).Round(time.Millisecond), got.N, got.Hi, len(got.Seen))
	var problems []string
	if got.N != total {
		problems = append(problems, fmt.Sprintf("$inc: %d concurrent increments ended at n = %d", total, got.N))
	}
	if got.Hi != total-1 {
		problems = append(problems, fmt.Sprintf("$max: the largest value was %d, hi = %d", total-1, got.Hi))
	}
	seen := slices.Compact(slices.Sorted(slices.Values(got.Seen)))
	if pushed := total / pushEvery; len(got.Seen) != pushed || len(seen) != pushed {
		problems = append(problems, fmt.Sprintf("$push: %d values pushed once each, the array holds %d (%d distinct)", pushed, len(got.Seen), len(seen)))
	}
	return problems
}

// Each round, casWriters writers read revision r and try to move it on with a compare-and-set
// filter {_id, revision: r}: by updateOne, by findOneAndUpdate, and (every third round) some by
// deleteOne. Exactly one must win each round, and the document must carry that winner's write.
func hammerCompareAndSet(ctx context.Context, t *testing.T, coll func(int) *mongo.Collection) []string {
	t.Helper()
	var problems []string
	noWinner, manyWinners := 0, 0
	for round := range casRounds {
		id := fmt.Sprintf("cas-%d", round)
		if _, err := coll(0).InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "revision", Value: 7}}); err != nil {
			t.Fatal(err)
		}
		var wins atomic.Int32
		var winner atomic.Int32
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for w := range casWriters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				filter := bson.D{{Key: "_id", Value: id}, {Key: "revision", Value: 7}}
				update := bson.D{{Key: "$set", Value: bson.D{{Key: "revision", Value: 8}, {Key: "by", Value: w}}}}
				<-gate
				won := false
				switch {
				case round%3 == 2 && w%2 == 1:
					res, err := coll(w).DeleteOne(ctx, filter)
					if err != nil {
						t.Error(err)
						return
					}
					won = res.DeletedCount == 1
				case w%2 == 0:
					res, err := coll(w).UpdateOne(ctx, filter, update)
					if err != nil {
						t.Error(err)
						return
					}
					won = res.ModifiedCount == 1
				default:
					err := coll(w).FindOneAndUpdate(ctx, filter, update).Err()
					if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
						t.Error(err)
						return
					}
					won = err == nil
				}
				if won {
					wins.Add(1)
					winner.Store(int32(w))
				}
			}()
		}
		close(gate)
		wg.Wait()
		switch n := wins.Load(); {
		case n == 0:
			noWinner++
		case n > 1:
			manyWinners++
		default:
			var got struct {
				By int `bson:"by"`
			}
			err := coll(0).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&got)
			w := int(winner.Load())
			deleted := round%3 == 2 && w%2 == 1
			switch {
			case deleted && !errors.Is(err, mongo.ErrNoDocuments):
				problems = append(problems, fmt.Sprintf("compare-and-set round %d: writer %d deleted the document, which is still there", round, w))
			case !deleted && err != nil:
				problems = append(problems, fmt.Sprintf("compare-and-set round %d: writer %d won, the document reads %v", round, w, err))
			case !deleted && got.By != w:
				problems = append(problems, fmt.Sprintf("compare-and-set round %d: writer %d won, the document says %d", round, w, got.By))
			}
		}
	}
	t.Logf("compare-and-set: %d rounds of %d writers: %d without a winner, %d with several", casRounds, casWriters, noWinner, manyWinners)
	if noWinner > 0 || manyWinners > 0 {
		problems = append(problems, fmt.Sprintf("compare-and-set: %d of %d rounds had no single winner (%d none, %d several)",
			noWinner+manyWinners, casRounds, noWinner, manyWinners))
	}
	return problems
}

// upsertWriters writers upsert one _id at once, by updateOne and findOneAndUpdate, each adding
// 1: as on MongoDB, one document results, none fails, and it counts every upsert.
func hammerUpserts(ctx context.Context, t *testing.T, coll func(int) *mongo.Collection) []string {
	t.Helper()
	var failed atomic.Int32
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for w := range upsertWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			filter := bson.D{{Key: "_id", Value: "upserted"}}
			update := bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}, {Key: "$setOnInsert", Value: bson.D{{Key: "first", Value: w}}}}
			<-gate
			var err error
			if w%2 == 0 {
				_, err = coll(w).UpdateOne(ctx, filter, update, options.Update().SetUpsert(true))
			} else {
				err = coll(w).FindOneAndUpdate(ctx, filter, update, options.FindOneAndUpdate().SetUpsert(true)).Err()
				if errors.Is(err, mongo.ErrNoDocuments) { // the upsert returned the document before it
					err = nil
				}
			}
			if err != nil {
				failed.Add(1)
			}
		}()
	}
	close(gate)
	wg.Wait()
	var problems []string
	if n := failed.Load(); n > 0 {
		problems = append(problems, fmt.Sprintf("upsert: %d of %d concurrent upserts of one _id failed", n, upsertWriters))
	}
	var got struct {
		N int `bson:"n"`
	}
	if err := coll(0).FindOne(ctx, bson.D{{Key: "_id", Value: "upserted"}}).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.N != upsertWriters-int(failed.Load()) {
		problems = append(problems, fmt.Sprintf("upsert: %d upserts acknowledged, the document counts %d", upsertWriters-int(failed.Load()), got.N))
	}
	return problems
}

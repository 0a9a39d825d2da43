package main

// The index keeper (id_index.go, exact_index.go, element_tables.go) builds its SQLite indexes
// and element tables while FerretDB serves writes on the same database file. SQLite lets one
// connection write at a time, a CREATE INDEX over a big collection holds that turn for as long as
// it scans, and a writer that waits in SQLite's busy handler gives up after FerretDB's busy
// timeout with "database is locked". So each statement of the keeper takes the backend's
// per-database write lock (ferretdb.WithWriteLock), as FerretDB's own document writes do: the
// writes waiting when one statement ends go before the next begins. See README.md, "The index
// keeper".

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
)

// keeperWrite is one write the writers sent while the keeper built: when it ended, and its error.
type keeperWrite struct {
	end  time.Time
	took time.Duration
	err  error
}

// The keeper builds every index of the app's blogs collection (testdata/app-indexes.json) on a
// collection that already holds n blogs, with writers updating and inserting blogs all along.
// The rule: no write fails, and writes go on between the keeper's statements instead of waiting
// for the whole build (without the shared lock they waited in SQLite's busy handler, which
// sleeps up to 100 ms between tries while the keeper's next statement starts within
// microseconds of the last).
func TestKeeperStatementsTakeTurnsWithWrites(t *testing.T) {
	n := 12_000
	if s, err := strconv.Atoi(os.Getenv("PRESSROOM_KEEPER_BLOGS")); err == nil && s > 0 {
		n = s
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, discard{})
	coll := client.Database("pressroom").Collection("blogs")

	body := strings.Repeat("A paragraph of a blog body. ", 70) // ~2 KB
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for from := 0; from < n; from += 1000 {
		docs := make([]any, 0, 1000)
		for i := from; i < min(from+1000, n); i++ {
			docs = append(docs, keeperBlog(i, start, body))
		}
		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	createAppBlogIndexes(ctx, t, coll)

	var (
		mu     sync.Mutex
		writes []keeperWrite
		next   atomic.Int64
	)
	next.Store(int64(n))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				sent := time.Now()
				if w%2 == 0 {
					id := fmt.Sprintf("b_%06d", r.IntN(n))
					_, err = coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
						bson.D{{Key: "$set", Value: bson.D{{Key: "updatedAt", Value: time.Now()}}}})
				} else {
					_, err = coll.InsertOne(ctx, keeperBlog(int(next.Add(1)), start, body))
				}
				mu.Lock()
				writes = append(writes, keeperWrite{end: time.Now(), took: time.Since(sent), err: err})
				mu.Unlock()
			}
		}()
	}

	time.Sleep(200 * time.Millisecond) // the writers are under way
	file := dir + "/pressroom.sqlite"
	db, err := openDataFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	began := time.Now()
	created, err := ensureIDIndexesIn(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	changed, err := ensureExactIndexesIn(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	again, err := ensureExactIndexesIn(ctx, db)
	close(stop)
	wg.Wait()
	if err != nil || len(again) != 0 {
		t.Fatalf("a second pass changed %v (%v): the first did not finish its work", again, err)
	}

	statements := len(created) + len(changed) // one turn each: an index, or an element table's transaction
	var during, failed int
	var longest time.Duration
	for _, w := range writes {
		if w.err != nil {
			failed++
			if failed <= 3 {
				t.Errorf("a write failed while the keeper built: %v", w.err)
			}
		}
		if w.end.After(began) {
			longest = max(longest, w.took) // a write sent before the build ended
		}
		if w.end.After(began) && w.end.Before(ended) {
			during++
		}
	}
	t.Logf("%d blogs: the keeper ran %d statements in %v; %d writes ended meanwhile; the longest write took %v, %d in all, %d failed",
		n, statements, ended.Sub(began).Round(time.Millisecond), during, longest.Round(time.Millisecond), len(writes), failed)
	if during < statements/2 {
		t.Errorf("%d writes ended during the keeper's %d statements: writes waited for the build instead of taking turns", during, statements)
	}
}

// keeperBlog is the i-th blog of the keeper's test: the fields the app's blog indexes name.
func keeperBlog(i int, start time.Time, body string) bson.D {
	doc := benchBlog(i, start, body)
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	word := fmt.Sprintf("w%d", i%50)
	return append(doc,
		e("authorIds", bson.A{fmt.Sprintf("usr_%d", i%5)}), e("featured", i%20 == 0),
		e("textTerms", bson.A{"title", word}), e("searchTerms", bson.A{"title", word, "post"}),
		e("titleKey", "a title"), e("mediaIds", bson.A{}), e("feedPending", false),
		e("previewPending", false), e("webhookPending", false), e("dueAt", nil))
}

package main

// Proof for the statement journals kept in memory (README.md, "Statement journals in memory";
// stmt_journal.go): with SQLite's own threshold a blog's write moves its statement journal to a
// temporary file (more write system calls), with the launcher's it does not, and the answers are
// the same.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/bson"
)

// writeSyscalls returns the write system calls process pid has made (/proc/<pid>/io's syscw).
func writeSyscalls(t *testing.T, pid int) int {
	t.Helper()
	io, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Skipf("no /proc/<pid>/io here: %v", err)
	}
	for line := range strings.SplitSeq(string(io), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no syscw in /proc/%d/io", pid)
	return 0
}

// blogWrites inserts n blogs of the app's shape into a collection with the app's blog indexes
// (and, once the keeper made it, the tags element table), then updates each by a compare-and-set
// on its revision, and returns the write system calls the launcher made for those 2n writes and
// the titles read back.
func blogWrites(ctx context.Context, t *testing.T, bin string, n int, flags ...string) (int, []string) {
	t.Helper()
	srv := startLauncher(ctx, t, bin, t.TempDir(), flags...)
	client := connectLauncher(ctx, t, srv.uri)
	blogs := client.Database("app").Collection("blogs")
	createAppBlogIndexes(ctx, t, blogs)
	body := strings.Repeat("Lorem ipsum dolor sit amet. ", 73) // ~2 KB
	doc := func(i int) bson.D {
		return bson.D{
			{Key: "_id", Value: fmt.Sprintf("b_%06d", i)}, {Key: "workspaceId", Value: "ws_0"},
			{Key: "status", Value: "released"}, {Key: "slug", Value: fmt.Sprintf("post-%d", i)},
			{Key: "title", Value: "A title"}, {Key: "bodyMarkdown", Value: body}, {Key: "bodyHtml", Value: body},
			{Key: "tags", Value: bson.A{"a", fmt.Sprintf("t%d", i%7)}}, {Key: "revision", Value: 1},
			{Key: "createdAt", Value: time.UnixMilli(int64(i))}, {Key: "updatedAt", Value: time.UnixMilli(int64(i))},
			{Key: "releasedAt", Value: time.UnixMilli(int64(i))},
		}
	}
	// Enough blogs for the tables and indexes to span pages, and the keeper's pass (a second).
	for i := range 300 {
		if _, err := blogs.InsertOne(ctx, doc(1_000_000+i)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2500 * time.Millisecond)

	pid := srv.cmd.Process.Pid
	before := writeSyscalls(t, pid)
	for i := range n {
		if _, err := blogs.InsertOne(ctx, doc(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		filter := bson.D{{Key: "_id", Value: fmt.Sprintf("b_%06d", i)}, {Key: "revision", Value: 1}}
		update := bson.D{{Key: "$set", Value: bson.D{{Key: "title", Value: fmt.Sprintf("Title %d", i)}, {Key: "revision", Value: 2}}}}
		if res, err := blogs.UpdateOne(ctx, filter, update); err != nil || res.ModifiedCount != 1 {
			t.Fatalf("update %d: %v %v", i, res, err)
		}
	}
	writes := writeSyscalls(t, pid) - before

	var titles []string
	cur, err := blogs.Find(ctx, bson.D{{Key: "revision", Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Title string `bson:"title"`
	}
	if err = cur.All(ctx, &got); err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		titles = append(titles, g.Title)
	}
	return writes, titles
}

func TestBlogWritesKeepTheirStatementJournalInMemory(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard only
	defer cancel()
	bin := buildLauncher(ctx, t)
	const n = 100

	kept, keptTitles := blogWrites(ctx, t, bin, n)
	spilled, spilledTitles := blogWrites(ctx, t, bin, n, "-statement-journal-spill=65536")
	t.Logf("write system calls for %d inserts and %d updates of blogs: %d with the launcher's threshold, %d with SQLite's 64 KiB",
		n, n, kept, spilled)

	if len(keptTitles) != n || fmt.Sprint(keptTitles) != fmt.Sprint(spilledTitles) {
		t.Fatalf("the two launchers answered differently: %d and %d titles", len(keptTitles), len(spilledTitles))
	}
	// A spilled journal is at least one more write per statement (the memory's content, then
	// each page to the file); SQLite's own threshold must spill most of the 2n writes, or the
	// comparison shows nothing.
	if spilled-kept < n {
		t.Fatalf("write system calls: %d kept in memory, %d with SQLite's threshold: the launcher's threshold changed nothing", kept, spilled)
	}
}

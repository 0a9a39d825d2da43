package main

// The admin dashboard's counts (blogs/editor-list.ts `editorCounts`: drafts and released of one
// workspace, two countDocuments at once, with and without a search) in a workspace of N blogs,
// counted by SELECT COUNT(*) and, in the same run on the same file, as the patch did before:
// the exact pushdown's rows decoded and counted in Go (ferretdb.SetExactCounts(false)); and by
// SELECT COUNT(*) never driven by a word's list, driven under the default cap, and always driven
// (ferretdb.SetDriverCap):
//
//	PRESSROOM_BENCH_COUNT_BLOGS=50000 go test -run TestCountFigures -v -timeout 30m .
//
// Skipped unless PRESSROOM_BENCH_COUNT_BLOGS is set. Prints p50 (median), min and max; asserts
// the counts agree and that the new ones are SELECT COUNT(*), nothing about time.

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
)

// countBenchBlog is the i-th blog of the count figures, shaped as blogs-store.ts stores them
// (~2 KB body, its HTML, 2-3 tags, the admin search's searchTerms and titleKey): workspace ws_0
// holds blogs 0..n-1, 4 in 10 drafts, 5 released, 1 removed; "release" is in a fifth of the
// titles, "security" in another fifth.
func countBenchBlog(i int, ws string, start time.Time, body string) bson.D {
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	at := start.Add(time.Duration(i) * time.Minute)
	status := []string{"draft", "draft", "draft", "draft", "released", "released", "released", "released", "released", "removed"}[i%10]
	var releasedAt, removedAt any
	if status != "draft" {
		releasedAt = at.Add(time.Hour)
	}
	if status == "removed" {
		removedAt = at.Add(2 * time.Hour)
	}
	title, slug := blogTitle(i), fmt.Sprintf("post-%d", i)
	tags := bson.A{fmt.Sprintf("topic-%d", i%7), fmt.Sprintf("kind-%d", i%3)}
	if i%10 == 0 {
		tags = append(tags, "common")
	}
	return bson.D{
		e("_id", fmt.Sprintf("b_%s_%06d", ws, i)), e("workspaceId", ws), e("status", status),
		e("slug", slug), e("title", title), e("excerpt", "An excerpt of the body."),
		e("bodyMarkdown", body), e("bodyHtml", "<p>"+body+"</p>"), e("tags", tags),
		e("authorName", "A. Writer"), e("coverImageUrl", nil),
		e("createdAt", at), e("updatedAt", at), e("releasedAt", releasedAt), e("removedAt", removedAt),
		e("revision", fmt.Sprintf("r_%06d", i)), e("feedPending", false),
		e("searchTerms", searchTermsOf(title, slug, tags)), e("titleKey", strings.ToLower(title)),
	}
}

func TestCountFigures(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_COUNT_BLOGS"))
	if n <= 0 {
		t.Skip("set PRESSROOM_BENCH_COUNT_BLOGS")
	}
	ctx := context.Background()
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	body := strings.Repeat("Lorem ipsum dolor sit amet. ", 36) // ~1 KB, and as much again as HTML

	// Seed ws_0 with n blogs and another workspace with a tenth as many.
	t0 := time.Now()
	func() {
		sub, stop := context.WithCancel(ctx)
		defer stop()
		blogs := startFerretUntil(sub, t, dir, true).Database("app").Collection("blogs")
		createAppBlogIndexes(ctx, t, blogs)
		for _, w := range []struct {
			ws string
			n  int
		}{{"ws_0", n}, {"ws_1", n / 10}} {
			var batch []any
			for i := range w.n {
				batch = append(batch, countBenchBlog(i, w.ws, start, body))
				if len(batch) == 500 || i == w.n-1 {
					if _, err := blogs.InsertMany(ctx, batch); err != nil {
						t.Fatal(err)
					}
					batch = nil
				}
			}
		}
	}()
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	t.Logf("seeded %d + %d blogs, indexes and element tables made, in %.0f s", n, n/10, time.Since(t0).Seconds())

	// The dashboard's two counts (editor-list.ts editorFilter), run at once as editorCounts does.
	filter := func(status string, words ...string) bson.D {
		f := bson.D{{Key: "workspaceId", Value: "ws_0"}, {Key: "status", Value: status}}
		if len(words) > 0 {
			and := bson.A{}
			for _, w := range words {
				and = append(and, bson.D{{Key: "searchTerms", Value: w}})
			}
			f = append(f, bson.E{Key: "$and", Value: and})
		}
		return f
	}
	dashboard := func(blogs *mongo.Collection, words ...string) (string, error) {
		var wg sync.WaitGroup
		var counts [2]int64
		var errs [2]error
		for j, status := range []string{"draft", "released"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				counts[j], errs[j] = blogs.CountDocuments(ctx, filter(status, words...))
			}()
		}
		wg.Wait()
		if errs[0] != nil {
			return "", errs[0]
		}
		return fmt.Sprintf("%d drafts, %d released", counts[0], counts[1]), errs[1]
	}
	shapes := []struct {
		name  string
		words []string
	}{
		{"no search", nil},
		{"search one word `rel` (a fifth of titles)", []string{"rel"}},
		{"search two words `security advisory`", []string{"security", "advisory"}},
		{"search a rare word `post-1234` (`post`, `1234`)", []string{"post", "1234"}},
		{"search a rare word alone `1234`", []string{"1234"}},
	}

	// The ways of counting compared, in this order: each shape's answer must be the same in all.
	modes := []struct {
		name      string
		exact     bool
		driverCap int64
		runs      int
	}{
		{"before: matching rows decoded and counted in Go", false, 64, 5},
		{"SELECT COUNT(*), never driven by a list (cap 0)", true, 0, 41},
		{"SELECT COUNT(*), driven by a word's list under 64 (the default)", true, 64, 41},
		{"SELECT COUNT(*), driven by the shortest word's list, however long", true, 1 << 20, 9},
	}
	set := func(i int) {
		ferretdb.SetExactCounts(modes[i].exact)
		ferretdb.SetDriverCap(modes[i].driverCap)
	}
	defer set(2)

	// Which SQL answers each shape, through a server that logs it (a few runs); then the
	// figures, through one that does not (logging at debug level costs time).
	log := &sqlLog{}
	logged := startFerret(ctx, t, dir, true, log).Database("app").Collection("blogs")
	answers := map[string]string{}
	check := func(name, got string) {
		if prev, ok := answers[name]; ok && prev != got {
			t.Fatalf("%s: %s, before %s", name, got, prev)
		}
		answers[name] = got
	}
	for i, m := range modes {
		set(i)
		for _, s := range shapes {
			log.take()
			got, err := dashboard(logged, s.words...)
			if err != nil {
				t.Fatal(err)
			}
			check(s.name, got)
			countSQL, driven := 0, 0
			for _, q := range log.take() {
				if strings.HasPrefix(q.sql, "SELECT COUNT(*)") {
					countSQL++
					if strings.Contains(q.sql, "CROSS JOIN") {
						driven++
					}
				}
			}
			if want := map[bool]int{false: 0, true: 2}[m.exact]; countSQL != want {
				t.Fatalf("%s: %d SELECT COUNT(*), want %d (%s)", s.name, countSQL, want, m.name)
			}
			t.Logf("%s, %s: %d of %d counts driven by a list", m.name, s.name, driven, countSQL)
		}
	}

	sub, stop := context.WithCancel(ctx)
	defer stop()
	blogs := startFerretUntil(sub, t, dir, true).Database("app").Collection("blogs")
	lines := make([][]string, len(modes))
	for i, m := range modes {
		set(i)
		for _, s := range shapes {
			var times []time.Duration
			for range m.runs {
				t1 := time.Now()
				got, err := dashboard(blogs, s.words...)
				if err != nil {
					t.Fatal(err)
				}
				times = append(times, time.Since(t1))
				check(s.name, got)
			}
			slices.Sort(times)
			lines[i] = append(lines[i], fmt.Sprintf("%-50s %-26s p50 %8.1f ms  (min %.1f, max %.1f; %d runs)",
				s.name, answers[s.name], ms(times[len(times)/2]), ms(times[0]), ms(times[len(times)-1]), len(times)))
		}
	}
	t.Logf("the dashboard's counts (drafts and released of ws_0, two countDocuments at once), %d blogs in ws_0, %d in ws_1:", n, n/10)
	for i, m := range modes {
		t.Logf("%s:", m.name)
		for _, line := range lines[i] {
			t.Logf("  %s", line)
		}
	}
}

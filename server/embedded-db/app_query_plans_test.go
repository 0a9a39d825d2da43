package main

// Every query the app sends (server/src) is answered by an index search in the patched FerretDB:
// run through the driver against collections with the app's indexes and 2,000 documents each,
// the SQL it becomes (captured from FerretDB's debug log) is explained by SQLite. The test prints
// a table of the plans (README.md, "Plans").

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// chunkIDs is n blog IDs of the test's blogs, as a chunk of the app's lists (100 a clear or a page).
func chunkIDs(n int) bson.A {
	ids := bson.A{}
	for i := range n {
		ids = append(ids, fmt.Sprintf("b_%04d", 201+2*i))
	}
	return ids
}

// chunkVersions is the compare-and-sets of chunkIDs(n): `{_id, revision}` each.
func chunkVersions(n int) bson.A {
	branches := bson.A{}
	for i := range n {
		branches = append(branches, bson.D{{Key: "_id", Value: fmt.Sprintf("b_%04d", 201+2*i)}, {Key: "revision", Value: fmt.Sprintf("r_%04d", 201+2*i)}})
	}
	return branches
}

// appShape is one query shape of the app, run on one collection.
type appShape struct {
	coll, name string
	run        func(ctx context.Context, c *mongo.Collection) error
	// bounded says why a temporary B-tree in its plan sorts only a bounded set of rows (the ones
	// an index search selected); "" when the plan must have none.
	bounded string
	// fullRead marks the one shape that is meant to read its whole (small) collection.
	fullRead bool
	// firstRow marks a read of any one document (no filter, no sort, limit 1): GridFS's look for
	// a file before its bucket's first upload. Its SCAN stops at the table's first row.
	firstRow bool
	// index, when set, is the app index the read must search: for a filter whose other terms
	// would give an open _id range (`_id: {$gt: ""}` is a SEARCH of the whole _id index).
	index string
	// counts marks a countDocuments: its read must be a `SELECT COUNT(*)`; driven, one counted
	// from a word's list (its first step a search of an element table).
	counts, driven bool
	// grouped marks the tag counts' aggregate: its read must be the `GROUP BY` of a field's values.
	grouped bool
}

// tagCountsAggregate runs the pipeline of blogs/tag-counts.ts, which must be answered in SQL (a
// `GROUP BY` of the tags, not the aggregate's stages in Go over every matched blog) and count
// some tags.
func tagCountsAggregate(match bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		before := ferretdb.UnwindCountsAnswered()
		cur, err := c.Aggregate(ctx, bson.A{
			bson.D{{Key: "$match", Value: match}},
			bson.D{{Key: "$project", Value: bson.D{{Key: "tags", Value: 1}}}},
			bson.D{{Key: "$unwind", Value: "$tags"}},
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tags"}, {Key: "count", Value: bson.D{{Key: "$sum", Value: 1}}}}}},
		})
		if err != nil {
			return err
		}
		var docs []bson.Raw
		if err = cur.All(ctx, &docs); err != nil {
			return err
		}
		if len(docs) == 0 {
			return fmt.Errorf("the tag counts of %v are empty (the shape must count some)", match)
		}
		if ferretdb.UnwindCountsAnswered() == before {
			return fmt.Errorf("the tag counts of %v were not answered in SQL", match)
		}
		return nil
	}
}

func find(filter bson.D, opts ...*options.FindOptions) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		cur, err := c.Find(ctx, filter, opts...)
		if err != nil {
			return err
		}
		var docs []bson.Raw
		return cur.All(ctx, &docs)
	}
}

func findOne(filter bson.D, opts ...*options.FindOneOptions) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		err := c.FindOne(ctx, filter, opts...).Err()
		if err == mongo.ErrNoDocuments {
			return fmt.Errorf("findOne(%v): no document (the shape must find one)", filter)
		}
		return err
	}
}

func updateOne(filter, update bson.D, wantMatched int64) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		res, err := c.UpdateOne(ctx, filter, update)
		if err == nil && res.MatchedCount != wantMatched {
			err = fmt.Errorf("updateOne(%v) matched %d, want %d", filter, res.MatchedCount, wantMatched)
		}
		return err
	}
}

func findOneAndUpdate(filter, update bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		err := c.FindOneAndUpdate(ctx, filter, update).Err()
		if err == mongo.ErrNoDocuments {
			return fmt.Errorf("findOneAndUpdate(%v): no document (the shape must find one)", filter)
		}
		return err
	}
}

func updateMany(filter, update bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		_, err := c.UpdateMany(ctx, filter, update)
		return err
	}
}

func countDocuments(filter bson.D, opts ...*options.CountOptions) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		_, err := c.CountDocuments(ctx, filter, opts...)
		return err
	}
}

func findOneAndDelete(filter bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		err := c.FindOneAndDelete(ctx, filter).Err()
		if err == mongo.ErrNoDocuments {
			return fmt.Errorf("findOneAndDelete(%v): no document (the shape must find one)", filter)
		}
		return err
	}
}

func deleteOne(filter bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		_, err := c.DeleteOne(ctx, filter)
		return err
	}
}

func deleteMany(filter bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		_, err := c.DeleteMany(ctx, filter)
		return err
	}
}

func upsert(filter, update bson.D) func(context.Context, *mongo.Collection) error {
	return func(ctx context.Context, c *mongo.Collection) error {
		_, err := c.UpdateOne(ctx, filter, update, options.Update().SetUpsert(true))
		return err
	}
}

// appStart is the time the seeded documents are made around.
var appStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return appStart.Add(time.Duration(minutes) * time.Minute) }

// appShapes lists the queries of server/src: blogs/blogs-store.ts, workspaces/workspaces-store.ts,
// keys/keys-store.ts, keys/key-roll.ts, keys/expiry-sweeper.ts, limits/rate-limit-settings.ts,
// audit/audit-log.ts, workspaces/owner-guard.ts, invitations/invitations-store.ts,
// users/users-store.ts, users/password-reset-links.ts, users/email-change-links.ts,
// tokens/access-tokens-store.ts,
// sessions/sessions-store.ts, platform/db/ttl-sweeper.ts,
// sessions/sign-in-throttle.ts, blogs/blog-writes.ts and webhooks/ (endpoints-store.ts,
// outbox-relay.ts, delivery-worker.ts, attempt-claims.ts, endpoint-health.ts, delivery-log.ts,
// manual-deliveries.ts, retention.ts), media/ (media-store.ts, media-files.ts with the MongoDB
// driver's GridFSBucket calls it makes, library-lookup.ts, media-usage.ts),
// blogs/staged-media-migration.ts, blogs/blog-authors.ts and transfer/ (export-workspace.ts,
// store-image-library.ts), with values that select seeded documents (seedApp).
func appShapes() []appShape {
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	d := func(es ...bson.E) bson.D { return es }
	desc := func(f string) bson.D { return d(e(f, -1), e("_id", -1)) }
	asc := func(f string) bson.D { return d(e(f, 1), e("_id", 1)) }
	page := func(sort bson.D) *options.FindOptions { return options.Find().SetSort(sort).SetLimit(21) }
	cursor := func(filter bson.D, f string, minute int, id string) bson.D {
		return append(append(bson.D{}, filter...), e("$or", bson.A{
			d(e(f, d(e("$lt", at(minute))))),
			d(e(f, at(minute)), e("_id", d(e("$lt", id)))),
		}))
	}
	released := d(e("workspaceId", "ws_0000"), e("status", "released"))
	tagged := func(tags ...any) bson.D {
		return append(append(bson.D{}, released...), e("tags", d(e("$in", bson.A(tags)))))
	}
	featured := func(yes bool) bson.D {
		if yes {
			return append(append(bson.D{}, released...), e("featured", true))
		}
		return append(append(bson.D{}, released...), e("featured", d(e("$ne", true))))
	}
	byAuthor := func(id string) bson.D {
		return append(append(bson.D{}, released...), e("authorIds", id))
	}
	ranged := func(filter bson.D, from, before int) bson.D {
		r := d(e("$gte", at(from)))
		if before >= 0 {
			r = append(r, e("$lt", at(before)))
		}
		return append(append(bson.D{}, filter...), e("releasedAt", r))
	}
	ascCursor := func(filter bson.D, f string, v any, id string) bson.D {
		return append(append(bson.D{}, filter...), e("$or", bson.A{
			d(e(f, d(e("$gt", v)))),
			d(e(f, v), e("_id", d(e("$gt", id)))),
		}))
	}
	// the consumer search (`q=`): every word but the last equal to a term of textTerms, the last a
	// prefix, an $elemMatch of the range [prefix, prefix with its last code point + 1)
	prefixOf := func(p string) bson.D {
		return d(e("textTerms", d(e("$elemMatch", d(e("$gte", p), e("$lt", prefixUpper(p)))))))
	}
	textSearch := func(prefix string, words ...string) bson.D {
		if len(words) == 0 {
			return append(append(bson.D{}, released...), prefixOf(prefix)...)
		}
		all := bson.A{}
		for _, w := range words {
			all = append(all, d(e("textTerms", w)))
		}
		return append(append(bson.D{}, released...), e("$and", append(all, prefixOf(prefix))))
	}
	editors := d(e("workspaceId", "ws_0000"), e("status", d(e("$in", bson.A{"draft", "released"}))))
	// the admin search (editor-list.ts `editorFilter`): one `searchTerms` equality per word
	words := func(terms ...string) bson.A {
		all := bson.A{}
		for _, term := range terms {
			all = append(all, d(e("searchTerms", term)))
		}
		return all
	}
	searched := func(terms ...string) bson.D {
		return append(append(bson.D{}, editors...), e("$and", words(terms...)))
	}
	drafts := d(e("workspaceId", "ws_0000"), e("status", "draft"))
	searchedDrafts := func(terms ...string) bson.D {
		return append(append(bson.D{}, drafts...), e("$and", words(terms...)))
	}
	validators := d(e("_id", 1), e("updatedAt", 1), e("releasedAt", 1), e("revision", 1))
	// `fields=id,slug,title` (field-selection.ts): the validators plus the stored fields selected.
	fieldsIDSlugTitle := append(append(bson.D{}, validators...), e("slug", 1), e("title", 1))
	live := d(e("$gt", at(0)))
	const small = "the documents of one email, address or user: a few"
	relayPage := options.Find().SetSort(d(e("webhookPending", 1), e("_id", 1))).SetLimit(100).
		SetProjection(d(e("_id", 1), e("workspaceId", 1), e("updatedAt", 1), e("revision", 1), e("webhookOutbox", 1)))
	dueOrder := options.Find().SetSort(d(e("state", 1), e("nextAttemptAt", 1), e("_id", 1))).SetLimit(50)
	return []appShape{
		// blogs (blogs-store.ts)
		{coll: "blogs", name: "consumer list, first page", run: find(released, page(desc("releasedAt")))},
		{coll: "blogs", name: "consumer list, deep cursor page (near the end)", run: find(cursor(released, "releasedAt", 10, "b_0010"), page(desc("releasedAt")))},
		{coll: "blogs", name: "304 validators, first page", run: find(released, page(desc("releasedAt")).SetProjection(validators))},
		{coll: "blogs", name: "304 validators, deep cursor page", run: find(cursor(released, "releasedAt", 10, "b_0010"), page(desc("releasedAt")).SetProjection(validators))},
		{coll: "blogs", name: "consumer list `fields=id,slug,title` projection, first page", run: find(released, page(desc("releasedAt")).SetProjection(fieldsIDSlugTitle))},
		{coll: "blogs", name: "consumer list `fields=id,slug,title` projection, deep cursor page", run: find(cursor(released, "releasedAt", 10, "b_0010"), page(desc("releasedAt")).SetProjection(fieldsIDSlugTitle))},
		// the tag filter: `tags: {$in}` on released blogs, through the tags element table
		{coll: "blogs", name: "tag page, one tag (on 10% of blogs), first page", run: find(tagged("t2"), page(desc("releasedAt")))},
		{coll: "blogs", name: "tag page, one tag, keyset page", run: find(cursor(tagged("t2"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "tag page, several tags, first page", run: find(tagged("t2", "t6", "rare"), page(desc("releasedAt")))},
		{coll: "blogs", name: "tag page, several tags, keyset page", run: find(cursor(tagged("t2", "t6", "rare"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "tag page, a rare tag (0.1% of blogs), first page, started from the tag's list", bounded: "the blogs with the rare tag, a list of under 64 (pressroom_exact_driver.go)", run: find(tagged("rare"), page(desc("releasedAt")))},
		{coll: "blogs", name: "tag page, a rare tag, keyset page, started from the tag's list", bounded: "the blogs with the rare tag, a list of under 64", run: find(cursor(tagged("rare"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		// the list by author (blogs/list-filter.ts `author`), as by one tag
		{coll: "blogs", name: "author page, a common author (on a sixth of blogs), first page", run: find(byAuthor("au_0002"), page(desc("releasedAt")))},
		{coll: "blogs", name: "author page, a common author, keyset page", run: find(cursor(byAuthor("au_0002"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "author page, a rare author (0.1% of blogs), first page, started from the author's list", bounded: "the blogs naming the rare author, a list of under 64", run: find(byAuthor("au_rare"), page(desc("releasedAt")))},
		{coll: "blogs", name: "author page with a tag, keyset page", run: find(cursor(append(byAuthor("au_0002"), e("tags", d(e("$in", bson.A{"t2"})))), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "author page 304: validators + authorIds projection", run: find(byAuthor("au_0002"), page(desc("releasedAt")).SetProjection(d(e("_id", 1), e("updatedAt", 1), e("releasedAt", 1), e("revision", 1), e("authorIds", 1))))},
		{coll: "blogs", name: "tag page `fields=id,slug,title` projection, keyset page", run: find(cursor(tagged("t2"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")).SetProjection(fieldsIDSlugTitle))},
		// the consumer search `q=` (textTerms, an $elemMatch of the last word's prefix range)
		{coll: "blogs", name: "search `q=t`, one word, a common prefix (every blog), first page", run: find(textSearch("t"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=t`, keyset page", run: find(cursor(textSearch("t"), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=zyx`, one word, a rare prefix (two blogs), started from its list", bounded: "the blogs with a word of the rare prefix, a list of under 64", run: find(textSearch("zyx"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=release t`, two words (a fifth of blogs; every blog), first page", run: find(textSearch("t", "release"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=release t`, keyset page, with a tag", run: find(cursor(append(textSearch("t", "release"), e("tags", d(e("$in", bson.A{"t2"})))), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=a zyx`, a word of every blog and a rare prefix, started from its list", bounded: "the blogs with a word of the rare prefix, a list of under 64", run: find(textSearch("zyx", "a"), page(desc("releasedAt")))},
		{coll: "blogs", name: "search `q=notes z`, a rare word's prefix beside a common word, limit 101", bounded: "the blogs with a word of the rare prefix, a list of under 64", run: find(textSearch("z", "notes"), page(desc("releasedAt")).SetLimit(101))},
		{coll: "blogs", name: "search `q=release t` with a tag, an author, featured and an archive range, keyset page", run: find(cursor(ranged(append(textSearch("t", "release"), e("tags", d(e("$in", bson.A{"t2", "t3"}))), e("authorIds", "au_0002"), e("featured", false)), 100, 1900), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{counts: true, coll: "blogs", name: "search count `countDocuments` of `q=t`", run: countDocuments(textSearch("t"))},
		{counts: true, coll: "blogs", name: "search count of `q=release t`", run: countDocuments(textSearch("t", "release"))},
		{counts: true, driven: true, coll: "blogs", name: "search count of `q=a zyx`, counted from the rare prefix's list", bounded: "the distinct blogs of the rare prefix's list, under 64 rows", run: countDocuments(textSearch("zyx", "a"))},
		// featured and the archive range (blogs/list-filter.ts `releasedFilter`)
		{coll: "blogs", name: "featured page `featured: true` (on 4% of blogs), first page", run: find(featured(true), page(desc("releasedAt")))},
		{coll: "blogs", name: "featured page, keyset page", run: find(cursor(featured(true), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "not featured `featured: {$ne: true}`, first page", run: find(featured(false), page(desc("releasedAt")))},
		{coll: "blogs", name: "not featured, keyset page", run: find(cursor(featured(false), "releasedAt", 1802, "b_1802"), page(desc("releasedAt")))},
		{coll: "blogs", name: "archive range `releasedAt: {$gte, $lt}`, first page", run: find(ranged(released, 400, 1400), page(desc("releasedAt")))},
		{coll: "blogs", name: "archive range, keyset page", run: find(cursor(ranged(released, 400, 1400), "releasedAt", 1002, "b_1002"), page(desc("releasedAt")))},
		{coll: "blogs", name: "archive range, `releasedAt: {$gte}` alone, 304 validators", run: find(ranged(released, 400, -1), page(desc("releasedAt")).SetProjection(validators))},
		{coll: "blogs", name: "archive range of a tag page, keyset page", run: find(cursor(ranged(tagged("t2"), 400, 1400), "releasedAt", 1002, "b_1002"), page(desc("releasedAt")))},
		{coll: "blogs", name: "archive range of the featured page", run: find(ranged(featured(true), 400, 1400), page(desc("releasedAt")))},
		{coll: "blogs", name: "get `{_id, workspaceId, status: {$ne: removed}}`", run: findOne(d(e("_id", "b_0010"), e("workspaceId", "ws_0000"), e("status", d(e("$ne", "removed")))))},
		{coll: "blogs", name: "released blog `findOne({_id})`", run: findOne(d(e("_id", "b_0010")))},
		{coll: "blogs", name: "released validator `findOne({_id})` + projection", run: findOne(d(e("_id", "b_0010")), options.FindOne().SetProjection(d(e("_id", 1), e("updatedAt", 1), e("releasedAt", 1), e("revision", 1), e("workspaceId", 1), e("status", 1))))},
		{coll: "blogs", name: "released blog `findOne({_id})` + `fields=title` projection", run: findOne(d(e("_id", "b_0010")), options.FindOne().SetProjection(append(append(bson.D{}, validators...), e("title", 1), e("workspaceId", 1), e("status", 1))))},
		{coll: "blogs", name: "editor list `status: {$in}`, first page", run: find(editors, page(desc("createdAt")))},
		{coll: "blogs", name: "editor list `status: {$in}`, deep cursor page", run: find(cursor(editors, "createdAt", 20, "b_0020"), page(desc("createdAt")))},
		{coll: "blogs", name: "editor list one status, first page", run: find(drafts, page(desc("createdAt")))},
		{coll: "blogs", name: "editor list one status, deep cursor page", run: find(cursor(drafts, "createdAt", 20, "b_0020"), page(desc("createdAt")))},
		{coll: "blogs", name: "all blogs of a workspace `{workspaceId}` by createdAt", run: find(d(e("workspaceId", "ws_0000")), options.Find().SetSort(desc("createdAt")))},
		{coll: "blogs", name: "get by slug `findOne({workspaceId, slug})`", run: findOne(d(e("workspaceId", "ws_0000"), e("slug", "post-10")))},
		{coll: "blogs", name: "get by slug, validator `findOne({workspaceId, slug})` + projection", run: findOne(d(e("workspaceId", "ws_0000"), e("slug", "post-10")), options.FindOne().SetProjection(d(e("_id", 1), e("updatedAt", 1), e("releasedAt", 1), e("revision", 1), e("workspaceId", 1), e("status", 1))))},
		// pending changes (blogs/blog-staging.ts): a page's content by _id; dropped by _id; a removal's
		{coll: "blogStaged", name: "pending changes of a page's blogs `find({_id: {$in}})`", run: find(d(e("_id", d(e("$in", bson.A{"b_0013:s_0013", "b_0213:s_0213", "b_1013:s_1013"}))))), bounded: "the pending changes of one page's blogs: at most 100"},
		{coll: "blogStaged", name: "drop a version `deleteOne({_id})`", run: deleteOne(d(e("_id", "b_0033:s_0033")))},
		{coll: "blogStaged", name: "a removed blog's `deleteMany({workspaceId, blogId})`", run: deleteMany(d(e("workspaceId", "ws_0001"), e("blogId", "b_0053")))},
		// the preview perspective (preview/preview-reads.ts)
		{coll: "blogs", name: "preview: get by slug `findOne({workspaceId, slug, status: {$ne: removed}})`", run: findOne(d(e("workspaceId", "ws_0000"), e("slug", "post-10"), e("status", d(e("$ne", "removed")))))},
		{coll: "blogStaged", name: "preview: a slug as edited `find({workspaceId, slug})` + projection", run: find(d(e("workspaceId", "ws_0001"), e("slug", "post-13-next")), options.Find().SetProjection(d(e("blogId", 1), e("revision", 1))))},
		{coll: "blogs", name: "preview: those blogs `find({_id: {$in}, workspaceId, status: released})`", run: find(d(e("_id", d(e("$in", bson.A{"b_0013", "b_0213"}))), e("workspaceId", "ws_0001"), e("status", "released"))), bounded: "the blogs whose pending changes have the slug: one or two"},
		{coll: "blogStaged", name: "preview tags: a workspace's pending changes `find({workspaceId})` + projection", run: find(d(e("workspaceId", "ws_0001")), options.Find().SetProjection(d(e("blogId", 1), e("revision", 1), e("tags", 1)))), bounded: "the pending changes of one workspace, in stored order: one per blog with pending changes (few)"},
		{coll: "blogs", name: "preview tags: their blogs `find({_id: {$in}})` + projection", run: find(d(e("_id", d(e("$in", bson.A{"b_0013", "b_0213", "b_1013"})))), options.Find().SetProjection(d(e("_id", 1), e("workspaceId", 1), e("status", 1), e("tags", 1), e("staged", 1)))), bounded: "the blogs with pending changes of one workspace: few"},
		{grouped: true, coll: "blogs", name: "preview tag counts `aggregate([{$match: {workspaceId, status: {$in: [draft, released]}}}, …$group])`", run: tagCountsAggregate(editors), bounded: "the distinct tags of one workspace's drafts and released blogs"},
		// history (blogs/blog-history.ts)
		{coll: "blogRevisions", name: "history page `{workspaceId, blogId}` by at desc, _id desc, limit 21, projection", run: find(d(e("workspaceId", "ws_0000"), e("blogId", "b_0010")), page(desc("at")).SetProjection(d(e("content.excerpt", 0), e("content.bodyMarkdown", 0), e("content.tags", 0), e("content.authorName", 0), e("content.coverImageUrl", 0), e("content.coverImageAlt", 0), e("content.featured", 0), e("content.metaTitle", 0), e("content.metaDescription", 0), e("content.canonicalUrl", 0), e("content.socialImageUrl", 0))))},
		{coll: "blogRevisions", name: "history keyset page", run: find(cursor(d(e("workspaceId", "ws_0000"), e("blogId", "b_0010")), "at", 1010, "rev_1010"), page(desc("at")))},
		{coll: "blogRevisions", name: "a revision `findOne({_id, workspaceId, blogId})`", run: findOne(d(e("_id", "rev_0110"), e("workspaceId", "ws_0000"), e("blogId", "b_0010")))},
		{counts: true, coll: "blogRevisions", name: "prune: `countDocuments({workspaceId, blogId})`", run: countDocuments(d(e("workspaceId", "ws_0000"), e("blogId", "b_0012")))},
		{coll: "blogRevisions", name: "prune: the oldest `find({workspaceId, blogId})` by at, _id, limit, projection", run: find(d(e("workspaceId", "ws_0000"), e("blogId", "b_0012")), options.Find().SetSort(asc("at")).SetLimit(3).SetProjection(d(e("_id", 1))))},
		{coll: "blogRevisions", name: "prune: `deleteMany({workspaceId, blogId, _id: {$in}})`", run: deleteMany(d(e("workspaceId", "ws_0000"), e("blogId", "b_0012"), e("_id", d(e("$in", bson.A{"rev_0012", "rev_0112"})))))},
		{coll: "blogRevisions", name: "a removed blog's `deleteMany({workspaceId, blogId})`", run: deleteMany(d(e("workspaceId", "ws_0001"), e("blogId", "b_0015")))},
		// schedules (blogs/blog-scheduler.ts): one look, the blogs due up to 5 s ahead
		{coll: "blogs", name: "scheduler look `find({dueAt: {$lte}})` by dueAt, _id, limit 100, projection", run: find(d(e("dueAt", d(e("$lte", at(1000))))), options.Find().SetSort(asc("dueAt")).SetLimit(100).SetProjection(d(e("_id", 1), e("workspaceId", 1), e("dueAt", 1))))},
		{coll: "blogs", name: "compare-and-set `updateOne({_id, workspaceId, status, revision})`", run: updateOne(
			d(e("_id", "b_0006"), e("workspaceId", "ws_0000"), e("status", "released"), e("revision", "r_0006")),
			d(e("$set", d(e("title", "T2"), e("revision", "r_0006b")))), 1)},
		{coll: "blogs", name: "compare-and-set, blog without revision: `revision: {$exists: false}, updatedAt`", run: updateOne(
			d(e("_id", "b_0020"), e("workspaceId", "ws_0000"), e("status", "draft"), e("revision", d(e("$exists", false))), e("updatedAt", at(20))),
			d(e("$set", d(e("title", "T2"), e("revision", "r_0020b")))), 1)},
		// the changes feed (changes/change-log.ts, change-recorder.ts; blog-reads.ts listFeedPending, getMany)
		{coll: "blogs", name: "feed: marked blogs `{workspaceId, feedPending: true}` by _id, limit 500", run: find(d(e("workspaceId", "ws_0001"), e("feedPending", true)), options.Find().SetSort(d(e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1), e("updatedAt", 1), e("revision", 1))))},
		{coll: "blogs", name: "feed: clear the marks `updateMany({workspaceId, feedPending: true, _id: {$in}, $or: [{_id, revision}]})`", run: updateMany(
			d(e("workspaceId", "ws_0001"), e("feedPending", true), e("_id", d(e("$in", bson.A{"b_0201", "b_0203"}))),
				e("$or", bson.A{d(e("_id", "b_0201"), e("revision", "r_0201")), d(e("_id", "b_0203"), e("revision", "r_0203"))})),
			d(e("$set", d(e("feedPending", false)))))},
		{coll: "blogs", name: "feed: clear a chunk of 100 marks (an `_id` list of 100, an `$or` of 100 compare-and-sets)", run: updateMany(
			d(e("workspaceId", "ws_0001"), e("feedPending", true), e("_id", d(e("$in", chunkIDs(100)))), e("$or", chunkVersions(100))),
			d(e("$set", d(e("feedPending", false)))))},
		{coll: "blogs", name: "feed: recording ahead, the last marked blogs by _id, limit 250", run: find(d(e("workspaceId", "ws_0001"), e("feedPending", true)), options.Find().SetSort(d(e("_id", -1))).SetLimit(250).SetProjection(d(e("_id", 1), e("updatedAt", 1), e("revision", 1))))},
		{coll: "blogs", name: "preview feed: marked blogs `{workspaceId, previewPending: true}` by _id, limit 500", run: find(d(e("workspaceId", "ws_0000"), e("previewPending", true)), options.Find().SetSort(d(e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1), e("previewMark", 1))))},
		{coll: "blogs", name: "preview feed: recording ahead, the last marked blogs by _id, limit 250", run: find(d(e("workspaceId", "ws_0000"), e("previewPending", true)), options.Find().SetSort(d(e("_id", -1))).SetLimit(250).SetProjection(d(e("_id", 1), e("previewMark", 1))))},
		{coll: "blogs", name: "preview feed: clear the marks `updateMany({workspaceId, previewPending: true, _id: {$in}, $or: [{_id, previewMark}]})`", run: updateMany(
			d(e("workspaceId", "ws_0000"), e("previewPending", true), e("_id", d(e("$in", bson.A{"b_0002", "b_0102"}))), e("$or", bson.A{d(e("_id", "b_0002"), e("previewMark", "pm_0002")), d(e("_id", "b_0102"), e("previewMark", "pm_0102"))})),
			d(e("$set", d(e("previewPending", false)))))},
		{coll: "blogs", name: "feed: the blogs of a page `find({_id: {$in}})`", run: find(d(e("_id", d(e("$in", bson.A{"b_0010", "b_0201", "b_1999"}))))), bounded: "the blogs named by one page of entries: at most 100"},
		{coll: "blogs", name: "feed: the blogs of a full page `find({_id: {$in: [100 ids]}})`", run: find(d(e("_id", d(e("$in", chunkIDs(100)))))), bounded: "the blogs named by one page of entries: at most 100"},
		{coll: "changes", name: "feed: last number `{_id: {$gt: ws/, $lt: ws0}}` by _id desc, limit 1", run: find(d(e("_id", d(e("$gt", "ws_0001/"), e("$lt", "ws_00010")))), options.Find().SetSort(d(e("_id", -1))).SetLimit(1).SetProjection(d(e("_id", 1))))},
		{coll: "changes", name: "feed: entries after a number `{_id: {$gt, $lte}}` by _id, limit 100", run: find(d(e("_id", d(e("$gt", entryID("ws_0001", 500)), e("$lte", entryID("ws_0001", 999))))), options.Find().SetSort(d(e("_id", 1))).SetLimit(100))},
		{coll: "blogs", name: "feed walk: places and marks `{workspaceId, status: released}` by releasedAt desc, limit 501, projection", run: find(released, options.Find().SetSort(d(e("releasedAt", -1), e("_id", -1))).SetLimit(501).SetProjection(d(e("_id", 1), e("releasedAt", 1), e("feedPending", 1), e("revision", 1))))},
		{coll: "blogs", name: "feed walk: places and marks, keyset page", run: find(cursor(released, "releasedAt", 10, "b_0010"), options.Find().SetSort(d(e("releasedAt", -1), e("_id", -1))).SetLimit(501).SetProjection(d(e("_id", 1), e("releasedAt", 1), e("feedPending", 1), e("revision", 1))))},
		{coll: "changes", name: "feed walk: the entries of some blogs `{blogId: {$in}, workspaceId}` + projection", run: find(d(e("blogId", d(e("$in", bson.A{"b_0010", "b_0201", "b_1999"}))), e("workspaceId", "ws_0001")), options.Find().SetProjection(d(e("_id", 1), e("blogId", 1), e("version", 1)))), bounded: "the entries of the blogs one read of a sync's walk examines (at most 500), within the retention"},
		{coll: "changes", name: "feed: purge `deleteMany({_id: {$gt, $lt}, at: {$lt}})`", run: deleteMany(d(e("_id", d(e("$gt", "ws_0000/"), e("$lt", entryID("ws_0000", 999)))), e("at", d(e("$lt", at(-1500))))))},
		{coll: "markers", name: "feed: token key `findOne({_id})`", run: findOne(d(e("_id", "changes-token-key")))},
		// the lease of recording a feed ahead (changes/ahead-leases.ts)
		{coll: "markers", name: "feed: take the lease to record ahead `updateOne({_id, at: {$lt}}, {$set}, {upsert})`", run: upsert(d(e("_id", "record-ahead/ws_0001"), e("at", d(e("$lt", at(5))))), d(e("$set", d(e("at", at(65)), e("value", "holder1")))))},
		{coll: "markers", name: "feed: keep the lease `updateOne({_id, value}, {$set: {at}})`", run: updateOne(d(e("_id", "record-ahead/ws_0001"), e("value", "holder1")), d(e("$set", d(e("at", at(70))))), 1)},
		{coll: "markers", name: "feed: give the lease back `deleteOne({_id, value})`", run: deleteOne(d(e("_id", "record-ahead/ws_0001"), e("value", "holder1")))},
		// the tags of a workspace (blogs/tag-counts.ts): one aggregate, its released blogs' tags grouped in SQL
		{grouped: true, coll: "blogs", name: "tag counts `aggregate([{$match: {workspaceId, status}}, {$project: {tags: 1}}, {$unwind: \"$tags\"}, {$group: {_id: \"$tags\", count: {$sum: 1}}}])`", run: tagCountsAggregate(released), bounded: "the distinct tags of one workspace's released blogs (grouped, then put in their order of first appearance)"},
		// the admin list's sorts, search and counts (blogs/editor-list.ts)
		{coll: "blogs", name: "editor list oldest first, first page", run: find(editors, page(asc("createdAt")))},
		{coll: "blogs", name: "editor list oldest first, deep cursor page", run: find(ascCursor(editors, "createdAt", at(1800), "b_1800"), page(asc("createdAt")))},
		{coll: "blogs", name: "editor list recently edited, first page", run: find(editors, page(desc("updatedAt")))},
		{coll: "blogs", name: "editor list recently edited, deep cursor page", run: find(cursor(editors, "updatedAt", 20, "b_0020"), page(desc("updatedAt")))},
		{coll: "blogs", name: "editor list title A–Z, first page", run: find(editors, page(asc("titleKey")))},
		{coll: "blogs", name: "editor list title A–Z, deep cursor page", run: find(ascCursor(editors, "titleKey", "weekly digest 90", "b_1000"), page(asc("titleKey")))},
		{coll: "blogs", name: "editor list one status, title A–Z, cursor page", run: find(ascCursor(drafts, "titleKey", "roadmap 3", "b_1000"), page(asc("titleKey")))},
		{coll: "blogs", name: "search one word (on a fifth of blogs), newest first, first page", run: find(searched("rel"), page(desc("createdAt")))},
		{coll: "blogs", name: "search two words, newest first, cursor page", run: find(cursor(searched("rel", "notes"), "createdAt", 1000, "b_1000"), page(desc("createdAt")))},
		{coll: "blogs", name: "search a rare word (one blog), newest first, started from its list", bounded: "the blogs with the rare word, a list of under 64", run: find(searched("post", "1234"), page(desc("createdAt")))},
		{coll: "blogs", name: "search one word, one status, oldest first, cursor page", run: find(ascCursor(searchedDrafts("we"), "createdAt", at(400), "b_0400"), page(asc("createdAt")))},
		{coll: "blogs", name: "search one word, recently edited, cursor page", run: find(cursor(searched("rel"), "updatedAt", 1000, "b_1000"), page(desc("updatedAt")))},
		{coll: "blogs", name: "search one word, title A–Z, cursor page", run: find(ascCursor(searched("rel"), "titleKey", "release notes 3", "b_1000"), page(asc("titleKey")))},
		// the admin list's counts (editor-list.ts `editorCounts`): drafts and released, with the search's words
		{counts: true, coll: "blogs", name: "counts: drafts `countDocuments({workspaceId, status})`", run: countDocuments(drafts)},
		{counts: true, coll: "blogs", name: "counts: released, same", run: countDocuments(released)},
		{counts: true, coll: "blogs", name: "counts with a search: `countDocuments({workspaceId, status, $and: [{searchTerms}…]})`", run: countDocuments(searchedDrafts("rel", "not"))},
		{counts: true, coll: "blogs", name: "counts with a search: released, one word", run: countDocuments(append(append(bson.D{}, released...), e("$and", words("rel"))))},
		{counts: true, driven: true, coll: "blogs", name: "counts with a search: released, a rare word (one blog) beside one of every blog, counted from the rare word's list", run: countDocuments(append(append(bson.D{}, released...), e("$and", words("post", "1234"))))},
		{coll: "blogs", name: "search fields fill: `{_id: {$gt}}` by _id, limit 500", run: find(d(e("_id", d(e("$gt", "b_1000")))), options.Find().SetSort(d(e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1), e("title", 1), e("slug", 1), e("tags", 1), e("revision", 1), e("updatedAt", 1), e("searchTerms", 1), e("titleKey", 1))))},
		{coll: "blogs", name: "search fields fill: compare-and-set `updateOne({_id, revision}, {$set: {searchTerms, titleKey}})`", run: updateOne(
			d(e("_id", "b_0025"), e("revision", "r_0025")),
			d(e("$set", d(e("searchTerms", searchTermsOf(blogTitle(25), "post-25", blogTags(25))), e("titleKey", strings.ToLower(blogTitle(25)))))), 1)},
		// the one-time rewrite of stored tags (blogs/tag-migration.ts): every blog, 500 at a time by _id
		{coll: "blogs", name: "tag rewrite: `{_id: {$gt}}` by _id, limit 500", run: find(d(e("_id", d(e("$gt", "b_1000")))), options.Find().SetSort(d(e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1), e("tags", 1), e("revision", 1), e("updatedAt", 1), e("status", 1))))},
		// workspaces (blogs-store.ts, keys-store.ts, workspaces-store.ts, users-store.ts)
		{counts: true, coll: "workspaces", name: "exists `countDocuments({_id}, {limit: 1})`", run: countDocuments(d(e("_id", "ws_0010")), options.Count().SetLimit(1))},
		{coll: "workspaces", name: "a user's workspaces `{_id: {$in}}` by createdAt", run: find(d(e("_id", d(e("$in", bson.A{"ws_0001", "ws_0101", "ws_0201"})))), options.Find().SetSort(asc("createdAt"))), bounded: "the listed workspaces"},
		{coll: "workspaces", name: "`findOne({_id})`", run: findOne(d(e("_id", "ws_0010")))},
		{coll: "workspaces", name: "owners' two-step rule `findOne({_id})` + projection", run: findOne(d(e("_id", "ws_0010")), options.FindOne().SetProjection(d(e("_id", 1), e("ownersNeedTwoStep", 1))))},
		{coll: "workspaces", name: "owners' two-step rule set `findOneAndUpdate({_id})`", run: findOneAndUpdate(d(e("_id", "ws_0012")), d(e("$set", d(e("ownersNeedTwoStep", true)))))},
		{coll: "workspaces", name: "owned, requiring two-step `{_id: {$in}, ownersNeedTwoStep: true}` by createdAt", run: find(d(e("_id", d(e("$in", bson.A{"ws_0001", "ws_0012", "ws_0201"}))), e("ownersNeedTwoStep", true)), options.Find().SetSort(asc("createdAt"))), bounded: "the listed workspaces"},
		// public feeds (feeds/public-feed-settings.ts): a feed's workspace by its ID; changes by `_id`
		{coll: "workspaces", name: "public feed `findOne({feedId})` + projection", run: findOne(d(e("feedId", "pf_0010")), options.FindOne().SetProjection(d(e("_id", 1), e("name", 1), e("feedId", 1), e("feedLinkTemplate", 1))))},
		{coll: "workspaces", name: "public feeds on `findOneAndUpdate({_id}, {$set: {feedLinkTemplate}})`", run: findOneAndUpdate(d(e("_id", "ws_0012")), d(e("$set", d(e("feedLinkTemplate", "https://e.com/{slug}")))))},
		{coll: "workspaces", name: "public feeds: a first ID `updateOne({_id, feedId: {$exists: false}})`", run: updateOne(d(e("_id", "ws_0011"), e("feedId", d(e("$exists", false)))), d(e("$set", d(e("feedId", "pf_new")))), 1)},
		{coll: "workspaces", name: "public feeds: renew `findOneAndUpdate({_id, feedId: {$exists: true}})`", run: findOneAndUpdate(d(e("_id", "ws_0010"), e("feedId", d(e("$exists", true)))), d(e("$set", d(e("feedId", "pf_renewed")))))},
		{coll: "workspaces", name: "rename `updateOne({_id})`", run: updateOne(d(e("_id", "ws_0010")), d(e("$set", d(e("name", "N")))), 1)},
		{coll: "workspaces", name: "operator listing `find({})` by createdAt", run: find(bson.D{}, options.Find().SetSort(asc("createdAt"))), fullRead: true},
		// apiKeys (keys-store.ts)
		{coll: "apiKeys", name: "revoke: `findOne({keyId, workspaceId})`", run: findOne(d(e("keyId", "key_0010"), e("workspaceId", "ws_0010")))},
		{coll: "apiKeys", name: "revoke: `updateOne({_id, status: Active})`", run: updateOne(d(e("_id", "h_0010"), e("status", "Active")), d(e("$set", d(e("status", "Revoked"), e("revokedAt", at(1)), e("revokedBy", nil)))), 1)},
		{coll: "apiKeys", name: "key list `{workspaceId}` by createdAt", run: find(d(e("workspaceId", "ws_0010")), options.Find().SetSort(asc("createdAt"))), bounded: "ties of createdAt within one workspace's keys"},
		{coll: "apiKeys", name: "authenticate `findOne({_id})` + projection", run: findOne(d(e("_id", "h_0011")), options.FindOne().SetProjection(d(e("_id", 1), e("keyId", 1), e("workspaceId", 1), e("prefix", 1), e("status", 1), e("expiresAt", 1), e("rateLimit", 1))))},
		{coll: "apiKeys", name: "roll: compare-and-set `updateOne({_id, status: Active, rolledTo: null})`", run: updateOne(d(e("_id", "h_0012"), e("status", "Active"), e("rolledTo", nil)), d(e("$set", d(e("expiresAt", at(5)), e("expiryLogged", false), e("rolledTo", "key_x")))), 1)},
		{coll: "apiKeys", name: "roll lost its race: `deleteOne({_id})` of the successor", run: deleteOne(d(e("_id", "h_0013")))},
		{coll: "apiKeys", name: "key limit: `updateOne({_id}, {$set: {rateLimit}})`", run: updateOne(d(e("_id", "h_0014")), d(e("$set", d(e("rateLimit", d(e("requests", 100), e("windowSeconds", 60)))))), 1)},
		{coll: "apiKeys", name: "expiry sweep `find({expiryLogged: false, status: Active, expiresAt: {$lte}}).limit(500)`", run: find(d(e("expiryLogged", false), e("status", "Active"), e("expiresAt", d(e("$lte", at(100))))), options.Find().SetLimit(500).SetProjection(d(e("_id", 1), e("keyId", 1), e("workspaceId", 1), e("expiresAt", 1)))), bounded: "the keys past their expiry and not logged yet: few, once per sweep"},
		{coll: "apiKeys", name: "expiry sweep mark `updateOne({_id, expiryLogged: false})`", run: updateOne(d(e("_id", "h_0020"), e("expiryLogged", false)), d(e("$set", d(e("expiryLogged", true)))), 1)},
		// workspaces' default rate limit (limits/rate-limit-settings.ts)
		{coll: "workspaces", name: "default limit `findOne({_id})` + projection", run: findOne(d(e("_id", "ws_0010")), options.FindOne().SetProjection(d(e("rateLimit", 1))))},
		{coll: "workspaces", name: "default limit `updateOne({_id}, {$set: {rateLimit}})`", run: updateOne(d(e("_id", "ws_0011")), d(e("$set", d(e("rateLimit", nil)))), 1)},
		// audit (audit/audit-log.ts)
		{coll: "audit", name: "audit page, first", run: find(d(e("workspaceId", "ws_0000")), page(desc("at")))},
		{coll: "audit", name: "audit page, keyset cursor", run: find(cursor(d(e("workspaceId", "ws_0000")), "at", 10, "aud_0010"), page(desc("at")))},
		{coll: "apiKeys", name: "usage: the key of a workspace `findOne({keyId, workspaceId})` + projection", run: findOne(d(e("keyId", "key_0010"), e("workspaceId", "ws_0010")), options.FindOne().SetProjection(d(e("_id", 1))))},
		{coll: "apiKeys", name: "lastUsedAt: bulkWrite `updateOne({_id}, {$max})`", run: func(ctx context.Context, c *mongo.Collection) error {
			_, err := c.BulkWrite(ctx, []mongo.WriteModel{
				mongo.NewUpdateOneModel().SetFilter(d(e("_id", "h_0012"))).SetUpdate(d(e("$max", d(e("lastUsedAt", at(5)))))),
			}, options.BulkWrite().SetOrdered(false))
			return err
		}},
		// the rate limiter (limits/workspace-limits.ts, limits/rate-counters.ts)
		{coll: "workspaces", name: "rate limit: workspace default `findOne({_id})` + projection", run: findOne(d(e("_id", "ws_0010")), options.FindOne().SetProjection(d(e("_id", 1), e("rateLimit", 1))))},
		{coll: "rateCounters", name: "rate limit: own count `updateOne({_id}, {$max, $setOnInsert}, upsert)`", run: func(ctx context.Context, c *mongo.Collection) error {
			_, err := c.UpdateOne(ctx, d(e("_id", counterID(10, 1))), d(e("$max", d(e("n", 99))), e("$setOnInsert", d(e("expiresAt", at(10))))), options.Update().SetUpsert(true))
			return err
		}},
		{coll: "rateCounters", name: "rate limit: window total `find({_id: {$gt: key/window/, $lt: key/window0}})` by _id", run: find(d(e("_id", d(e("$gt", counterPrefix(10)), e("$lt", strings.TrimSuffix(counterPrefix(10), "/")+"0")))), options.Find().SetSort(d(e("_id", 1))).SetProjection(d(e("n", 1))))},
		{coll: "rateCounters", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-500))))))},
		// usage (limits/usage-store.ts)
		{coll: "keyUsage", name: "usage flush: bulkWrite `updateOne({_id}, {$inc, $setOnInsert}, upsert)`", run: func(ctx context.Context, c *mongo.Collection) error {
			_, err := c.BulkWrite(ctx, []mongo.WriteModel{
				mongo.NewUpdateOneModel().SetFilter(d(e("_id", usageID("key_0011", "d", 10)))).SetUpdate(d(e("$inc", d(e("ok", 3), e("notModified", 1))), e("$setOnInsert", d(e("start", at(10)), e("expiresAt", at(100)))))).SetUpsert(true),
			}, options.BulkWrite().SetOrdered(false))
			return err
		}},
		{coll: "keyUsage", name: "usage: a key's buckets `find({_id: {$gte, $lt}})` by _id", run: find(d(e("_id", d(e("$gte", usageID("key_0011", "d", 0)), e("$lt", usageID("key_0011", "d", 30))))), options.Find().SetSort(d(e("_id", 1))))},
		{coll: "keyUsage", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-500))))))},
		// users (users-store.ts)
		{coll: "users", name: "`findOne({email})`", run: findOne(d(e("email", "u0010@example.com")))},
		{coll: "users", name: "`findOne({_id})`", run: findOne(d(e("_id", "usr_0010")))},
		{coll: "users", name: "password change `updateOne({_id}, {$set: {passwordHash}})`", run: updateOne(d(e("_id", "usr_0010")), d(e("$set", d(e("passwordHash", "y")))), 1)},
		{coll: "users", name: "email change `updateOne({_id, email, passwordHash}, {$set: {email}, $inc})`", run: updateOne(d(e("_id", "usr_0012"), e("email", "u0012@example.com"), e("passwordHash", "x")), d(e("$set", d(e("email", "u0012@example.com"))), e("$inc", d(e("passwordGeneration", 1)))), 1)},
		// two-step sign-in (users/two-step-store.ts): one update each, by _id, compare-and-set
		{coll: "users", name: "two-step wait `updateOne({_id, twoStep: {$exists: false}}, {$set: {twoStepPending}})`", run: updateOne(d(e("_id", "usr_0011"), e("twoStep", d(e("$exists", false)))), d(e("$set", d(e("twoStepPending", d(e("secret", "v1.sealed"), e("expiresAt", at(5))))))), 1)},
		{coll: "users", name: "two-step on `updateOne({_id, \"twoStepPending.secret\", twoStep: {$exists: false}}, {$set, $unset})`", run: updateOne(d(e("_id", "usr_0011"), e("twoStepPending.secret", "v1.sealed"), e("twoStep", d(e("$exists", false)))), d(e("$set", d(e("twoStep", d(e("secret", "v1.sealed"), e("lastStep", 7), e("recoveryCodes", bson.A{"rc_a"}), e("enabledAt", at(5)))))), e("$unset", d(e("twoStepPending", "")))), 1)},
		{coll: "users", name: "two-step code `updateOne({_id, \"twoStep.lastStep\"}, {$set})`", run: updateOne(d(e("_id", "usr_0010"), e("twoStep.lastStep", 5)), d(e("$set", d(e("twoStep.lastStep", 6)))), 1)},
		{coll: "users", name: "recovery code `updateOne({_id, \"twoStep.recoveryCodes\"}, {$pull})`", run: updateOne(d(e("_id", "usr_0010"), e("twoStep.recoveryCodes", "rc_0010")), d(e("$pull", d(e("twoStep.recoveryCodes", "rc_0010")))), 1)},
		{coll: "users", name: "two-step off `updateOne({_id, twoStep: {$exists: true}}, {$unset})`", run: updateOne(d(e("_id", "usr_0020"), e("twoStep", d(e("$exists", true)))), d(e("$unset", d(e("twoStep", ""), e("twoStepPending", "")))), 1)},
		{coll: "users", name: "names `find({_id: {$in}})`", run: find(d(e("_id", d(e("$in", bson.A{"usr_0001", "usr_0500", "usr_1999"}))))), bounded: "the listed users (table order)"},
		// memberships (users-store.ts)
		{coll: "memberships", name: "role `findOne({_id})`", run: findOne(d(e("_id", "ws_0010:usr_0010")))},
		{coll: "memberships", name: "a user's memberships `find({userId})`", run: find(d(e("userId", "usr_0010")))},
		{coll: "memberships", name: "a user's ownerships `find({userId, role: \"owner\"})`", run: find(d(e("userId", "usr_0010"), e("role", "owner")))},
		{coll: "memberships", name: "members `{workspaceId}` by createdAt", run: find(d(e("workspaceId", "ws_0010")), options.Find().SetSort(asc("createdAt"))), bounded: "the members of one workspace"},
		{coll: "memberships", name: "remove member `deleteOne({_id})`", run: deleteOne(d(e("_id", "ws_0011:usr_0011")))},
		// the last owner (workspaces/owner-guard.ts, workspaces-store.ts changeRole)
		{counts: true, coll: "memberships", name: "owners `countDocuments({workspaceId, role})`", run: countDocuments(d(e("workspaceId", "ws_0010"), e("role", "owner")))},
		{coll: "memberships", name: "role change `updateOne({_id}, {$set: {role}})`", run: updateOne(d(e("_id", "ws_0012:usr_0012")), d(e("$set", d(e("role", "owner")))), 1)},
		// invitations (invitations/invitations-store.ts, platform/db/ttl-sweeper.ts)
		{coll: "invitations", name: "link `findOne({tokenHash})`", run: findOne(d(e("tokenHash", "t_0010")))},
		{coll: "invitations", name: "a workspace's `{workspaceId}` by createdAt", run: find(d(e("workspaceId", "ws_0010")), options.Find().SetSort(asc("createdAt")))},
		{coll: "invitations", name: "resend `findOneAndUpdate({_id, workspaceId, acceptedAt: null})`", run: findOneAndUpdate(d(e("_id", "inv_0014"), e("workspaceId", "ws_0014"), e("acceptedAt", nil)), d(e("$set", d(e("tokenHash", "t_new"), e("expiresAt", at(100))))))},
		{coll: "invitations", name: "withdraw `deleteOne({_id, workspaceId, acceptedAt: null})`", run: deleteOne(d(e("_id", "inv_0011"), e("workspaceId", "ws_0011"), e("acceptedAt", nil)))},
		{coll: "invitations", name: "use, compare-and-set `updateOne({_id, acceptedAt: null})`", run: updateOne(d(e("_id", "inv_0012"), e("acceptedAt", nil)), d(e("$set", d(e("acceptedAt", at(5))))), 1)},
		{coll: "invitations", name: "release `updateOne({_id, acceptedAt})`", run: updateOne(d(e("_id", "inv_0012"), e("acceptedAt", at(5))), d(e("$set", d(e("acceptedAt", nil)))), 1)},
		{coll: "invitations", name: "accepted by `updateOne({_id})`", run: updateOne(d(e("_id", "inv_0013")), d(e("$set", d(e("acceptedBy", "usr_0013")))), 1)},
		{coll: "invitations", name: "sweeper `deleteMany({keepUntil: {$lte}})`", run: deleteMany(d(e("keepUntil", d(e("$lte", at(-1500))))))},
		// markers (users-store.ts)
		{counts: true, coll: "markers", name: "setup needed `countDocuments({_id}, {limit: 1})`", run: countDocuments(d(e("_id", "setup")), options.Count().SetLimit(1))},
		{coll: "markers", name: "setup undone `deleteOne({_id})`", run: deleteOne(d(e("_id", "setup")))},
		// sessions (sessions-store.ts, platform/db/ttl-sweeper.ts)
		{coll: "sessions", name: "`findOne({_id})`", run: findOne(d(e("_id", "s_0010")))},
		{coll: "sessions", name: "sign out / expired `deleteOne({_id})`", run: deleteOne(d(e("_id", "s_0010")))},
		{coll: "sessions", name: "password change: the others `deleteMany({userId, _id: {$ne}})`", run: deleteMany(d(e("userId", "usr_0020"), e("_id", d(e("$ne", "s_0020")))))},
		{coll: "sessions", name: "sign out everywhere `deleteMany({userId})`", run: deleteMany(d(e("userId", "usr_0021")))},
		{coll: "sessions", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-500))))))},
		// accessTokens (tokens/access-tokens-store.ts, platform/db/ttl-sweeper.ts)
		{coll: "accessTokens", name: "a request's token `findOne({_id})`", run: findOne(d(e("_id", "h_1999")))},
		{coll: "accessTokens", name: "a user's tokens `find({userId})` by createdAt desc", run: find(d(e("userId", "usr_0011")), options.Find().SetSort(d(e("createdAt", -1)))), bounded: "the tokens of one user (at most 50)"},
		{counts: true, coll: "accessTokens", name: "a user's tokens `countDocuments({userId})`", run: countDocuments(d(e("userId", "usr_0011")))},
		{coll: "accessTokens", name: "revoke `deleteOne({tokenId, userId})`", run: deleteOne(d(e("tokenId", "tok_0012"), e("userId", "usr_0012")))},
		{coll: "accessTokens", name: "lastUsedAt `updateOne({_id}, {$max})`", run: updateOne(d(e("_id", "h_1998")), d(e("$max", d(e("lastUsedAt", at(5))))), 1)},
		{coll: "accessTokens", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-1500))))))},
		// passwordResets (users/password-reset-links.ts, platform/db/ttl-sweeper.ts)
		{coll: "passwordResets", name: "link `findOne({_id})`", run: findOne(d(e("_id", "pr_1999")))},
		{coll: "passwordResets", name: "use, compare-and-set `updateOne({_id, usedAt: null})`", run: updateOne(d(e("_id", "pr_1999"), e("usedAt", nil)), d(e("$set", d(e("usedAt", at(5))))), 1)},
		{coll: "passwordResets", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-1500))))))},
		// emailChanges (users/email-change-links.ts, platform/db/ttl-sweeper.ts)
		{coll: "emailChanges", name: "link `findOne({tokenHash})`", run: findOne(d(e("tokenHash", "ec_0013")))},
		{coll: "emailChanges", name: "an account's waiting change `findOne({_id})`", run: findOne(d(e("_id", "usr_0014")))},
		{coll: "emailChanges", name: "ask, replacing the one before `updateOne({_id}, {$set}, {upsert})`", run: upsert(d(e("_id", "usr_0015")), d(e("$set", d(e("tokenHash", "ec_new"), e("newEmail", "n@example.com"), e("usedAt", nil)))))},
		{coll: "emailChanges", name: "use, compare-and-set `updateOne({_id, tokenHash, usedAt: null})`", run: updateOne(d(e("_id", "usr_0013"), e("tokenHash", "ec_0013"), e("usedAt", nil)), d(e("$set", d(e("usedAt", at(5))))), 1)},
		{coll: "emailChanges", name: "cancel `deleteOne({_id})`", run: deleteOne(d(e("_id", "usr_0016")))},
		{coll: "emailChanges", name: "mail failed `deleteOne({_id, tokenHash})`", run: deleteOne(d(e("_id", "usr_0017"), e("tokenHash", "ec_0017")))},
		{coll: "emailChanges", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-1500))))))},
		// signInChallenges (sessions/sign-in-challenges.ts, platform/db/ttl-sweeper.ts)
		{coll: "signInChallenges", name: "challenge `findOne({_id})`", run: findOne(d(e("_id", "ch_1999")))},
		{coll: "signInChallenges", name: "use `deleteOne({_id})`", run: deleteOne(d(e("_id", "ch_1998")))},
		{coll: "signInChallenges", name: "sweeper `deleteMany({expiresAt: {$lte}})`", run: deleteMany(d(e("expiresAt", d(e("$lte", at(-1500))))))},
		// signInFailures (sign-in-throttle.ts, platform/db/ttl-sweeper.ts)
		{counts: true, coll: "signInFailures", name: "count by email `countDocuments({email, expiresAt: {$gt}})`", run: countDocuments(d(e("email", "u0010@example.com"), e("expiresAt", live)))},
		{counts: true, coll: "signInFailures", name: "count by address `countDocuments({address, expiresAt: {$gt}})`", run: countDocuments(d(e("address", "10.0.0.10"), e("expiresAt", live)))},
		{coll: "signInFailures", name: "oldest live by email, `.sort({expiresAt: 1, _id: 1}).limit(1)`", run: find(d(e("email", "u0010@example.com"), e("expiresAt", live)), options.Find().SetSort(asc("expiresAt")).SetLimit(1)), bounded: small},
		{coll: "signInFailures", name: "oldest live by address, same", run: find(d(e("address", "10.0.0.10"), e("expiresAt", live)), options.Find().SetSort(asc("expiresAt")).SetLimit(1)), bounded: small},
		{coll: "signInFailures", name: "refused attempt `deleteOne({_id})`", run: deleteOne(d(e("_id", "f_0010")))},
		{coll: "signInFailures", name: "success `deleteMany({email})`", run: deleteMany(d(e("email", "u0011@example.com")))},
		{coll: "signInFailures", name: "sweeper `deleteMany({$or: [{expiresAt: {$lte}}, {expiresAt: {$exists: false}}]})`", run: deleteMany(d(e("$or", bson.A{
			d(e("expiresAt", d(e("$lte", at(-500))))), d(e("expiresAt", d(e("$exists", false)))),
		})))},
		// webhooks: the outbox relay (webhooks/outbox-relay.ts) and the blog writes that fill the
		// outbox (blogs/blog-writes.ts clearWebhookOutboxes, blog-events.ts updateWithEvent)
		{coll: "blogs", name: "webhooks: relay, first page `{webhookPending: true, _id: {$gt: \"\"}}` by webhookPending, _id, limit 100, projection", run: find(d(e("webhookPending", true), e("_id", d(e("$gt", "")))), relayPage), index: "webhook_pending"},
		{coll: "blogs", name: "webhooks: relay, next page `{webhookPending: true, _id: {$gt}}`, same", run: find(d(e("webhookPending", true), e("_id", d(e("$gt", "b_1007")))), relayPage), index: "webhook_pending"},
		{coll: "blogs", name: "webhooks: relay, the blogs this process wrote `find({_id: {$in}})` + projection", run: find(d(e("_id", d(e("$in", bson.A{"b_1007", "b_1014", "b_1999"})))), options.Find().SetProjection(d(e("_id", 1), e("workspaceId", 1), e("updatedAt", 1), e("revision", 1), e("webhookOutbox", 1), e("webhookPending", 1)))), bounded: "the blogs one relay page names: at most 100"},
		{coll: "blogs", name: "webhooks: relay clears the outboxes `updateMany({workspaceId, webhookPending: true, _id: {$in}, $or: [{_id, revision}]})`", run: updateMany(
			d(e("workspaceId", "ws_0001"), e("webhookPending", true), e("_id", d(e("$in", bson.A{"b_0107", "b_0157"}))),
				e("$or", bson.A{d(e("_id", "b_0107"), e("revision", "r_0107")), d(e("_id", "b_0157"), e("revision", "r_0157"))})),
			d(e("$set", d(e("webhookOutbox", bson.A{}), e("webhookPending", false))))), bounded: "the blogs of one relay page it names: at most 100"},
		{coll: "blogs", name: "webhooks: relay clears the outboxes, blogs without revision: `$or: [{_id, revision: {$exists: false}, updatedAt}]`", run: updateMany(
			d(e("workspaceId", "ws_0000"), e("webhookPending", true), e("_id", d(e("$in", bson.A{"b_0130", "b_0180"}))),
				e("$or", bson.A{
					d(e("_id", "b_0130"), e("revision", d(e("$exists", false))), e("updatedAt", at(130))),
					d(e("_id", "b_0180"), e("revision", d(e("$exists", false))), e("updatedAt", at(180))),
				})),
			d(e("$set", d(e("webhookOutbox", bson.A{}), e("webhookPending", false))))), bounded: "the blogs of one relay page it names: at most 100"},
		{coll: "blogs", name: "webhooks: compare-and-set with the event, `$set` + `$push: {webhookOutbox}`", run: updateOne(
			d(e("_id", "b_0014"), e("workspaceId", "ws_0000"), e("status", "released"), e("revision", "r_0014")),
			d(e("$set", d(e("title", "T2"), e("updatedAt", at(3000)), e("revision", "r_0014b"), e("feedPending", true), e("webhookPending", true), e("eventSeq", 1))),
				e("$push", d(e("webhookOutbox", outboxEvent(14, 1))))), 1)},
		// webhookEndpoints (webhooks/endpoints-store.ts; delivery-worker.ts reads them by _id)
		// the authors a page's blogs name (blogs/blog-authors.ts), a slug's author (the list's `author`, getAuthorBySlug)
		{coll: "authors", name: "a page's authors `find({_id: {$in}, workspaceId})` + exclusion", bounded: "the authors one page's blogs name: at most 10 a blog", run: find(d(e("_id", d(e("$in", bson.A{"au_0010", "au_0110", "au_0210"}))), e("workspaceId", "ws_0010")), options.Find().SetProjection(d(e("workspaceId", 0), e("nameKey", 0))))},
		{coll: "authors", name: "a page's authors' validators `find({_id: {$in}, workspaceId})` + projection", bounded: "the authors one page's blogs name: at most 10 a blog", run: find(d(e("_id", d(e("$in", bson.A{"au_0010", "au_0110", "au_0210"}))), e("workspaceId", "ws_0010")), options.Find().SetProjection(d(e("_id", 1), e("updatedAt", 1))))},
		{coll: "authors", name: "by slug `findOne({workspaceId, slug})`", run: findOne(d(e("workspaceId", "ws_0010"), e("slug", "writer-10")))},
		// an author's edit or removal (blogs/author-marks.ts): the blogs naming them, 500 at a time, marked for both feeds
		{coll: "blogs", name: "an author's blogs `find({workspaceId, status: {$in}, authorIds, _id: {$gt}})` by _id, limit 500", run: find(d(e("workspaceId", "ws_0000"), e("status", d(e("$in", bson.A{"draft", "released"}))), e("authorIds", "au_0002"), e("_id", d(e("$gt", "b_0100")))), options.Find().SetSort(d(e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1), e("status", 1))))},
		{coll: "blogs", name: "an author's blogs: feed marks `updateMany({_id: {$in}})`", run: updateMany(d(e("_id", d(e("$in", bson.A{"b_0002", "b_0014", "b_0026"})))), d(e("$set", d(e("feedPending", true)))))},
		{coll: "blogs", name: "an author's blogs: preview marks `updateMany({_id: {$in}})`", bounded: "the blogs listed, at most 500", run: updateMany(d(e("_id", d(e("$in", bson.A{"b_0002", "b_0014", "b_0026"})))), d(e("$set", d(e("previewPending", true), e("previewMark", "pm_new")))))},
		{coll: "blogStaged", name: "an author's pending changes: a workspace's `find({workspaceId})` + projection", bounded: "the pending changes of one workspace, in stored order: one per blog with pending changes (few)", run: find(d(e("workspaceId", "ws_0001")), options.Find().SetProjection(d(e("blogId", 1), e("authorIds", 1))))},
		// authors (authors/authors-store.ts): a workspace's list in name order, its count, a change and a removal by `_id`
		{coll: "authors", name: "list `{workspaceId}` by nameKey, slug, limit 200", run: find(d(e("workspaceId", "ws_0010")), options.Find().SetSort(d(e("nameKey", 1), e("slug", 1))).SetLimit(200)), bounded: "one workspace's authors: at most 200 (authors/author-rules.ts MAX_AUTHORS)"},
		{counts: true, coll: "authors", name: "create: `countDocuments({workspaceId})`", run: countDocuments(d(e("workspaceId", "ws_0010")))},
		{coll: "authors", name: "update: `findOne({_id, workspaceId})`", run: findOne(d(e("_id", "au_0010"), e("workspaceId", "ws_0010")))},
		{coll: "authors", name: "update: `findOneAndUpdate({_id, workspaceId}, {$set})`", run: findOneAndUpdate(d(e("_id", "au_0011"), e("workspaceId", "ws_0011")), d(e("$set", d(e("bio", "B2"), e("updatedAt", at(3000))))))},
		{coll: "authors", name: "remove: `findOneAndDelete({_id, workspaceId})`", run: findOneAndDelete(d(e("_id", "au_0012"), e("workspaceId", "ws_0012")))},
		// the media library (media/media-store.ts, media-files.ts): records in `media`, files in the GridFS bucket
		// `mediaFiles` (the driver's GridFSBucket: its `find`, `openUploadStream`'s first look,
		// `openDownloadStream` and `delete`)
		{coll: "media", name: "library, first page `{workspaceId}` by createdAt desc, _id desc, limit 51, `{terms: 0}`", run: find(d(e("workspaceId", "ws_0000")), options.Find().SetSort(desc("createdAt")).SetLimit(51).SetProjection(d(e("terms", 0))))},
		{coll: "media", name: "library, deep keyset page", run: find(cursor(d(e("workspaceId", "ws_0000")), "createdAt", 100, "med_0100"), options.Find().SetSort(desc("createdAt")).SetLimit(51).SetProjection(d(e("terms", 0))))},
		{coll: "media", name: "library search `q=beach` `{workspaceId, $and: [{terms}]}`, first page", run: find(d(e("workspaceId", "ws_0000"), e("$and", bson.A{d(e("terms", "beach"))})), options.Find().SetSort(desc("createdAt")).SetLimit(51).SetProjection(d(e("terms", 0))))},
		{coll: "media", name: "library search `q=beach sun`, keyset page", run: find(cursor(d(e("workspaceId", "ws_0000"), e("$and", bson.A{d(e("terms", "beach")), d(e("terms", "sun"))})), "createdAt", 1000, "med_1000"), options.Find().SetSort(desc("createdAt")).SetLimit(51).SetProjection(d(e("terms", 0))))},
		{coll: "media", name: "library search `q=zebra`, a rare word, started from its list", bounded: "the images with the rare word, a list of under 64", run: find(d(e("workspaceId", "ws_0001"), e("$and", bson.A{d(e("terms", "zebra"))})), options.Find().SetSort(desc("createdAt")).SetLimit(51).SetProjection(d(e("terms", 0))))},
		// library images by ID (media/library-lookup.ts: a body's sizes, a page's covers), the
		// workspace checked in code
		{coll: "media", name: "library images by ID `find({_id: {$in}})` + projection", bounded: "the library images one body or one page's covers show", run: find(d(e("_id", d(e("$in", bson.A{"med_0010", "med_0012", "med_1910"})))), options.Find().SetProjection(d(e("_id", 1), e("workspaceId", 1), e("name", 1), e("width", 1), e("height", 1), e("alt", 1))))},
		// the blogs an image's deletion names (media/media-usage.ts `blogsShowing`)
		{coll: "blogs", name: "an image's blogs `find({workspaceId, mediaIds})`, limit 1000, projection, started from its list", bounded: "the blogs showing the image, in stored order: at most 1,000 (media-usage.ts LOOKED_AT)", run: find(d(e("workspaceId", "ws_0000"), e("mediaIds", "med_0010")), options.Find().SetLimit(1000).SetProjection(d(e("_id", 1), e("title", 1), e("slug", 1), e("status", 1))))},
		{coll: "blogStaged", name: "an image's pending changes `find({workspaceId, mediaIds})`, limit 1000, projection, started from its list", bounded: "the pending changes showing the image, in stored order: at most 1,000", run: find(d(e("workspaceId", "ws_0000"), e("mediaIds", "med_0010")), options.Find().SetLimit(1000).SetProjection(d(e("_id", 1), e("blogId", 1))))},
		{coll: "blogs", name: "their blogs `find({_id: {$in}})` + projection (the workspace checked in code)", bounded: "the blogs whose pending changes show the image and that do not: at most 1,000", run: find(d(e("_id", d(e("$in", bson.A{"b_0010", "b_0210", "b_1010"})))), options.Find().SetProjection(d(e("_id", 1), e("title", 1), e("slug", 1), e("status", 1), e("workspaceId", 1), e("staged", 1))))},
		// pending changes stored before `mediaIds` (blogs/staged-media-migration.ts), once
		{counts: true, coll: "markers", name: "staged media migration: done? `countDocuments({_id}, {limit: 1})`", run: countDocuments(d(e("_id", "setup")), options.Count().SetLimit(1))},
		{coll: "blogStaged", name: "staged media migration: a batch `find({_id: {$gt}})` by _id, limit, projection", run: find(d(e("_id", d(e("$gt", "b_0013:s_0013")))), options.Find().SetSort(d(e("_id", 1))).SetLimit(100).SetProjection(d(e("_id", 1), e("bodyHtml", 1), e("coverImageUrl", 1), e("mediaIds", 1)))), index: "_id_"},
		{coll: "blogStaged", name: "staged media migration: `updateOne({_id, mediaIds: {$exists: false}}, {$set: {mediaIds}})`", run: updateOne(d(e("_id", "b_0033:s_0033"), e("mediaIds", d(e("$exists", false)))), d(e("$set", d(e("mediaIds", bson.A{})))), 0)},
		// export and import (transfer/export-workspace.ts: a workspace's whole library, oldest first;
		// transfer/store-image-library.ts: an imported image already in the library, by ID, then by bytes)
		{coll: "media", name: "export: a workspace's images `find({workspaceId})` by createdAt, _id, `{terms: 0}`", run: find(d(e("workspaceId", "ws_0001")), options.Find().SetSort(asc("createdAt")).SetProjection(d(e("terms", 0))))},
		{coll: "media", name: "import: an exported image `findOne({workspaceId, _id})` + projection", run: findOne(d(e("workspaceId", "ws_0000"), e("_id", "med_0010")), options.FindOne().SetProjection(d(e("_id", 1), e("name", 1))))},
		{coll: "media", name: "import: the same bytes `findOne({workspaceId, sha256})` + projection", run: findOne(d(e("workspaceId", "ws_0001"), e("sha256", fmt.Sprintf("%064x", 13*7919))), options.FindOne().SetProjection(d(e("_id", 1), e("name", 1))))},
		{coll: "media", name: "public URL's record `findOne({_id})` + projection", run: findOne(d(e("_id", "med_0010")), options.FindOne().SetProjection(d(e("workspaceId", 1), e("sha256", 1), e("name", 1), e("type", 1), e("width", 1), e("height", 1))))},
		{coll: "media", name: "get `findOne({_id, workspaceId})`", run: findOne(d(e("_id", "med_0010"), e("workspaceId", "ws_0000")))},
		{coll: "media", name: "upload, the same bytes `findOne({workspaceId, sha256})`", run: findOne(d(e("workspaceId", "ws_0001"), e("sha256", fmt.Sprintf("%064x", 11*7919))))},
		{coll: "media", name: "alt text `updateOne({_id, workspaceId}, {$set: {alt, terms}})`", run: updateOne(d(e("_id", "med_0012"), e("workspaceId", "ws_0000")), d(e("$set", d(e("alt", "Sea"), e("terms", bson.A{"photo", "12", "p", "ph", "sea", "s", "se"})))), 1)},
		{coll: "media", name: "delete `findOneAndDelete({_id, workspaceId})`", run: findOneAndDelete(d(e("_id", "med_0014"), e("workspaceId", "ws_0000")))},
		{firstRow: true, coll: "mediaFiles.files", name: "upload's first look (once a bucket) `findOne({}, {projection: {_id: 1}})`", run: findOne(bson.D{}, options.FindOne().SetProjection(d(e("_id", 1))))},
		{coll: "mediaFiles.files", name: "a stored file by name `find({filename}, {limit: 1, projection: {_id: 1}})`", bounded: "the files of one name, in stored order: one (two when two instances stored one copy at once)", run: find(d(e("filename", "med_0020/original")), options.Find().SetLimit(1).SetProjection(d(e("_id", 1))))},
		{coll: "mediaFiles.files", name: "download `findOne({_id: {$eq}})`", run: findOne(d(e("_id", d(e("$eq", mediaFileID(20, 0))))))},
		{coll: "mediaFiles.chunks", name: "download's chunks `find({files_id: {$eq}})` by n", bounded: "one file's chunks in stored order, sorted by n in Go (a sort without _id is not done in SQL): at most 41 for the 10 MB upload limit", run: find(d(e("files_id", d(e("$eq", mediaFileID(20, 0))))), options.Find().SetSort(d(e("n", 1))))},
		{coll: "mediaFiles.files", name: "delete: an image's files `find({filename: {$gte: id/, $lt: id0}}, {projection: {_id: 1}})`", bounded: "one image's files in stored order: its original and the copies made of it", run: find(d(e("filename", d(e("$gte", "med_0024/"), e("$lt", "med_00240")))), options.Find().SetProjection(d(e("_id", 1))))},
		{coll: "mediaFiles.files", name: "delete a file `deleteOne({_id: {$eq}})`", run: deleteOne(d(e("_id", d(e("$eq", mediaFileID(24, 0))))))},
		{coll: "mediaFiles.chunks", name: "delete a file's chunks, or an interrupted upload's `deleteMany({files_id: {$eq}})`", run: deleteMany(d(e("files_id", d(e("$eq", mediaFileID(24, 0))))))},
		{coll: "webhookEndpoints", name: "list `{workspaceId}` by workspaceId, createdAt, _id, limit 40", run: find(d(e("workspaceId", "ws_0010")), options.Find().SetSort(d(e("workspaceId", 1), e("createdAt", 1), e("_id", 1))).SetLimit(40))},
		{coll: "webhookEndpoints", name: "subscribers `{workspaceId}` by workspaceId, createdAt, _id", run: find(d(e("workspaceId", "ws_0011")), options.Find().SetSort(d(e("workspaceId", 1), e("createdAt", 1), e("_id", 1))))},
		{coll: "webhookEndpoints", name: "get `findOne({_id})`", run: findOne(d(e("_id", "we_0010")))},
		{counts: true, coll: "webhookEndpoints", name: "create: `countDocuments({workspaceId})`", run: countDocuments(d(e("workspaceId", "ws_0010")))},
		{coll: "webhookEndpoints", name: "update, rotate secret `updateOne({_id}, {$set})`", run: updateOne(d(e("_id", "we_0010")), d(e("$set", d(e("description", "D2"), e("updatedAt", at(3000))))), 1)},
		{coll: "webhookEndpoints", name: "previous secret forgotten `updateOne({_id, previousSecretExpiresAt}, {$set})`", run: updateOne(d(e("_id", "we_0015"), e("previousSecretExpiresAt", nil)), d(e("$set", d(e("previousSecret", nil), e("previousSecretExpiresAt", nil)))), 1)},
		{coll: "webhookEndpoints", name: "disable `updateOne({_id, enabled: true}, {$set})`", run: updateOne(d(e("_id", "we_0011"), e("enabled", true)), d(e("$set", d(e("enabled", false), e("disabledReason", "R"), e("updatedAt", at(3000))))), 1)},
		{coll: "webhookEndpoints", name: "delete `deleteOne({_id})`", run: deleteOne(d(e("_id", "we_0012")))},
		// webhookHealth (webhooks/endpoint-health.ts, endpoints-store.ts)
		{coll: "webhookHealth", name: "the listed endpoints' `find({_id: {$in}})`", run: find(d(e("_id", d(e("$in", bson.A{"we_0010", "we_0110", "we_1910"}))))), bounded: "the health of the listed endpoints: at most 40"},
		{coll: "webhookHealth", name: "success `updateOne({_id}, {$set}, upsert)`", run: upsert(d(e("_id", "we_0010")), d(e("$set", d(e("lastSuccessAt", at(3000)), e("failingSince", nil)))))},
		{coll: "webhookHealth", name: "failure: start `updateOne({_id}, {$setOnInsert}, upsert)`", run: upsert(d(e("_id", "we_0011")), d(e("$setOnInsert", d(e("lastSuccessAt", nil), e("failingSince", at(3000))))))},
		{coll: "webhookHealth", name: "failure: `updateOne({_id, failingSince: null}, {$set})`", run: updateOne(d(e("_id", "we_0012"), e("failingSince", nil)), d(e("$set", d(e("failingSince", at(3000))))), 1)},
		{coll: "webhookHealth", name: "success clears a failure `updateOne({_id, failingSince: {$ne: null}}, {$set})`", run: updateOne(d(e("_id", "we_0016"), e("failingSince", d(e("$ne", nil)))), d(e("$set", d(e("lastSuccessAt", at(3000)), e("failingSince", nil)))), 1)},
		{coll: "webhookHealth", name: "failure: `findOne({_id})`", run: findOne(d(e("_id", "we_0013")))},
		{coll: "webhookHealth", name: "turned back on `updateOne({_id}, {$set: {failingSince: null}})`", run: updateOne(d(e("_id", "we_0013")), d(e("$set", d(e("failingSince", nil)))), 1)},
		{coll: "webhookHealth", name: "endpoint deleted `deleteOne({_id})`", run: deleteOne(d(e("_id", "we_0014")))},
		// webhookEvents (delivery-worker.ts, retention.ts; inserted by outbox-relay.ts, manual-deliveries.ts)
		{coll: "webhookEvents", name: "`findOne({_id})`", run: findOne(d(e("_id", "evt_0010")))},
		{counts: true, coll: "webhookEvents", name: "redeliver: still kept `countDocuments({_id}, {limit: 1})`", run: countDocuments(d(e("_id", "evt_0011")), options.Count().SetLimit(1))},
		{coll: "webhookEvents", name: "retention `deleteMany({occurredAt: {$lt}})`", run: deleteMany(d(e("occurredAt", d(e("$lt", at(-1500))))))},
		// webhookDeliveries (delivery-worker.ts, delivery-log.ts, manual-deliveries.ts,
		// endpoints-store.ts, retention.ts; inserted by outbox-relay.ts, manual-deliveries.ts)
		{coll: "webhookDeliveries", name: "due, first page `{state: pending, nextAttemptAt: {$lte}}` by state, nextAttemptAt, _id, limit 50", run: find(d(e("state", "pending"), e("nextAttemptAt", d(e("$lte", at(1500))))), dueOrder)},
		{coll: "webhookDeliveries", name: "due, keyset page `{state, $or: [{nextAttemptAt: {$gt, $lte}}, {nextAttemptAt, _id: {$gt}}]}`, same", run: find(d(e("state", "pending"), e("$or", bson.A{
			d(e("nextAttemptAt", d(e("$gt", at(500)), e("$lte", at(1500))))),
			d(e("nextAttemptAt", at(500)), e("_id", d(e("$gt", "dlv_0500")))),
		})), dueOrder)},
		{coll: "webhookDeliveries", name: "per-blog order `find({endpointId, blogId, state: pending})`, projection, limit 1000", run: find(d(e("endpointId", "we_0000"), e("blogId", "b_0000"), e("state", "pending")), options.Find().SetLimit(1000).SetProjection(d(e("_id", 1), e("seq", 1), e("redeliveryOf", 1), e("nextAttemptAt", 1)))), bounded: "the pending deliveries of one blog to one endpoint: few"},
		{coll: "webhookDeliveries", name: "settle, skip `updateOne({_id, state: pending}, {$set})`", run: updateOne(d(e("_id", "dlv_0010"), e("state", "pending")), d(e("$set", d(e("state", "delivered"), e("settledAt", at(3000)), e("nextAttemptAt", nil), e("attempts", 1)))), 1)},
		{coll: "webhookDeliveries", name: "lost attempt counted `updateOne({_id, state: pending}, {$max: {attempts}})`", run: updateOne(d(e("_id", "dlv_0020"), e("state", "pending")), d(e("$max", d(e("attempts", 2)))), 1)},
		{coll: "webhookDeliveries", name: "endpoint gone `deleteOne({_id})`", run: deleteOne(d(e("_id", "dlv_0030")))},
		{coll: "webhookDeliveries", name: "log page, first `{endpointId}` by createdAt desc, _id desc, limit 21", run: find(d(e("endpointId", "we_0001")), page(desc("createdAt")))},
		{coll: "webhookDeliveries", name: "log page, keyset cursor", run: find(cursor(d(e("endpointId", "we_0001")), "createdAt", -999, "dlv_1001"), page(desc("createdAt")))},
		{coll: "webhookDeliveries", name: "log entry, redeliver `findOne({_id})`", run: findOne(d(e("_id", "dlv_0041")))},
		{coll: "webhookDeliveries", name: "endpoint deleted `deleteMany({endpointId})`", run: deleteMany(d(e("endpointId", "we_0002")))},
		{coll: "webhookDeliveries", name: "retention batch `find({state, settledAt: {$lt}})` by state, settledAt, _id, limit 500, projection", run: find(d(e("state", "delivered"), e("settledAt", d(e("$lt", at(1000))))), options.Find().SetSort(d(e("state", 1), e("settledAt", 1), e("_id", 1))).SetLimit(500).SetProjection(d(e("_id", 1))))},
		{coll: "webhookDeliveries", name: "held back / woken `updateOne({_id, state: pending, nextAttemptAt}, {$set: {nextAttemptAt}})`", run: updateOne(d(e("_id", "dlv_0060"), e("state", "pending"), e("nextAttemptAt", at(60))), d(e("$set", d(e("nextAttemptAt", at(3000))))), 1)},
		{coll: "webhookDeliveries", name: "due, first page, endpoints at their cap left out `{state, nextAttemptAt: {$lte}, endpointId: {$nin}}`, same", run: find(d(e("state", "pending"), e("nextAttemptAt", d(e("$lte", at(1500)))), e("endpointId", d(e("$nin", bson.A{"we_0001", "we_0002"})))), dueOrder)},
		{coll: "webhookDeliveries", name: "due, first page, workspaces and endpoints at their share left out `{state, nextAttemptAt: {$lte}, workspaceId: {$nin}, endpointId: {$nin}}`, same", run: find(d(e("state", "pending"), e("nextAttemptAt", d(e("$lte", at(1500)))), e("workspaceId", d(e("$nin", bson.A{"ws_0001", "ws_0002"}))), e("endpointId", d(e("$nin", bson.A{"we_0003"})))), dueOrder)},
		{coll: "webhookDeliveries", name: "due, keyset page, workspaces at their share left out `{state, workspaceId: {$nin}, $or: […]}`, same", run: find(d(e("state", "pending"), e("workspaceId", d(e("$nin", bson.A{"ws_0001"}))), e("$or", bson.A{
			d(e("nextAttemptAt", d(e("$gt", at(500)), e("$lte", at(1500))))),
			d(e("nextAttemptAt", at(500)), e("_id", d(e("$gt", "dlv_0500")))),
		})), dueOrder)},
		{counts: true, coll: "webhookDeliveries", name: "pending test events and redeliveries `countDocuments({endpointId, manual: true, state: pending}, {limit: 20})`", run: countDocuments(d(e("endpointId", "we_0019"), e("manual", true), e("state", "pending")), options.Count().SetLimit(20))},
		{coll: "webhookDeliveries", name: "retention `deleteMany({_id: {$in}})`", run: deleteMany(d(e("_id", d(e("$in", bson.A{"dlv_0051", "dlv_0052", "dlv_0053"})))))},
		// webhookAttempts (attempt-claims.ts, delivery-log.ts, endpoints-store.ts, retention.ts;
		// an attempt is taken by inserting it)
		{coll: "webhookAttempts", name: "log page's attempts `find({deliveryId: {$in}})`", run: find(d(e("deliveryId", d(e("$in", bson.A{"dlv_0051", "dlv_0052", "dlv_0053"}))))), bounded: "the attempts of one page of deliveries: at most 100 × 11"},
		{coll: "webhookAttempts", name: "endpoint deleted `deleteMany({endpointId})`", run: deleteMany(d(e("endpointId", "we_0003")))},
		{coll: "webhookAttempts", name: "claim taken: `findOne({_id})`", run: findOne(d(e("_id", attemptID(60, 1))))},
		{coll: "webhookAttempts", name: "lost attempt `updateOne({_id, finishedAt: null, leaseUntil})`", run: updateOne(d(e("_id", attemptID(70, 1)), e("finishedAt", nil), e("leaseUntil", at(75))), d(e("$set", d(e("finishedAt", at(3000)), e("error", "lost")))), 1)},
		{coll: "webhookAttempts", name: "finish `updateOne({_id, instanceId, finishedAt: null})`", run: updateOne(d(e("_id", attemptID(80, 1)), e("instanceId", "i_0"), e("finishedAt", nil)), d(e("$set", d(e("finishedAt", at(3000)), e("statusCode", 200)))), 1)},
		{coll: "webhookAttempts", name: "retention `deleteMany({deliveryId: {$in}})`", run: deleteMany(d(e("deliveryId", d(e("$in", bson.A{"dlv_0051", "dlv_0052", "dlv_0053"})))))},
	}
}

// blogTags are the tags of the i-th seeded blog: "a" on all, "t0" to "t9" on a tenth each (of
// one workspace's released blogs, "t2" on a tenth), and "rare" on blogs 2, 1002, 2002….
func blogTags(i int) bson.A {
	tags := bson.A{"a", fmt.Sprintf("t%d", i%10)}
	if i%1000 == 2 {
		tags = append(tags, "rare")
	}
	return tags
}

// blogMediaIDs are the library images the i-th seeded blog shows (its `mediaIds`): none on most,
// med_0010 on one blog in fifty (of both workspaces: the image of ws_0000 and its ID on ws_0001's
// too), and one image of its own on one in five.
func blogMediaIDs(i int) bson.A {
	ids := bson.A{}
	if i%50 == 10 {
		ids = append(ids, "med_0010")
	}
	if i%5 == 0 {
		ids = append(ids, fmt.Sprintf("med_%04d", i))
	}
	return ids
}

// blogTitle is the i-th seeded blog's title: one of five, numbered ("release" on a fifth).
func blogTitle(i int) string {
	return fmt.Sprintf("%s %d", []string{"Release notes", "Weekly digest", "Roadmap", "Security advisory", "Hiring"}[i%5], i%97)
}

// searchTermsOf is blogs/search-terms.ts for ASCII text: every word of title, slug and tags in
// lower case with each of its prefixes (at most 24 characters), distinct.
func searchTermsOf(title, slug string, tags bson.A) bson.A {
	text := title + " " + slug
	for _, tag := range tags {
		text += " " + tag.(string)
	}
	seen := map[string]bool{}
	terms := bson.A{}
	for _, word := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		for n := 1; n <= len(word) && n <= 24; n++ {
			if !seen[word[:n]] {
				seen[word[:n]] = true
				terms = append(terms, word[:n])
			}
		}
	}
	return terms
}

// textTermsOf is the consumer search's textTerms for ASCII text: the distinct words of title,
// tags and body ("b"), no prefixes; "zyxwv" too when rare.
func textTermsOf(title string, tags bson.A, rare bool) bson.A {
	text := title + " b"
	for _, tag := range tags {
		text += " " + tag.(string)
	}
	if rare {
		text += " zyxwv"
	}
	seen := map[string]bool{}
	terms := bson.A{}
	for _, word := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if !seen[word] {
			seen[word] = true
			terms = append(terms, word)
		}
	}
	return terms
}

// counterPrefix is the _id prefix of key_%04d's rate-limit window (rate-counters.ts): key / window start /.
func counterPrefix(key int) string { return fmt.Sprintf("key_%04d/%d/", key, at(key).UnixMilli()) }

// counterID is one instance's counter of that window.
func counterID(key, instance int) string { return fmt.Sprintf("%si%02d", counterPrefix(key), instance) }

// usageID is a usage bucket's _id (usage-buckets.ts): owner / h or d / ISO start.
func usageID(owner, unit string, day int) string {
	return fmt.Sprintf("%s/%s/%s", owner, unit, appStart.AddDate(0, 0, day).Format("2006-01-02T15:04:05.000Z"))
}

// deliveryID is the i-th seeded webhook delivery's _id (`dlv_…`: random in the app, so one
// endpoint's deliveries are spread over the _id order, as these are).
func deliveryID(i int) string { return fmt.Sprintf("dlv_%04d", i) }

// attemptID is an attempt's _id (attempt-claims.ts): the delivery's id, "#", 2 digits.
func attemptID(delivery, number int) string {
	return fmt.Sprintf("%s#%02d", deliveryID(delivery), number)
}

// outboxEvent is event number seq of the i-th seeded blog, as blog-events.ts pushes it to the
// blog's webhookOutbox.
func outboxEvent(i, seq int) bson.D {
	return bson.D{
		{Key: "id", Value: fmt.Sprintf("evt_b%04d_%d", i, seq)}, {Key: "type", Value: "blog.updated"},
		{Key: "at", Value: at(i + seq)}, {Key: "seq", Value: seq}, {Key: "slug", Value: fmt.Sprintf("post-%d", i)},
	}
}

// entryID is a changes-feed entry's _id (change-log.ts): the workspace, "/", 15 digits.
func entryID(workspace string, seq int) string { return fmt.Sprintf("%s/%015d", workspace, seq) }

// seedApp stores n documents in each collection, shaped as server/src stores them.
func seedApp(ctx context.Context, t *testing.T, db *mongo.Database, n int) {
	t.Helper()
	docs := map[string][]any{}
	add := func(coll string, doc bson.D) { docs[coll] = append(docs[coll], doc) }
	for i := range n {
		e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
		ws, user := fmt.Sprintf("ws_%04d", i), fmt.Sprintf("usr_%04d", i)
		workspace := bson.D{e("_id", ws), e("name", "W"), e("createdAt", at(i))}
		if i%10 == 0 { // public feeds on in one workspace in ten
			workspace = append(workspace, e("feedId", fmt.Sprintf("pf_%04d", i)), e("feedLinkTemplate", "https://e.com/{slug}"))
		}
		add("workspaces", workspace)

		status := []string{"draft", "released", "released", "removed"}[i%4]
		var releasedAt any
		if status == "released" {
			releasedAt = at(i)
		}
		title, slug := blogTitle(i), fmt.Sprintf("post-%d", i)
		blog := bson.D{
			e("_id", fmt.Sprintf("b_%04d", i)), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("status", status),
			e("slug", slug), e("title", title), e("bodyMarkdown", "B"), e("tags", blogTags(i)),
			e("createdAt", at(i)), e("updatedAt", at(i)), e("releasedAt", releasedAt), e("removedAt", nil),
		}
		if i%40 != 7 { // blogs stored before presentation fields existed have no `featured`; one in 25 is featured
			blog = append(blog, e("featured", i%25 == 1), e("readingTimeMinutes", 1+i%9))
		}
		switch { // the authors a blog names: one of six authors (a second on some); a rare one; none; before authors existed: no field
		case i%1000 == 7:
			blog = append(blog, e("authorIds", bson.A{"au_rare"}))
		case i%9 == 4:
			blog = append(blog, e("authorIds", bson.A{}))
		case i%11 != 3:
			names := bson.A{fmt.Sprintf("au_%04d", i%6)}
			if i%4 == 1 {
				names = append(names, fmt.Sprintf("au_%04d", (i+1)%6))
			}
			blog = append(blog, e("authorIds", names))
		}
		if status == "released" || i%3 == 0 { // the consumer search's words (textTerms); "zyxwv" on blogs 2, 1002…
			blog = append(blog, e("textTerms", textTermsOf(title, blogTags(i), i%1000 == 2)))
		}
		if i%20 != 5 { // blogs stored before the admin search, until the start-up migration: no fields
			blog = append(blog, e("searchTerms", searchTermsOf(title, slug, blogTags(i))), e("titleKey", strings.ToLower(title)))
		}
		if i%10 != 0 { // blogs stored before revisions existed have none
			blog = append(blog, e("revision", fmt.Sprintf("r_%04d", i)))
		}
		switch { // marked for the changes feed: a few; recorded: most; stored before the feed: no field
		case i%50 == 1:
			blog = append(blog, e("feedPending", true))
		case i%3 != 0:
			blog = append(blog, e("feedPending", false))
		}
		switch { // marked for the preview feed: a few; recorded: most; stored before preview: no field
		case i%50 == 2:
			blog = append(blog, e("previewPending", true), e("previewMark", fmt.Sprintf("pm_%04d", i)))
		case i%4 != 0:
			blog = append(blog, e("previewPending", false), e("previewMark", fmt.Sprintf("pm_%04d", i)))
		}
		switch { // webhook events waiting in the outbox: a few; relayed: some; stored before webhooks: no field
		case i%50 == 7 || i%50 == 30:
			blog = append(blog, e("webhookPending", true), e("eventSeq", 2), e("webhookOutbox", bson.A{outboxEvent(i, 1), outboxEvent(i, 2)}))
		case i%3 == 1:
			blog = append(blog, e("webhookPending", false), e("eventSeq", 1), e("webhookOutbox", bson.A{}))
		}
		if status == "released" && i%10 == 3 { // pending changes (blogs/blog-staging.ts): a blog names its content
			blog = append(blog, e("staged", bson.D{e("revision", fmt.Sprintf("s_%04d", i)), e("updatedAt", at(i+1))}))
			add("blogStaged", bson.D{
				e("_id", fmt.Sprintf("b_%04d:s_%04d", i, i)), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("blogId", fmt.Sprintf("b_%04d", i)),
				e("slug", slug+"-next"), e("title", title+" (edited)"), e("excerpt", ""), e("bodyMarkdown", "B2"), e("bodyHtml", "<p>B2</p>"),
				e("tags", blogTags(i)), e("authorName", "A"), e("authorIds", bson.A{fmt.Sprintf("au_%04d", i%6)}), e("coverImageUrl", nil),
				e("revision", fmt.Sprintf("s_%04d", i)), e("updatedAt", at(i+1)), e("mediaIds", blogMediaIDs(i+1)),
			})
		}
		if status != "removed" && i%40 == 9 { // something scheduled (blogs/blog-schedule.ts): its earliest time
			blog = append(blog, e("schedule", bson.D{e("publishAt", at(i)), e("by", nil), e("rev", 1)}), e("dueAt", at(i)))
		}
		if i%20 != 5 { // the library images it shows (media/body-images.ts); none on blogs stored before, until the migration
			blog = append(blog, e("mediaIds", blogMediaIDs(i)))
		}
		add("blogs", blog)
		// a blog's history (blogs/blog-history.ts): 20 revisions for each of 100 blogs
		add("blogRevisions", bson.D{
			e("_id", fmt.Sprintf("rev_%04d", i)), e("workspaceId", fmt.Sprintf("ws_%04d", (i%100)%2)), e("blogId", fmt.Sprintf("b_%04d", i%100)),
			e("at", at(i)), e("by", nil), e("action", "edited"), e("status", "draft"), e("pendingChanges", false), e("changed", bson.A{"title"}),
			e("content", bson.D{e("slug", slug), e("title", title), e("excerpt", ""), e("bodyMarkdown", "B"), e("tags", blogTags(i)), e("authorName", "A"), e("coverImageUrl", nil)}),
		})
		add("changes", bson.D{e("_id", entryID(fmt.Sprintf("ws_%04d", i%2), i/2+1)), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("blogId", fmt.Sprintf("b_%04d", i)), e("version", fmt.Sprintf("r_%04d", i)), e("at", at(i-n))})

		key := bson.D{
			e("_id", fmt.Sprintf("h_%04d", i)), e("keyId", fmt.Sprintf("key_%04d", i)), e("workspaceId", ws), e("name", "K"),
			e("prefix", "pk_"), e("status", "Active"), e("createdAt", at(i/3)), e("createdBy", nil),
			e("revokedAt", nil), e("revokedBy", nil), e("lastUsedAt", nil),
		}
		switch { // keys with an expiry: most logged already, a few due; keys stored before expiry: no field
		case i%100 == 20:
			key = append(key, e("expiresAt", at(i/50)), e("expiryLogged", false))
		case i%5 == 0:
			key = append(key, e("expiresAt", at(i)), e("expiryLogged", true))
		}
		add("apiKeys", key)
		add("audit", bson.D{
			e("_id", fmt.Sprintf("aud_%04d", i)), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("at", at(i)),
			e("actor", nil), e("action", "key.minted"), e("keyId", fmt.Sprintf("key_%04d", i)), e("details", bson.D{}),
		})
		add("rateCounters", bson.D{e("_id", counterID(i%500, i/500)), e("n", i), e("expiresAt", at(i-n/2))})
		usageOwner := fmt.Sprintf("key_%04d", i%100)
		if i%5 == 0 {
			usageOwner = fmt.Sprintf("ws_%04d", i%100)
		}
		add("keyUsage", bson.D{e("_id", usageID(usageOwner, []string{"h", "d"}[i%2], i/100)), e("start", at(i)), e("ok", i), e("notModified", 0), e("notFound", 0), e("rateLimited", 0), e("other", 0), e("expiresAt", at(i-n/2))})
		userDoc := bson.D{e("_id", user), e("email", fmt.Sprintf("u%04d@example.com", i)), e("name", "U"), e("passwordHash", "x"), e("createdAt", at(i))}
		if i%10 == 0 {
			userDoc = append(userDoc, e("twoStep", bson.D{e("secret", "v1.sealed"), e("lastStep", 5),
				e("recoveryCodes", bson.A{fmt.Sprintf("rc_%04d", i), "rc_other"}), e("enabledAt", at(i))}))
		}
		add("users", userDoc)
		add("signInChallenges", bson.D{
			e("_id", fmt.Sprintf("ch_%04d", i)), e("userId", user), e("generation", 0), e("expiresAt", at(i-n/2)),
		})
		member := fmt.Sprintf("ws_%04d", i%100)
		if i < 100 {
			member = ws // ws_0010:usr_0010 and ws_0011:usr_0011 exist
		}
		add("memberships", bson.D{e("_id", member+":"+user), e("workspaceId", member), e("userId", user), e("role", "member"), e("createdAt", at(i))})
		add("sessions", bson.D{e("_id", fmt.Sprintf("s_%04d", i)), e("userId", fmt.Sprintf("usr_%04d", i%500)), e("createdAt", at(i-n)), e("expiresAt", at(i-n/2))})
		add("signInFailures", bson.D{
			e("_id", fmt.Sprintf("f_%04d", i)), e("email", fmt.Sprintf("u%04d@example.com", i%400)),
			e("address", fmt.Sprintf("10.0.0.%d", i%100)), e("expiresAt", at(i-n/2)),
		})
		add("accessTokens", bson.D{
			e("_id", fmt.Sprintf("h_%04d", i)), e("tokenId", fmt.Sprintf("tok_%04d", i)), e("userId", fmt.Sprintf("usr_%04d", i%500)),
			e("name", "CI"), e("prefix", "pr_pat_abcd"), e("scopes", bson.A{"blogs:read"}),
			e("createdAt", at(i-n)), e("expiresAt", at(i-n/2)), e("lastUsedAt", nil),
		})
		var usedAt any
		if i%4 == 0 {
			usedAt = at(i)
		}
		add("passwordResets", bson.D{
			e("_id", fmt.Sprintf("pr_%04d", i)), e("userId", fmt.Sprintf("usr_%04d", i%500)), e("generation", 0),
			e("createdAt", at(i-n)), e("expiresAt", at(i-n/2)), e("usedAt", usedAt),
		})
		add("emailChanges", bson.D{
			e("_id", user), e("tokenHash", fmt.Sprintf("ec_%04d", i)), e("newEmail", fmt.Sprintf("n%04d@example.com", i)),
			e("fromEmail", fmt.Sprintf("u%04d@example.com", i)), e("generation", 0),
			e("createdAt", at(i-n)), e("expiresAt", at(i-n/2)), e("usedAt", usedAt),
		})
		marker := fmt.Sprintf("m_%04d", i)
		switch i {
		case 0:
			marker = "setup"
		case 1:
			marker = "changes-token-key"
		}
		add("markers", bson.D{e("_id", marker), e("at", at(i))})
		var acceptedAt any
		if i%3 == 0 && i != 12 {
			acceptedAt = at(i)
		}
		add("invitations", bson.D{
			e("_id", fmt.Sprintf("inv_%04d", i)), e("tokenHash", fmt.Sprintf("t_%04d", i)), e("workspaceId", ws),
			e("email", fmt.Sprintf("i%04d@example.com", i)), e("role", "member"), e("invitedBy", user),
			e("createdAt", at(i-n)), e("expiresAt", at(i-n/2)), e("keepUntil", at(i)),
			e("acceptedAt", acceptedAt), e("acceptedBy", nil),
		})
		seedWebhooks(add, i, n)
		seedMedia(add, i)
		add("authors", bson.D{
			e("_id", fmt.Sprintf("au_%04d", i)), e("workspaceId", fmt.Sprintf("ws_%04d", i%100)), e("name", fmt.Sprintf("Writer %d", i)),
			e("nameKey", fmt.Sprintf("writer %d", i)), e("slug", fmt.Sprintf("writer-%d", i)), e("bio", nil), e("avatarUrl", nil),
			e("websiteUrl", nil), e("createdAt", at(i)), e("updatedAt", at(i)),
		})
	}
	for coll, list := range docs {
		if _, err := db.Collection(coll).InsertMany(ctx, list); err != nil {
			t.Fatal(err)
		}
	}
}

// mediaAlts are the seeded images' alt texts, one of five ("beach" on a fifth).
var mediaAlts = []string{"Beach at sunset", "Team photo", "Product shot", "Office plan", "Sales chart"}

// mediaFileID is the GridFS _id (an ObjectId, as the driver makes them) of the seeded image i's
// file k: 0 its original, 1 its copy.
func mediaFileID(i, k int) primitive.ObjectID {
	var id primitive.ObjectID
	id[0], id[9], id[10], id[11] = 0x65, byte(k), byte(i>>8), byte(i)
	return id
}

// seedMedia adds the i-th image of the library as media/media-store.ts stores it: its record in
// `media` (workspaces ws_0000 and ws_0001, newest last; the search's `terms` of its name and alt,
// "zebra" on images 3, 1003…) and its files in the GridFS bucket `mediaFiles`: the original, and
// for one image in four a copy (`w640-webp`), each with `metadata.mediaId`; one file in ten of two
// chunks, the rest of one (`n` an int32, as the Node driver writes it).
func seedMedia(add func(string, bson.D), i int) {
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	id, stem, alt := fmt.Sprintf("med_%04d", i), fmt.Sprintf("photo-%d", i), mediaAlts[i%5]
	if i%1000 == 3 {
		alt += " zebra"
	}
	add("media", bson.D{
		e("_id", id), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("sha256", fmt.Sprintf("%064x", i*7919)),
		e("name", stem+".webp"), e("alt", alt), e("type", "webp"), e("width", 1200), e("height", 800),
		e("bytes", 20000+i), e("terms", searchTermsOf(stem, alt, nil)), e("createdAt", at(i)),
		e("createdBy", fmt.Sprintf("usr_%04d", i%500)),
	})
	keys := []string{"original"}
	if i%4 == 0 {
		keys = append(keys, "w640-webp")
	}
	for k, key := range keys {
		file, chunks := mediaFileID(i, k), 1
		if (i+k)%10 == 0 {
			chunks = 2
		}
		add("mediaFiles.files", bson.D{
			e("_id", file), e("length", int32(261120*(chunks-1)+1000+i)), e("chunkSize", int32(261120)),
			e("uploadDate", at(i)), e("filename", id+"/"+key), e("metadata", bson.D{e("mediaId", id)}),
		})
		for n := range chunks {
			add("mediaFiles.chunks", bson.D{
				e("_id", primitive.ObjectID{0x66, byte(k), byte(n), byte(i >> 8), byte(i)}), e("files_id", file), e("n", int32(n)),
				e("data", primitive.Binary{Data: []byte(fmt.Sprintf("%s/%s#%d", id, key, n))}),
			})
		}
	}
}

// seedWebhooks adds the i-th document of each webhook collection, shaped as webhooks/ stores
// them: 20 endpoints per workspace (the most a workspace may have), their health, events, and
// deliveries of 40 endpoints (50 each; one in ten pending, the rest settled over the 2,000
// minutes before appStart), each with an attempt, a second one for one delivery in four.
func seedWebhooks(add func(string, bson.D), i, n int) {
	e := func(k string, v any) bson.E { return bson.E{Key: k, Value: v} }
	endpoint := fmt.Sprintf("we_%04d", i)
	var disabledReason any
	if i%7 == 0 {
		disabledReason = "R"
	}
	add("webhookEndpoints", bson.D{
		e("_id", endpoint), e("workspaceId", fmt.Sprintf("ws_%04d", i%100)), e("url", "https://example.com/hook"),
		e("description", "D"), e("events", bson.A{"blog.released", "blog.updated"}), e("enabled", i%7 != 0),
		e("disabledReason", disabledReason), e("secret", "sealed"), e("previousSecret", nil),
		e("previousSecretExpiresAt", nil), e("secretRotatedAt", nil), e("createdAt", at(i)), e("updatedAt", at(i)),
		e("createdBy", fmt.Sprintf("usr_%04d", i)),
	})
	var lastSuccessAt, failingSince any
	if i%5 != 0 {
		lastSuccessAt = at(i)
	}
	if i%3 == 1 {
		failingSince = at(i)
	}
	add("webhookHealth", bson.D{e("_id", endpoint), e("lastSuccessAt", lastSuccessAt), e("failingSince", failingSince)})

	// One in a hundred is a test event (no blog) sent to one endpoint.
	eventType, blogID, slug, seq, eventEndpoint := "blog.released", any(fmt.Sprintf("b_%04d", i%200)), any(fmt.Sprintf("post-%d", i%200)), i/200+1, any(nil)
	if i%100 == 50 {
		eventType, blogID, slug, seq, eventEndpoint = "webhook.test", nil, nil, 0, fmt.Sprintf("we_%04d", i%40)
	}
	add("webhookEvents", bson.D{
		e("_id", fmt.Sprintf("evt_%04d", i)), e("workspaceId", fmt.Sprintf("ws_%04d", i%2)), e("type", eventType),
		e("occurredAt", at(i-n)), e("blogId", blogID), e("slug", slug), e("seq", seq), e("endpointId", eventEndpoint),
	})
	state, nextAttemptAt, settledAt := []string{"delivered", "delivered", "failed", "skipped"}[i%4], any(nil), any(at(i-n))
	if i%10 == 0 {
		state, nextAttemptAt, settledAt = "pending", at(i), nil
	}
	var redeliveryOf any
	manual := bson.D{}
	if i%100 == 99 {
		redeliveryOf = deliveryID(i - 40)
		manual = bson.D{e("manual", true)}
	}
	deliveryEndpoint := fmt.Sprintf("we_%04d", i%40)
	add("webhookDeliveries", append(bson.D{
		e("_id", deliveryID(i)), e("eventId", fmt.Sprintf("evt_%04d", i)), e("endpointId", deliveryEndpoint),
		e("workspaceId", fmt.Sprintf("ws_%04d", i%40)), e("eventType", eventType), e("blogId", blogID), e("seq", seq),
		e("state", state), e("attempts", 1+i%4/3), e("nextAttemptAt", nextAttemptAt), e("redeliveryOf", redeliveryOf),
		e("createdAt", at(i-n)), e("settledAt", settledAt),
	}, manual...))
	for number := 1; number <= 1+i%4/3; number++ {
		var finishedAt, statusCode any
		if state != "pending" || number > 1 {
			finishedAt, statusCode = at(i-n+number), 200
		}
		add("webhookAttempts", bson.D{
			e("_id", attemptID(i, number)), e("deliveryId", deliveryID(i)), e("endpointId", deliveryEndpoint),
			e("number", number), e("instanceId", fmt.Sprintf("i_%d", i%4)), e("startedAt", at(i-n+number)),
			e("leaseUntil", at(i+5)), e("finishedAt", finishedAt), e("latencyMs", 12), e("statusCode", statusCode),
			e("error", nil), e("responseExcerpt", "ok"),
		})
	}
}

// TestAppQueryShapesAreIndexSearches fails on a SCAN of a table (except the one intended full
// read) and on a temporary B-tree that is not documented as sorting a bounded set. A SCAN of a
// "_pressroom_t_" partial index is expected: the check for uncomparable values reads it, and it
// holds only the documents that have such values (none here). So is the SCAN of the subquery
// of a count with a limit (`SELECT COUNT(*) FROM (SELECT 1 … LIMIT ? OFFSET ?)`), which reads
// the rows the search in it selected.
func TestAppQueryShapesAreIndexSearches(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	log := &sqlLog{}
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, log)
	db := client.Database("app")
	createAppIndexes(ctx, t, db)
	seedApp(ctx, t, db, 2000)
	ensureIDIndexes(ctx, dir, slog.New(discard{}))
	log.take()
	file := filepath.Join(dir, "app.sqlite")
	tables := tablesOf(t, file)

	rows := []string{"| Query | SQLite plan | Checks before it | Note |", "|---|---|---|---|"}
	for _, s := range appShapes() {
		if err := s.run(ctx, db.Collection(s.coll)); err != nil {
			t.Fatalf("%s %s: %v", s.coll, s.name, err)
		}
		table := tables[s.coll]
		var reads, checks, sizes, writes []string
		for _, q := range log.take() {
			if strings.HasSuffix(q.sql, " WHERE 0") {
				// A $set of booleans' first statement, which takes SQLite's write lock and reads
				// nothing (pressroom_exact_set.go); its plan says SCAN, of no row.
				continue
			}
			plan := explain(ctx, t, file, q.sql, q.args...)
			plan = strings.ReplaceAll(strings.ReplaceAll(plan, table+"_", ""), table, s.coll)
			for _, step := range strings.Split(plan, "; ") {
				// "SCAN (subquery-1)" reads the rows of a count's LIMIT subquery, not a table; "SCAN m"
				// the rows the tag counts' search selected (materialized), and "SCAN j VIRTUAL TABLE"
				// json_each over one of them; "SCAN 100-ROW VALUES CLAUSE" the list of an $or of
				// compare-and-sets, read once into the IN's temporary index (pressroom_exact_tuples.go).
				scan := strings.HasPrefix(step, "SCAN ") && step != "SCAN CONSTANT ROW" && !strings.Contains(step, "INDEX pressroom_t_") &&
					!strings.HasSuffix(step, "-ROW VALUES CLAUSE") &&
					!strings.HasPrefix(step, "SCAN (subquery-") && !strings.HasPrefix(step, "SCAN j VIRTUAL TABLE") && step != "SCAN m" &&
					step != "SCAN pressroom_driver" // the distinct rows of a range's short list (a co-routine)
				// A first row: `WHERE 1 ORDER BY rowid LIMIT ?`, one row of the table read.
				first := s.firstRow && strings.Contains(q.sql, " WHERE 1 ORDER BY ") && strings.HasSuffix(q.sql, "rowid LIMIT ?")
				if scan && !s.fullRead && !first {
					t.Errorf("%s %s: %q scans the table: %s", s.coll, s.name, q.sql, plan)
				}
				if strings.Contains(step, "TEMP B-TREE") && s.bounded == "" && !s.fullRead {
					t.Errorf("%s %s: %q sorts in a temporary B-tree: %s", s.coll, s.name, q.sql, plan)
				}
			}
			switch {
			case strings.HasPrefix(q.sql, "SELECT EXISTS"):
				// A check in the whole collection, or only in the rows the filter's terms on
				// indexed fields select ("scoped": its WHERE starts with those terms).
				if strings.HasSuffix(q.sql, "ELSE 1 END) = 3)") {
					// no plain string in an $elemMatch's field where the filter's equalities select
					// (ExactQuery.StringChecks): shown whole, a search of an index.
					plan = "strings: " + plan
				} else if strings.Contains(q.sql, "WHERE (") {
					plan = "scoped: " + plan
				}
				checks = append(checks, plan)
			case strings.HasPrefix(q.sql, "SELECT COUNT(*), COUNT(CASE WHEN"):
				// A $set of booleans applied in SQL: its matches counted, and those not holding
				// booleans there (pressroom_exact_set.go); the UPDATE follows, a write.
				reads = append(reads, "SET: "+plan)
			case strings.HasPrefix(q.sql, "SELECT (SELECT COUNT(*)"):
				// The sizes of a count's word lists, bounded (pressroom_exact_count.go).
				sizes = append(sizes, plan)
			case strings.HasPrefix(q.sql, "SELECT COUNT(*)"):
				reads = append(reads, "COUNT: "+plan)
			case strings.HasPrefix(q.sql, "WITH m AS MATERIALIZED"):
				reads = append(reads, "GROUP: "+plan)
			case strings.HasPrefix(q.sql, "SELECT"):
				reads = append(reads, plan)
			default:
				writes = append(writes, strings.Fields(q.sql)[0]+": "+plan)
			}
		}
		if len(reads) != 1 {
			t.Errorf("%s %s: %d reads with a WHERE, want 1: %v", s.coll, s.name, len(reads), reads)
		} else if s.index != "" && !strings.Contains(reads[0], "USING INDEX pressroom_x_"+s.index+" ") {
			t.Errorf("%s %s: the read does not search index %s: %s", s.coll, s.name, s.index, reads[0])
		} else if s.counts != strings.HasPrefix(reads[0], "COUNT: ") {
			t.Errorf("%s %s: counted in SQL: %v, want %v: %s", s.coll, s.name, !s.counts, s.counts, reads[0])
		} else if s.counts && s.driven != (strings.HasPrefix(reads[0], "COUNT: SEARCH pressroom_e_") || strings.HasPrefix(reads[0], "COUNT: CO-ROUTINE pressroom_driver; SEARCH pressroom_e_")) {
			t.Errorf("%s %s: counted from a word's list: %v, want %v: %s", s.coll, s.name, !s.driven, s.driven, reads[0])
		} else if s.grouped != strings.HasPrefix(reads[0], "GROUP: ") {
			t.Errorf("%s %s: grouped in SQL: %v, want %v: %s", s.coll, s.name, !s.grouped, s.grouped, reads[0])
		} else if s.grouped && !strings.Contains(reads[0], "USING COVERING INDEX pressroom_x_released_by_tag ") {
			// The tags' values, ranks and ExactNotStringsExpr are columns of the twin of
			// released_by_tag: the counts read that index, never a blog's document.
			t.Errorf("%s %s: the tags are not counted from the covering index of released_by_tag: %s", s.coll, s.name, reads[0])
		}
		note := s.bounded
		if note != "" {
			note = "temporary B-tree over " + note
		}
		if s.fullRead {
			note = "the one intended full read (operator listing of all workspaces)"
		}
		if s.firstRow {
			note = "the table's first row (a SCAN stopped by LIMIT 1)"
		}
		before := summarizeChecks(checks)
		for _, plan := range sizes {
			before += "; the sizes of its lists: `" + plan + "`"
		}
		rows = append(rows, fmt.Sprintf("| %s: %s | `%s` | %s | %s |", s.coll, s.name,
			strings.Join(append(reads, writes...), "`; then `"), before, note))
	}
	t.Logf("plans (%d shapes):\n%s", len(rows)-2, strings.Join(rows, "\n"))
}

// summarizeChecks describes the checks for uncomparable values that ran before a query: how
// many read a partial index, and the plans of the others.
func summarizeChecks(plans []string) string {
	partial, other := 0, []string{}
	for _, p := range plans {
		step := p[strings.LastIndex(p, "; ")+2:]
		switch {
		case strings.HasPrefix(p, "strings: "):
			other = append(other, "no plain string in the $elemMatch's field where its equalities select: `"+strings.TrimPrefix(p, "strings: ")+"`")
		case strings.HasPrefix(p, "scoped: "):
			other = append(other, "in the rows its indexed terms select: `"+step+"`")
		case strings.Contains(step, "INDEX pressroom_t_"):
			partial++
		default:
			other = append(other, "`"+step+"`")
		}
	}
	s := fmt.Sprintf("%d partial index", partial)
	if partial != 1 {
		s += "es"
	}
	return strings.Join(append([]string{s}, other...), "; ")
}

// tablesOf maps the collections of a FerretDB database file to their SQLite tables.
func tablesOf(t *testing.T, file string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name, table_name FROM _ferretdb_collections`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	res := map[string]string{}
	for rows.Next() {
		var name, table string
		if err = rows.Scan(&name, &table); err != nil {
			t.Fatal(err)
		}
		res[name] = table
	}
	return res
}

import type { BlogLocator, BlogPage, ConsumerBlogDoc } from "../blogs/blog-reads.js";
import { presentationOf, versionOf } from "../blogs/blog-rules.js";
import { blogStaging, type EditedBlog } from "../blogs/blog-staging.js";
import type { ListPosition } from "../blogs/cursor.js";
import { type EditorPosition, editorPage } from "../blogs/editor-list.js";
import { type ListFilter, passes } from "../blogs/list-filter.js";
import type { TagCount } from "../blogs/tag-counts.js";
import { compareCodePoints } from "../blogs/tag-filter.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";

/** The spec's bound of the tag list (TagList.data maxItems). */
const MAX_TAGS = 1000;
/** Blogs read per query of a filtered preview page (tags, featured, a range: list-filter.ts). */
const FILTER_BATCH = 100;
/**
 * The most blogs one filtered page reads before it answers what it found (fewer than `limit`,
 * and a `nextCursor`): a rare tag never makes one request read a whole workspace.
 */
const FILTER_SCAN_CAP = 1000;

/**
 * A blog in the preview perspective (openapi.yaml, "Preview"), as the consumer view reads it:
 * its working content (a released blog's pending changes, when it has some); `releasedAt` its
 * release, else its scheduled release, else (view: blog-view.ts) its last change; and as its
 * `revision` the admin version (blog-rules.ts `versionOf`), which moves with every save, staged
 * or not, and every schedule change, so a preview ETag changes whenever the preview does.
 */
export function previewDocOf(doc: EditedBlog): ConsumerBlogDoc {
  const working = doc.pending ?? doc;
  return {
    _id: doc._id,
    slug: working.slug,
    title: working.title,
    excerpt: working.excerpt,
    bodyMarkdown: working.bodyMarkdown,
    bodyHtml: working.bodyHtml,
    tags: working.tags,
    authorName: working.authorName,
    // Pending changes stored before authors existed leave them as live.
    authorIds: working.authorIds ?? doc.authorIds ?? [],
    coverImageUrl: working.coverImageUrl,
    // Pending changes stored before these fields existed leave them as live.
    ...presentationOf({ ...doc, ...working }),
    readingTimeMinutes: working.readingTimeMinutes ?? doc.readingTimeMinutes ?? 0,
    releasedAt: doc.releasedAt ?? doc.schedule?.publishAt ?? null,
    updatedAt: working.updatedAt,
    revision: versionOf(doc),
  };
}

/**
 * The consumer operations' reads in the preview perspective: every blog of the workspace that
 * is not removed, each as it would be published now. Preview answers are for a team's own
 * preview site, never cached and never on the live path, so they read whole blogs and their
 * pending changes (one more read for those of a page that have some) rather than projections.
 */
export interface PreviewReads {
  /** Newest created first (keyset on createdAt, _id: the dashboard's "newest" index). */
  page(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
    filter: ListFilter,
  ): Promise<BlogPage<ConsumerBlogDoc>>;
  /** By ID, or by the slug it has as edited; null when none of this workspace (or removed). */
  get(workspaceId: string, at: BlogLocator): Promise<ConsumerBlogDoc | null>;
  /** The tags of the preview perspective with their counts, as `listTags` orders them. */
  tagCounts(workspaceId: string): Promise<TagCount[]>;
}

export function previewReads(collections: Pick<Collections, "blogs" | "blogStaged">): PreviewReads {
  const { blogs, blogStaged } = collections;
  const staging = blogStaging(collections);
  const EVERY = { status: undefined, sort: "newest", search: null } as const;
  const positionOf = (doc: BlogDoc): ListPosition => ({ at: doc.createdAt, id: doc._id });

  return {
    async page(workspaceId, limit, after, filter) {
      const filtered = filter.key !== "";
      const found: { doc: BlogDoc; view: ConsumerBlogDoc }[] = [];
      let from: EditorPosition | null = after === null ? null : { value: after.at, id: after.id };
      let scanned = 0;
      for (;;) {
        const batch = await editorPage(
          blogs,
          workspaceId,
          EVERY,
          filtered ? Math.max(limit + 1, FILTER_BATCH) : limit + 1,
          from,
        );
        for (const doc of await staging.withPending(batch.blogs)) {
          scanned += 1;
          const view = previewDocOf(doc);
          if (
            filtered &&
            !passes(filter, { ...view, releasedAt: view.releasedAt ?? view.updatedAt })
          )
            continue;
          found.push({ doc, view });
          if (found.length > limit) {
            const last = found[limit - 1];
            return {
              blogs: found.slice(0, limit).map((f) => f.view),
              next: last === undefined ? null : positionOf(last.doc),
            };
          }
        }
        const lastRead = batch.blogs.at(-1);
        if (batch.next === null || lastRead === undefined) {
          return { blogs: found.map((f) => f.view), next: null };
        }
        if (scanned >= FILTER_SCAN_CAP) {
          return { blogs: found.map((f) => f.view), next: positionOf(lastRead) };
        }
        from = batch.next;
      }
    },

    async get(workspaceId, at) {
      if ("id" in at) {
        const doc = await blogs.findOne({ _id: at.id, workspaceId, status: { $ne: "removed" } });
        if (doc === null) return null;
        const [edited] = await staging.withPending([doc]);
        return previewDocOf(edited ?? doc);
      }
      // The slug as edited: a blog's own (unless its pending changes move it), or that of a
      // blog's current pending changes. Of two (a pending slug another blog has since taken:
      // its publish would be refused), the one whose slug it is now.
      const [owner, staged] = await Promise.all([
        blogs.findOne({ workspaceId, slug: at.slug, status: { $ne: "removed" } }),
        blogStaged
          .find({ workspaceId, slug: at.slug }, { projection: { blogId: 1, revision: 1 } })
          .toArray(),
      ]);
      const candidates: BlogDoc[] = owner === null ? [] : [owner];
      const others = staged.map((s) => s.blogId).filter((id) => id !== owner?._id);
      if (others.length > 0) {
        candidates.push(
          ...(await blogs
            .find({ _id: { $in: others }, workspaceId, status: "released" })
            .toArray()),
        );
      }
      const edited = await staging.withPending(candidates);
      const views = edited.map(previewDocOf).filter((view) => view.slug === at.slug);
      return views.find((view) => view._id === owner?._id) ?? views[0] ?? null;
    },

    async tagCounts(workspaceId) {
      const counts = new Map<string, number>();
      const add = (tags: readonly string[], by: number) => {
        for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + by);
      };
      // Every blog's stored tags, counted in the database (one GROUP BY on the embedded one);
      // then each released blog with pending changes counts its pending tags instead of its
      // released ones. Those are found from the workspace's pending content (index
      // `blog_staged`; few), not by reading its released blogs.
      const [groups, staged] = await Promise.all([
        blogs
          .aggregate<{ _id: string; count: number }>([
            { $match: { workspaceId, status: { $in: ["draft", "released"] } } },
            { $project: { tags: 1 } },
            { $unwind: "$tags" },
            { $group: { _id: "$tags", count: { $sum: 1 } } },
          ])
          .toArray(),
        blogStaged
          .find({ workspaceId }, { projection: { blogId: 1, revision: 1, tags: 1 } })
          .toArray(),
      ]);
      for (const { _id, count } of groups) counts.set(_id, count);
      if (staged.length > 0) {
        const named = await blogs
          .find(
            { _id: { $in: [...new Set(staged.map((s) => s.blogId))] } },
            { projection: { _id: 1, workspaceId: 1, status: 1, tags: 1, staged: 1 } },
          )
          .toArray();
        const current = new Map(named.map((doc) => [doc._id, doc]));
        for (const content of staged) {
          const doc = current.get(content.blogId);
          // Only the version its blog names now (a leftover of a crash names none).
          if (
            doc === undefined ||
            doc.workspaceId !== workspaceId ||
            doc.status !== "released" ||
            doc.staged?.revision !== content.revision
          ) {
            continue;
          }
          add(doc.tags, -1);
          add(content.tags, 1);
        }
      }
      return [...counts]
        .filter(([, count]) => count > 0)
        .map(([tag, count]) => ({ tag, count }))
        .sort((a, b) => b.count - a.count || compareCodePoints(a.tag, b.tag))
        .slice(0, MAX_TAGS);
    },
  };
}

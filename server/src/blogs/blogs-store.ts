import { type Filter, MongoServerError } from "mongodb";
import type { BlogDoc, BlogStatus, Collections } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import { newId, randomBase62 } from "../ids.js";
import type { ListPosition } from "./cursor.js";
import { excerptOf, type RenderedBody, slugify } from "./render.js";
import { type BodyRenderer, RenderRefused } from "./render-pool.js";

/** What a writer sets; everything else (html, excerpt default, times) is derived. */
export interface BlogFields {
  title: string;
  slug?: string | undefined;
  bodyMarkdown: string;
  excerpt?: string | undefined;
  tags?: string[] | undefined;
  authorName?: string | undefined;
  coverImageUrl?: string | null | undefined;
}

export interface NewBlog extends BlogFields {
  release?: boolean | undefined;
}

/** A fresh value for `BlogDoc.revision`: every write of a blog stores a new one. */
const newRevision = (): string => randomBase62(12);

/** What a consumer ETag is derived from (see blog-view.ts `validatorOf`); never the content. */
export type BlogValidatorFields = Pick<BlogDoc, "_id" | "updatedAt" | "releasedAt" | "revision">;
const VALIDATOR_PROJECTION = { _id: 1, updatedAt: 1, releasedAt: 1, revision: 1 } as const;

export interface BlogPage<Doc = BlogDoc> {
  blogs: Doc[];
  /** Position after the last blog, or null on the last page. */
  next: ListPosition | null;
}

const DUPLICATE_KEY = 11000;
// The embedded database (FerretDB 1.24, SQLite) reports a unique-index violation on `update`
// as a generic InternalError (code 1) naming the SQLite constraint, not as 11000.
const FERRETDB_UNIQUE_UPDATE = /UNIQUE constraint failed/;
const isDuplicateKey = (err: unknown): boolean =>
  err instanceof MongoServerError &&
  (err.code === DUPLICATE_KEY || FERRETDB_UNIQUE_UPDATE.test(err.message));
const slugTaken = (slug: string) =>
  new HttpError(409, `Slug "${slug}" is already used in this workspace.`);

function checkCoverUrl(url: string | null | undefined): string | null {
  if (url === undefined || url === null || url === "") return null;
  const invalid = () => new HttpError(400, "coverImageUrl must be an absolute http(s) URL.");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid();
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw invalid();
  return parsed.href;
}

function checkSlug(slug: string): string {
  const normal = slugify(slug);
  if (normal !== slug) {
    throw new HttpError(
      400,
      `Slug must be lower-case letters, digits and dashes (try "${normal}").`,
    );
  }
  return slug;
}

const cleanTags = (tags: string[] | undefined): string[] => [
  ...new Set((tags ?? []).map((t) => t.trim()).filter((t) => t !== "")),
];

/** The stored content of `fields` but its rendered body: normalised once, at save time. */
function content(fields: BlogFields, rendered: RenderedBody) {
  const title = fields.title.trim();
  if (title === "") throw new HttpError(400, "A blog needs a title.");
  return {
    title,
    excerpt: fields.excerpt?.trim() || rendered.excerpt,
    bodyMarkdown: fields.bodyMarkdown,
    bodyHtml: rendered.bodyHtml,
    tags: cleanTags(fields.tags),
    authorName: fields.authorName?.trim() || "Pressroom",
    coverImageUrl: checkCoverUrl(fields.coverImageUrl),
  };
}

/** A state change or edit lost to another one this many times in a row gives up with 409. */
const MAX_WRITE_ATTEMPTS = 5;

/**
 * Runs `work` for one key at a time in this process. The embedded database (FerretDB) applies an
 * update as a read, then a write by `_id`, without a lock, so two updates whose filters both
 * matched the same version would both win; writing a blog one at a time per process makes the
 * compare-and-set below exact there too. On MongoDB the filter alone is atomic across instances.
 */
function keyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** Blogs of a workspace: writes for the dashboard and operators, and the consumer API's reads. */
export function blogsStore({ blogs, workspaces }: Collections, renderer: BodyRenderer) {
  const oneAtATime = keyedQueue();
  const find = async (workspaceId: string, blogId: string): Promise<BlogDoc> => {
    const doc = await blogs.findOne({ _id: blogId, workspaceId, status: { $ne: "removed" } });
    if (doc === null) throw new HttpError(404, "Blog not found.");
    return doc;
  };

  /** Keyset pagination on (field desc, _id desc): no skip, no shifting while others change. */
  const page = async <Doc extends Pick<BlogDoc, "_id" | "releasedAt" | "createdAt"> = BlogDoc>(
    filter: Filter<BlogDoc>,
    field: "releasedAt" | "createdAt",
    limit: number,
    after: ListPosition | null,
    projection?: Record<string, 1>,
  ): Promise<BlogPage<Doc>> => {
    const query: Filter<BlogDoc> = { ...filter };
    if (after !== null) {
      query.$or = [{ [field]: { $lt: after.at } }, { [field]: after.at, _id: { $lt: after.id } }];
    }
    const docs = await blogs
      .find<Doc>(query, projection === undefined ? {} : { projection })
      .sort({ [field]: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    const pageDocs = docs.slice(0, limit);
    const last = pageDocs.at(-1);
    const at = last?.[field];
    const next = docs.length > limit && last !== undefined && at ? { at, id: last._id } : null;
    return { blogs: pageDocs, next };
  };

  /**
   * Every write of an existing blog: read its current version (404 when removed), derive the
   * changes from it, and store them only if the blog still has the status and revision that were
   * read (compare-and-set; `updatedAt` stands in for the revision on blogs stored before it). A
   * lost race re-reads and derives again, so a removal in between ends in 404, never in a
   * removed blog brought back; 409 after `MAX_WRITE_ATTEMPTS` lost races in a row.
   */
  const writeVersion = (
    workspaceId: string,
    blogId: string,
    change: (doc: BlogDoc) => Partial<BlogDoc> | null,
  ): Promise<BlogDoc> =>
    oneAtATime(blogId, async () => {
      for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
        const doc = await find(workspaceId, blogId);
        const changes = change(doc);
        if (changes === null) return doc;
        const version: Filter<BlogDoc> =
          doc.revision === undefined
            ? { revision: { $exists: false }, updatedAt: doc.updatedAt }
            : { revision: doc.revision };
        const { matchedCount } = await blogs.updateOne(
          { _id: blogId, workspaceId, status: doc.status, ...version },
          { $set: changes },
        );
        if (matchedCount === 1) return { ...doc, ...changes };
      }
      throw new HttpError(
        409,
        "The blog was changed by someone else at the same time; reload it and try again.",
      );
    });

  return {
    async create(workspaceId: string, input: NewBlog): Promise<BlogDoc> {
      const fields = content(input, await renderer.render(input.bodyMarkdown));
      if ((await workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
        throw new HttpError(404, "Workspace not found.");
      }
      const explicitSlug = input.slug !== undefined;
      const baseSlug = explicitSlug ? checkSlug(input.slug ?? "") : slugify(fields.title);
      const now = new Date();
      const release = input.release === true;
      for (let attempt = 1; ; attempt++) {
        const doc: BlogDoc = {
          _id: newId("b"),
          workspaceId,
          status: release ? "released" : "draft",
          slug: attempt === 1 ? baseSlug : `${baseSlug}-${attempt}`,
          ...fields,
          createdAt: now,
          updatedAt: now,
          releasedAt: release ? now : null,
          removedAt: null,
          revision: newRevision(),
        };
        try {
          await blogs.insertOne(doc);
          return doc;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          if (explicitSlug) throw slugTaken(baseSlug);
          if (attempt >= 50) throw err;
        }
      }
    },

    /** Edits content; on a released blog consumers see the change (and a new ETag) at once. */
    async update(
      workspaceId: string,
      blogId: string,
      patch: Partial<BlogFields>,
    ): Promise<BlogDoc> {
      // Rendered before the blog is read: a slow body holds no other writer of the blog back.
      const rendered =
        patch.bodyMarkdown === undefined ? null : await renderer.render(patch.bodyMarkdown);
      const slug = patch.slug === undefined ? undefined : checkSlug(patch.slug);
      try {
        return await writeVersion(workspaceId, blogId, (doc) => ({
          ...content(
            {
              ...doc,
              ...patch,
              // A new body without a new excerpt re-derives the excerpt.
              excerpt: patch.excerpt ?? (rendered === null ? doc.excerpt : undefined),
            },
            // The body as stored; an emptied excerpt is derived from it again.
            rendered ?? { bodyHtml: doc.bodyHtml, excerpt: excerptOf(doc.bodyHtml) },
          ),
          slug: slug ?? doc.slug,
          updatedAt: new Date(),
          revision: newRevision(),
        }));
      } catch (err) {
        if (isDuplicateKey(err)) throw slugTaken(slug ?? "");
        throw err;
      }
    },

    /**
     * draft ⇄ released, and either → removed, which is final: a removed blog is never written
     * again (every later change or edit gets 404). Setting the state a blog has changes nothing.
     */
    async setStatus(workspaceId: string, blogId: string, status: BlogStatus): Promise<BlogDoc> {
      return writeVersion(workspaceId, blogId, (doc) => {
        if (doc.status === status) return null;
        const now = new Date();
        const revision = newRevision();
        return status === "released"
          ? { status, releasedAt: now, updatedAt: now, revision }
          : status === "removed"
            ? { status, removedAt: now, updatedAt: now, revision }
            : { status, releasedAt: null, updatedAt: now, revision };
      });
    },

    /**
     * What saving `bodyMarkdown` would store as `bodyHtml` (and derive as the excerpt), through
     * the same renderer and its limits (422, 503); nothing is stored. The editor's preview.
     */
    async preview(bodyMarkdown: string): Promise<RenderedBody> {
      try {
        return await renderer.render(bodyMarkdown);
      } catch (err) {
        // The refusal as it is: a preview has nothing to say about saving.
        if (err instanceof RenderRefused) throw new HttpError(422, err.refusal.message);
        throw err;
      }
    },

    /** A blog of this workspace in any state but removed. */
    get: find,

    async listAll(workspaceId: string): Promise<BlogDoc[]> {
      return blogs.find({ workspaceId }).sort({ createdAt: -1, _id: -1 }).toArray();
    },

    /** The dashboard's list: drafts and released blogs, newest first, optionally one state. */
    listForEditors(
      workspaceId: string,
      status: "draft" | "released" | undefined,
      limit: number,
      after: ListPosition | null,
    ): Promise<BlogPage> {
      const filter: Filter<BlogDoc> =
        status === undefined
          ? { workspaceId, status: { $in: ["draft", "released"] } }
          : { workspaceId, status };
      return page(filter, "createdAt", limit, after);
    },

    /** The consumer list: released blogs, newest release first (keyset on releasedAt, _id). */
    listReleased(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
    ): Promise<BlogPage> {
      return page({ workspaceId, status: "released" }, "releasedAt", limit, after);
    },

    /** The same page as `listReleased`, with only the fields of its validator: no content. */
    listReleasedValidators(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
    ): Promise<BlogPage<BlogValidatorFields>> {
      return page<BlogValidatorFields & Pick<BlogDoc, "createdAt">>(
        { workspaceId, status: "released" },
        "releasedAt",
        limit,
        after,
        VALIDATOR_PROJECTION,
      );
    },

    /**
     * A released blog of this workspace, or null: drafts, removed and foreign blogs alike.
     * Read by `_id` alone and checked here, so the embedded database (FerretDB) uses its primary
     * index too; MongoDB does the same work either way.
     */
    async getReleased(workspaceId: string, blogId: string): Promise<BlogDoc | null> {
      const doc = await blogs.findOne({ _id: blogId });
      return doc !== null && doc.workspaceId === workspaceId && doc.status === "released"
        ? doc
        : null;
    },

    /** `getReleased` with only the fields of the blog's validator: no content. */
    async getReleasedValidator(
      workspaceId: string,
      blogId: string,
    ): Promise<BlogValidatorFields | null> {
      const doc = await blogs.findOne<
        BlogValidatorFields & Pick<BlogDoc, "workspaceId" | "status">
      >({ _id: blogId }, { projection: { ...VALIDATOR_PROJECTION, workspaceId: 1, status: 1 } });
      return doc !== null && doc.workspaceId === workspaceId && doc.status === "released"
        ? doc
        : null;
    },
  };
}

export type BlogsStore = ReturnType<typeof blogsStore>;

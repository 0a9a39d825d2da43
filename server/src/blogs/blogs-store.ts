import { type Filter, MongoServerError } from "mongodb";
import type { BlogDoc, BlogStatus, Collections } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import { newId } from "../ids.js";
import type { ListPosition } from "./cursor.js";
import { excerptOf, renderMarkdown, slugify } from "./render.js";

export interface NewBlog {
  title: string;
  slug?: string | undefined;
  bodyMarkdown: string;
  excerpt?: string | undefined;
  tags?: string[] | undefined;
  authorName?: string | undefined;
  coverImageUrl?: string | null | undefined;
  release?: boolean | undefined;
}

export interface ReleasedPage {
  blogs: BlogDoc[];
  /** Position after the last blog, or null on the last page. */
  next: ListPosition | null;
}

const DUPLICATE_KEY = 11000;
const isDuplicateKey = (err: unknown): boolean =>
  err instanceof MongoServerError && err.code === DUPLICATE_KEY;

function checkCoverUrl(url: string | null | undefined): string | null {
  if (url === undefined || url === null || url === "") return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HttpError(400, "coverImageUrl must be an absolute http(s) URL.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new HttpError(400, "coverImageUrl must be an absolute http(s) URL.");
  }
  return parsed.href;
}

/** Blogs of a workspace: writes for operators, and the two reads the consumer API serves. */
export function blogsStore({ blogs, workspaces }: Collections) {
  return {
    async create(workspaceId: string, input: NewBlog): Promise<BlogDoc> {
      const title = input.title.trim();
      if (title === "") throw new HttpError(400, "A blog needs a title.");
      if ((await workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
        throw new HttpError(404, "Workspace not found.");
      }
      const explicitSlug = input.slug !== undefined;
      const baseSlug = explicitSlug ? slugify(input.slug ?? "") : slugify(title);
      if (explicitSlug && baseSlug !== input.slug) {
        throw new HttpError(
          400,
          `Slug must be lower-case letters, digits and dashes (try "${baseSlug}").`,
        );
      }
      const bodyHtml = renderMarkdown(input.bodyMarkdown);
      const now = new Date();
      const release = input.release === true;
      for (let attempt = 1; ; attempt++) {
        const doc: BlogDoc = {
          _id: newId("b"),
          workspaceId,
          status: release ? "released" : "draft",
          slug: attempt === 1 ? baseSlug : `${baseSlug}-${attempt}`,
          title,
          excerpt: input.excerpt?.trim() || excerptOf(bodyHtml),
          bodyMarkdown: input.bodyMarkdown,
          bodyHtml,
          tags: [...new Set((input.tags ?? []).map((t) => t.trim()).filter((t) => t !== ""))],
          authorName: input.authorName?.trim() || "Pressroom",
          coverImageUrl: checkCoverUrl(input.coverImageUrl),
          createdAt: now,
          updatedAt: now,
          releasedAt: release ? now : null,
          removedAt: null,
        };
        try {
          await blogs.insertOne(doc);
          return doc;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          if (explicitSlug)
            throw new HttpError(409, `Slug "${baseSlug}" is already used in this workspace.`);
          if (attempt >= 50) throw err;
        }
      }
    },

    /** released: (re)release now; draft: withdraw; removed: gone from consumers for good. */
    async setStatus(workspaceId: string, blogId: string, status: BlogStatus): Promise<BlogDoc> {
      const doc = await blogs.findOne({ _id: blogId, workspaceId });
      if (doc === null) throw new HttpError(404, "Blog not found.");
      if (doc.status === "removed") throw new HttpError(409, "A removed blog cannot change state.");
      if (doc.status === status) return doc;
      const now = new Date();
      const changes: Partial<BlogDoc> =
        status === "released"
          ? { status, releasedAt: now, updatedAt: now }
          : status === "removed"
            ? { status, removedAt: now, updatedAt: now }
            : { status, releasedAt: null, updatedAt: now };
      await blogs.updateOne({ _id: blogId, workspaceId }, { $set: changes });
      return { ...doc, ...changes };
    },

    async listAll(workspaceId: string): Promise<BlogDoc[]> {
      return blogs.find({ workspaceId }).sort({ createdAt: -1, _id: -1 }).toArray();
    },

    /**
     * One page of released blogs, newest release first, `_id` breaking ties. Keyset
     * pagination: the page after `after` starts strictly below it in (releasedAt, _id) order,
     * so blogs released or removed meanwhile never shift or repeat the rest of a walk.
     */
    async listReleased(
      workspaceId: string,
      limit: number,
      after: ListPosition | null,
    ): Promise<ReleasedPage> {
      const filter: Filter<BlogDoc> = { workspaceId, status: "released" };
      if (after !== null) {
        filter.$or = [
          { releasedAt: { $lt: after.releasedAt } },
          { releasedAt: after.releasedAt, _id: { $lt: after.id } },
        ];
      }
      const docs = await blogs
        .find(filter)
        .sort({ releasedAt: -1, _id: -1 })
        .limit(limit + 1)
        .toArray();
      const page = docs.slice(0, limit);
      const last = page.at(-1);
      const next =
        docs.length > limit && last?.releasedAt
          ? { releasedAt: last.releasedAt, id: last._id }
          : null;
      return { blogs: page, next };
    },

    /** A released blog of this workspace, or null: drafts, removed and foreign blogs alike. */
    async getReleased(workspaceId: string, blogId: string): Promise<BlogDoc | null> {
      return blogs.findOne({ _id: blogId, workspaceId, status: "released" });
    },
  };
}

export type BlogsStore = ReturnType<typeof blogsStore>;

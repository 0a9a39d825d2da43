/**
 * `pressroom export`: a workspace as one JSON document, Pressroom's own format, which
 * `pressroom import` reads back (pressroom-format.ts).
 *
 * What a field is:
 * - content, which an import into another workspace or database reproduces exactly: every field
 *   of `blogs[]` but `id` (slug, title, status, bodies, excerpt, tags, author, cover, the four
 *   timestamps), and the workspace's `authors` (public fields, no IDs: a blog names its authors
 *   by slug, the key an import matches them on), and the library's `media` records (the image files
 *   travel beside the document, export-media.ts; an import matches them by `id`, pressroom-media.ts);
 * - identities and run data, which differ between two exports of the same content: `exportedAt`,
 *   `blogs[].id` (an import gives the blog an id of its own, derived from the workspace and this
 *   id), and `workspace`, `keys`, `webhookEndpoints`, which describe the exported workspace and are
 *   never imported (keys and endpoints are metadata only: mint new keys, add endpoints again).
 * Never in it: a key's hash or raw key, a webhook signing secret, users and their password hashes.
 * A webhook endpoint's URL is exported as its origin and path only: no query string, fragment or
 * user:password, where a receiver's token often sits.
 */
import type { Writable } from "node:stream";
import type { components } from "../../../openapi/generated/admin.js";
import { authorsStore } from "../authors/authors-store.js";
import { authorIdsOf, presentationOf } from "../blogs/blog-rules.js";
import { excerptOf } from "../blogs/render.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import { jsonSafe } from "../platform/terminal-text.js";

type Schemas = components["schemas"];

export const EXPORT_FORMAT = "pressroom.workspace-export";
export const EXPORT_VERSION = 1;

/** A blog of an export (admin.yaml `ExportedBlog`); `excerpt` null: derived from the body. */
export type ExportedBlog = Schemas["ExportedBlog"];
/** The export document (admin.yaml `WorkspaceExport`): what the CLI writes and the API answers. */
export type WorkspaceExport = Schemas["WorkspaceExport"];
/** A library image of an export (admin.yaml `ExportedMedia`): its record, not its bytes. */
export type ExportedMedia = Schemas["ExportedMedia"];

const iso = (at: Date | null | undefined): string | null => at?.toISOString() ?? null;

/** Blogs in the order of creation, ties by slug: ids change on import, slugs do not. */
const byCreation = (a: BlogDoc, b: BlogDoc): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/**
 * A stored blog as exported; `slugOf` gives its authors' slugs by ID (an author removed since,
 * not found, is left out as the consumer API leaves them out).
 */
export function exportedBlog(
  b: BlogDoc,
  slugOf: ReadonlyMap<string, string> = new Map(),
): ExportedBlog {
  return {
    id: b._id,
    slug: b.slug,
    title: b.title,
    status: b.status,
    bodyMarkdown: b.bodyMarkdown,
    excerpt: b.excerpt === excerptOf(b.bodyHtml) ? null : b.excerpt,
    tags: b.tags,
    authorName: b.authorName,
    authors: authorIdsOf(b).flatMap((id) => slugOf.get(id) ?? []),
    coverImageUrl: b.coverImageUrl,
    ...presentationOf(b),
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
    releasedAt: iso(b.releasedAt),
    removedAt: iso(b.removedAt),
  };
}

/** The export of workspace `workspaceId`, every blog in every state included. */
export async function exportWorkspace(
  c: Pick<
    Collections,
    "workspaces" | "blogs" | "apiKeys" | "webhookEndpoints" | "authors" | "media"
  >,
  workspaceId: string,
  now: Date,
): Promise<WorkspaceExport> {
  const ws = await c.workspaces.findOne({ _id: workspaceId });
  if (ws === null) throw notFound("Workspace not found.");
  const blogs = await c.blogs
    .find(
      { workspaceId },
      {
        projection: {
          webhookOutbox: 0,
          feedPending: 0,
          webhookPending: 0,
          eventSeq: 0,
          previewPending: 0,
          previewMark: 0,
        },
      },
    )
    .sort({ createdAt: 1, _id: 1 })
    .toArray();
  const authors = await authorsStore(c).list(workspaceId);
  const slugOf = new Map(authors.map((a) => [a._id, a.slug]));
  const media = await c.media
    .find({ workspaceId }, { projection: { terms: 0 } })
    .sort({ createdAt: 1, _id: 1 })
    .toArray();
  const keys = await c.apiKeys
    .find({ workspaceId }, { projection: { _id: 0 } })
    .sort({ createdAt: 1, keyId: 1 })
    .toArray();
  const endpoints = await c.webhookEndpoints
    .find({ workspaceId }, { projection: { secret: 0, previousSecret: 0 } })
    .sort({ createdAt: 1, _id: 1 })
    .toArray();
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    workspace: {
      id: ws._id,
      name: ws.name,
      createdAt: ws.createdAt.toISOString(),
      rateLimit: ws.rateLimit ?? null,
    },
    authors: authors.map((a) => ({
      slug: a.slug,
      name: a.name,
      bio: a.bio,
      avatarUrl: a.avatarUrl,
      websiteUrl: a.websiteUrl,
    })),
    blogs: blogs.sort(byCreation).map((b) => exportedBlog(b, slugOf)),
    media: media.map((m) => ({
      id: m._id,
      name: m.name,
      alt: m.alt,
      type: m.type,
      width: m.width,
      height: m.height,
      bytes: m.bytes,
      sha256: m.sha256,
      createdAt: m.createdAt.toISOString(),
    })),
    keys: keys.map((k) => ({
      id: k.keyId,
      name: k.name,
      prefix: k.prefix,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: iso(k.lastUsedAt),
      expiresAt: iso(k.expiresAt),
      revokedAt: iso(k.revokedAt),
    })),
    webhookEndpoints: endpoints.map((e) => ({
      url: withoutSecrets(e.url),
      description: e.description,
      events: e.events,
      enabled: e.enabled,
    })),
  };
}

/** A URL's origin and path: its query, fragment and credentials may hold a token. */
function withoutSecrets(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "";
  }
}

/**
 * Writes `doc` as indented JSON, one blog at a time, waiting whenever `out` asks to (its
 * buffer is full), so 10,000 blogs never sit in memory twice; resolves once all is handed over.
 */
export async function writeExport(doc: WorkspaceExport, out: Writable): Promise<void> {
  // Bidi overrides and C1 controls in titles escaped, as JSON.stringify does C0 controls: the
  // same JSON, safe to print on a terminal (the CLI writes it to stdout without --out).
  const write = async (text: string) => {
    if (!out.write(jsonSafe(text))) await drained(out);
  };
  const { blogs, ...head } = doc;
  const headText = JSON.stringify({ ...head, blogs: [] }, null, 2);
  // Everything but the blogs, then each blog in the place of the empty list.
  const [before, after] = headText.split('"blogs": []');
  await write(`${before}"blogs": [`);
  for (let i = 0; i < blogs.length; i++) {
    const blog = JSON.stringify(blogs[i], null, 2).replace(/\n/g, "\n    ");
    await write(`${i === 0 ? "" : ","}\n    ${blog}`);
  }
  await new Promise<void>((resolve, reject) => {
    out.write(jsonSafe(`${blogs.length === 0 ? "" : "\n  "}]${after}\n`), (err) =>
      err ? reject(err) : resolve(),
    );
  });
}

/** When `out` asks for no more until it drains: resolves then, rejects if it closes first. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      out.off("drain", onDrain);
      out.off("close", onClose);
      out.off("error", settle);
      if (err === undefined) resolve();
      else reject(err);
    };
    const onDrain = () => settle();
    const onClose = () =>
      settle(new Error("The export's destination closed before it was written."));
    out.on("drain", onDrain);
    out.on("close", onClose);
    out.on("error", settle);
    if (out.destroyed) onClose();
  });
}

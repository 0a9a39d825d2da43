/**
 * What an import would do, decided before anything is written (`pressroom import --dry-run`
 * prints it; import-apply.ts carries it out). Every check comes first: the set's entries against
 * the blog rules and each other, the workspace, slugs taken by other blogs, bodies the renderer
 * refuses. Any problem → one ImportInputError, and nothing is written.
 */
import { MAX_AUTHORS } from "../authors/author-rules.js";
import { authorsStore } from "../authors/authors-store.js";
import {
  authorIdsOf,
  type PresentationField,
  presentationOf,
  samePresentation,
} from "../blogs/blog-rules.js";
import { excerptOf } from "../blogs/render.js";
import { type BodyRenderer, RenderRefused } from "../blogs/render-pool.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import {
  authorProblems,
  coverUrl,
  presentationOfEntry,
  setProblemsByKind,
} from "./import-checks.js";
import { importBlogId } from "./import-identity.js";
import {
  type ImportAuthor,
  type ImportBlog,
  type ImportEntries,
  ImportInputError,
  type ImportProblem,
  type OnProgress,
} from "./import-set.js";

export type PlanAction = "create" | "update" | "unchanged" | "conflict";

/** A blog's stored content and state, as an import writes it (all of BlogDoc a source decides). */
export type ImportedFields = Pick<
  BlogDoc,
  | "title"
  | "slug"
  | "status"
  | "bodyMarkdown"
  | "bodyHtml"
  | "excerpt"
  | "tags"
  | "authorName"
  | "coverImageUrl"
  | "createdAt"
  | "updatedAt"
  | "releasedAt"
  | "removedAt"
> &
  Required<Pick<BlogDoc, PresentationField | "readingTimeMinutes">> & {
    /** The release scheduled in the source (`ImportBlog.publishAt`), null for none. */
    publishAt: Date | null;
    /**
     * The authors the blog names, by ID: set by import-apply.ts once the missing authors are
     * created; absent when the entry says nothing of authors (an update keeps the blog's).
     */
    authorIds?: string[];
  };

/**
 * An author the import names or lists (README, "Import and export"): one the workspace has,
 * used as they are (`existing`, their name as stored), or one to `create` with `fields`.
 */
export type PlannedAuthor =
  | {
      readonly action: "existing";
      readonly slug: string;
      readonly name: string;
      readonly id: string;
    }
  | {
      readonly action: "create";
      readonly slug: string;
      readonly name: string;
      readonly fields: ImportAuthor;
    };

export interface PlanEntry {
  readonly blog: ImportBlog;
  /** The blog's id in Pressroom (import-identity.ts). */
  readonly id: string;
  readonly action: PlanAction;
  /** Why a conflict is not written. */
  readonly reason?: string;
  /** What create and update write. */
  readonly fields?: ImportedFields;
  /** The stored blog an update, unchanged or conflict is about. */
  readonly stored?: BlogDoc;
}

export interface ImportPlan {
  readonly workspaceId: string;
  readonly set: ImportEntries;
  readonly entries: readonly PlanEntry[];
  /** The authors named or listed, in the order first met: the source's list, then the entries'. */
  readonly authors: readonly PlannedAuthor[];
}

/**
 * The IDs of the authors `blog` names, in its order, by `idBySlug`: undefined when the entry
 * says nothing of authors, null when one of them is not in `idBySlug` (yet to be created).
 */
export function authorIdsFor(
  blog: Pick<ImportBlog, "authors">,
  idBySlug: ReadonlyMap<string, string>,
): string[] | null | undefined {
  if (blog.authors === undefined) return undefined;
  const ids: string[] = [];
  for (const author of blog.authors) {
    const id = idBySlug.get(author.slug);
    if (id === undefined) return null;
    ids.push(id);
  }
  return ids;
}

/** `_id`s read per query. */
const CHUNK = 500;
/** Renders waiting or running at once: the CLI's render pool admits as many for its workspace. */
export const RENDERS_AT_ONCE = 8;

const same = (a: Date | null, b: Date | null): boolean =>
  a === null || b === null ? a === b : a.getTime() === b.getTime();

/**
 * Whether `stored` already holds what the entry would write; no write (or event) then.
 * `authorIds`: the entry's authors by ID (`authorIdsFor`): undefined, it says nothing of them;
 * null, it names one the workspace lacks.
 */
export function unchanged(
  blog: ImportBlog,
  stored: BlogDoc,
  authorIds: readonly string[] | null | undefined,
): boolean {
  if (stored.bodyMarkdown !== blog.bodyMarkdown) return false;
  if (authorIds === null) return false;
  if (authorIds !== undefined && authorIds.join("\n") !== authorIdsOf(stored).join("\n")) {
    return false;
  }
  const excerpt = blog.excerpt?.trim() || excerptOf(stored.bodyHtml);
  const cover = blog.coverImageUrl === null ? null : coverUrl(blog.coverImageUrl);
  return (
    stored.title === blog.title.trim() &&
    stored.slug === blog.slug &&
    stored.status === blog.status &&
    stored.excerpt === excerpt &&
    stored.tags.length === blog.tags.length &&
    stored.tags.every((t, i) => t === blog.tags[i]) &&
    stored.authorName === (blog.authorName.trim() || "Pressroom") &&
    stored.coverImageUrl === cover &&
    samePresentation(presentationOf(stored), presentationOfEntry(blog)) &&
    same(stored.createdAt, blog.createdAt) &&
    same(stored.updatedAt, blog.updatedAt) &&
    same(stored.releasedAt, blog.releasedAt) &&
    same(stored.removedAt, blog.removedAt) &&
    same(stored.schedule?.publishAt ?? null, blog.publishAt ?? null)
  );
}

async function inBatches<T>(items: readonly T[], size: number, run: (batch: T[]) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await run(items.slice(i, i + size));
}

/** The plan of importing `set` into `workspaceId`; throws ImportInputError, writing nothing. */
export async function planImport(
  c: Pick<Collections, "workspaces" | "blogs" | "authors">,
  renderer: Pick<BodyRenderer, "render">,
  workspaceId: string,
  set: ImportEntries,
  onProgress: OnProgress = () => {},
  rendersAtOnce: number = RENDERS_AT_ONCE,
): Promise<ImportPlan> {
  const { rules, clashes } = setProblemsByKind(set.blogs);
  rules.push(...authorProblems(set.authors ?? []));
  if ((await c.workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
    rules.push({ where: "--workspace", message: `workspace ${workspaceId} does not exist.` });
  }
  if (rules.length > 0) throw new ImportInputError([...rules, ...clashes]);
  if (clashes.length > 0) throw new ImportInputError(clashes, "conflict");
  const problems: ImportProblem[] = [];

  const ids = set.blogs.map((b) => importBlogId(workspaceId, b.sourceKey));
  // One pass over the workspace's slugs says which entries exist already; only those are read
  // in full: by `_id` when few, else in one more pass over the workspace (one query rather than
  // many `$in` batches of ids).
  const slugOwner = new Map<string, string>();
  const inWorkspace = new Set<string>();
  for await (const b of c.blogs.find({ workspaceId }, { projection: { _id: 1, slug: 1 } })) {
    slugOwner.set(b.slug, b._id);
    inWorkspace.add(b._id);
  }
  const existing = ids.filter((id) => inWorkspace.has(id));
  const stored = new Map<string, BlogDoc>();
  const wanted = new Set(existing);
  const filter = existing.length <= CHUNK ? { _id: { $in: existing } } : { workspaceId };
  if (existing.length > 0) {
    for await (const doc of c.blogs.find(filter, { projection: { webhookOutbox: 0 } })) {
      if (wanted.has(doc._id) && doc.workspaceId === workspaceId) stored.set(doc._id, doc);
    }
  }

  // The workspace's authors (at most MAX_AUTHORS, read whole as the admin API lists them).
  const authorStore = authorsStore(c);
  const known = await authorStore.list(workspaceId);
  const idBySlug = new Map(known.map((a) => [a.slug, a._id]));

  const entries: PlanEntry[] = set.blogs.map((blog, i) => {
    const id = ids[i] ?? "";
    const doc = stored.get(id);
    const owner = slugOwner.get(blog.slug);
    if (owner !== undefined && owner !== id) {
      problems.push({
        where: blog.origin,
        message: `slug "${blog.slug}" is already used in this workspace by blog ${owner}.`,
      });
    }
    if (doc === undefined) return { blog, id, action: "create" };
    if (unchanged(blog, doc, authorIdsFor(blog, idBySlug))) {
      return { blog, id, action: "unchanged", stored: doc };
    }
    if (doc.status === "removed") {
      const reason = "removed in Pressroom, and a removal is final: left as it is.";
      return { blog, id, action: "conflict", reason, stored: doc };
    }
    return { blog, id, action: "update", stored: doc };
  });
  const authors = plannedAuthors(set, entries, known);
  const creating = authors.filter((a) => a.action === "create").length;
  if (creating > 0) {
    const count = await c.authors.countDocuments({ workspaceId });
    if (count + creating > MAX_AUTHORS) {
      problems.push({
        where: "authors",
        message: `${creating} author(s) to create, and the workspace has ${count}: a workspace has at most ${MAX_AUTHORS} authors.`,
      });
    }
  }
  if (problems.length > 0) throw new ImportInputError(problems, "conflict");

  // Bodies are rendered (and refusals found) before anything is written.
  const writing = entries
    .map((e, i) => [e, i] as const)
    .filter(([e]) => e.action === "create" || e.action === "update");
  let rendered = 0;
  await inBatches(writing, rendersAtOnce, async (batch) => {
    await Promise.all(
      batch.map(async ([entry, i]) => {
        try {
          entries[i] = { ...entry, fields: await fieldsOf(entry.blog, renderer, workspaceId) };
        } catch (err) {
          if (!(err instanceof RenderRefused)) throw err;
          problems.push({ where: entry.blog.origin, message: err.refusal.message });
        }
      }),
    );
    rendered += batch.length;
    onProgress("rendering", rendered, writing.length);
  });
  if (problems.length > 0) throw new ImportInputError(problems, "unprocessable");
  return { workspaceId, set, entries, authors };
}

/**
 * The authors an import names or lists, each slug once: the source's own list (all of it: a
 * Pressroom export's authors come back even when no blog names them), then those the entries
 * name. One the workspace has is used as it is; a missing one is created with the source's
 * fields, or the first name an entry gives it — unless only entries left alone (conflicts)
 * name it.
 */
function plannedAuthors(
  set: ImportEntries,
  entries: readonly PlanEntry[],
  known: readonly { _id: string; slug: string; name: string }[],
): PlannedAuthor[] {
  const bySlug = new Map(known.map((a) => [a.slug, a]));
  const planned = new Map<string, PlannedAuthor>();
  const add = (author: ImportAuthor, create: boolean) => {
    if (planned.has(author.slug)) return;
    const stored = bySlug.get(author.slug);
    if (stored !== undefined) {
      planned.set(author.slug, {
        action: "existing",
        slug: stored.slug,
        name: stored.name,
        id: stored._id,
      });
    } else if (create) {
      planned.set(author.slug, {
        action: "create",
        slug: author.slug,
        name: author.name.trim(),
        fields: author,
      });
    }
  };
  for (const author of set.authors ?? []) add(author, true);
  for (const entry of entries) {
    const writes = entry.action === "create" || entry.action === "update";
    for (const author of entry.blog.authors ?? []) add(author, writes);
  }
  return [...planned.values()];
}

/** What an entry stores, by the blog rules (blog-rules.ts `content`), times from the source. */
async function fieldsOf(
  blog: ImportBlog,
  renderer: Pick<BodyRenderer, "render">,
  workspaceId: string,
): Promise<ImportedFields> {
  const { bodyHtml, excerpt, readingTimeMinutes } = await renderer.render(blog.bodyMarkdown, {
    workspaceId,
  });
  return {
    title: blog.title.trim(),
    slug: blog.slug,
    status: blog.status,
    bodyMarkdown: blog.bodyMarkdown,
    bodyHtml,
    excerpt: blog.excerpt?.trim() || excerpt,
    tags: [...blog.tags],
    authorName: blog.authorName.trim() || "Pressroom",
    coverImageUrl: blog.coverImageUrl === null ? null : coverUrl(blog.coverImageUrl),
    ...presentationOfEntry(blog),
    readingTimeMinutes,
    createdAt: blog.createdAt,
    updatedAt: blog.updatedAt,
    releasedAt: blog.releasedAt,
    removedAt: blog.removedAt,
    publishAt: blog.publishAt ?? null,
  };
}

/** How many entries of each action a plan has. */
export function planCounts(plan: ImportPlan): Record<PlanAction | "skipped", number> {
  const counts = { create: 0, update: 0, unchanged: 0, conflict: 0, skipped: 0 };
  for (const e of plan.entries) counts[e.action]++;
  counts.skipped = plan.set.skipped.length;
  return counts;
}

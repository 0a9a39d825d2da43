/**
 * Import and export over the admin API (admin.yaml, "Import and export"): what
 * `pressroom --server … import|export` calls, with a session or an access token.
 */
import { normaliseTags } from "@pressroom/tag-rule";
import type { Response } from "express";
import type { AdminHandler, AdminRequestBody } from "../platform/http/admin-types.js";
import { STATUS_OF } from "../platform/http/errors.js";
import type { WorkspaceExport } from "../transfer/export-workspace.js";
import { writeExport } from "../transfer/export-workspace.js";
import { importReport } from "../transfer/import-report.js";
import { type ImportBlog, type ImportEntries, ImportInputError } from "../transfer/import-set.js";
import type { WorkspaceTransfer } from "../transfer/workspace-transfer.js";
import type { TransferTurns } from "./transfer-turns.js";

/** Problems listed in a refused import's answer (admin.yaml `ImportRefused.problems`). */
const PROBLEMS_SHOWN = 1000;

type ImportEntry = AdminRequestBody<"importBlogs">["blogs"][number];

/**
 * Tags as a blog's create takes them (admin.yaml `BlogInput.tags`): in normal form, the repeats
 * dropped. One that cannot be (too long once normal) is left as sent, for the import's checks to
 * name.
 */
function normalTags(tags: readonly string[]): string[] {
  const normal = normaliseTags(tags);
  return normal.ok ? normal.tags : [...tags];
}

/**
 * Each slug once, the first kept: a slug named twice is taken once, as a create takes a tag
 * twice (admin.yaml `ImportEntry.authors`, `ImportRequest.authors`).
 */
function firstOfEachSlug<T extends { readonly slug: string }>(items: readonly T[]): T[] {
  const bySlug = new Map<string, T>();
  for (const item of items) if (!bySlug.has(item.slug)) bySlug.set(item.slug, item);
  return [...bySlug.values()];
}

/** An optional URL as the validator let it through: empty, as for a cover, is none. */
const urlOrNull = (url: string | null | undefined): string | null =>
  url === "" || url === undefined ? null : url;

const dateOrNull = (at: string | null | undefined): Date | null =>
  at === null || at === undefined ? null : new Date(at);

/** An entry as the validator let it through, as the importer's readers would have given it. */
function importBlogOf(entry: ImportEntry): ImportBlog {
  return {
    sourceKey: entry.sourceKey,
    origin: entry.origin,
    // Required by ImportEntry; typed as optional only because they name BlogInput's properties.
    title: entry.title ?? "",
    slug: entry.slug ?? "",
    status: entry.status,
    bodyMarkdown: entry.bodyMarkdown ?? "",
    excerpt: entry.excerpt ?? undefined,
    tags: normalTags(entry.tags ?? []),
    authorName: entry.authorName ?? "",
    // Absent: the entry says nothing of authors (README, "Import and export").
    ...(entry.authors === undefined
      ? {}
      : { authors: firstOfEachSlug(entry.authors).map(({ name, slug }) => ({ name, slug })) }),
    coverImageUrl: urlOrNull(entry.coverImageUrl),
    // Optional in ImportEntry (callers older than these fields): null, and false.
    coverImageAlt: entry.coverImageAlt ?? null,
    featured: entry.featured ?? false,
    metaTitle: entry.metaTitle ?? null,
    metaDescription: entry.metaDescription ?? null,
    canonicalUrl: urlOrNull(entry.canonicalUrl),
    socialImageUrl: urlOrNull(entry.socialImageUrl),
    createdAt: new Date(entry.createdAt),
    updatedAt: new Date(entry.updatedAt),
    releasedAt: dateOrNull(entry.releasedAt),
    removedAt: dateOrNull(entry.removedAt),
    publishAt: dateOrNull(entry.publishAt),
  };
}

/** What a request with an access token may see of the export: keys and endpoints by scope. */
function shownTo(res: Response, doc: WorkspaceExport): WorkspaceExport {
  const scopes = res.locals.accessToken?.scopes;
  if (scopes === undefined) return doc;
  return {
    ...doc,
    keys: scopes.includes("keys:manage") ? doc.keys : [],
    webhookEndpoints: scopes.includes("webhooks:manage") ? doc.webhookEndpoints : [],
  };
}

export function transferHandlers(deps: {
  readonly transfer: WorkspaceTransfer;
  readonly turns: TransferTurns;
  /** Renders an import keeps going at once: part of its workspace's share, so editors keep some. */
  readonly rendersAtOnce: number;
}) {
  const importBlogs: AdminHandler<"importBlogs"> = async (req, res) => {
    const { workspaceId } = req.params;
    const set: ImportEntries = {
      blogs: req.body.blogs.map(importBlogOf),
      // Only the public fields the schema lets through: never an email (admin.yaml `ImportAuthor`).
      authors: firstOfEachSlug(req.body.authors ?? []).map(
        ({ slug, name, bio, avatarUrl, websiteUrl }) => ({
          slug,
          name,
          bio: bio ?? null,
          avatarUrl: urlOrNull(avatarUrl),
          websiteUrl: urlOrNull(websiteUrl),
        }),
      ),
      skipped: [],
      notes: [],
    };
    try {
      const outcome = await deps.turns.run(workspaceId, () =>
        deps.transfer.importSet(workspaceId, set, {
          dryRun: req.body.dryRun === true,
          source: req.body.source,
          now: new Date(),
          rendersAtOnce: deps.rendersAtOnce,
        }),
      );
      res.json(importReport(outcome.plan, outcome.applied));
    } catch (err) {
      if (!(err instanceof ImportInputError)) throw err;
      // Every problem of the set, located (admin.yaml `ImportRefused`), with the status of its
      // kind as a domain error has it: 400 a rule broken, 409 entries clashing, 422 a body.
      (res as Response).status(STATUS_OF[err.kind]).json({
        message: err.message,
        problems: err.problems.slice(0, PROBLEMS_SHOWN),
      });
    }
  };

  const exportWorkspace: AdminHandler<"exportWorkspace"> = async (req, res) => {
    const { workspaceId } = req.params;
    await deps.turns.run(workspaceId, async () => {
      const doc = shownTo(res, await deps.transfer.exportOf(workspaceId, new Date()));
      res.type("application/json");
      try {
        // Streamed one blog at a time (export-workspace.ts): the blogs are held once, as the
        // CLI's export holds them, but never as one string, and a slow reader is waited for.
        await writeExport(doc, res);
        res.end();
      } catch (err) {
        // The caller went away midway: nothing to answer, and the turn ends with this.
        if (!res.destroyed) throw err;
      }
    });
  };

  return { importBlogs, exportWorkspace };
}

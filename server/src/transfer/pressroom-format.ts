/**
 * The reader of Pressroom's own format (export-workspace.ts) → ImportSet. Checks everything
 * before returning: the format and version, every field of every blog (types, then the blog
 * rules, import-checks.ts); all problems together in one ImportInputError, each located as
 * `blogs[12] "slug"`. Keys and webhook endpoints in the file are reported as skipped, never
 * created. The workspace's `authors` (public fields, by slug) become the set's authors, and a
 * blog's `authors` (slugs, each one of them) its authors in order; an export made before authors
 * existed has neither, and its blogs name none. Its `media` and their files: pressroom-media.ts.
 */
import path from "node:path";
import type { BlogStatus } from "../platform/db/collections.js";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./export-workspace.js";
import { authorProblems, setProblems } from "./import-checks.js";
import {
  type ImportAuthor,
  type ImportAuthorRef,
  type ImportBlog,
  ImportInputError,
  type ImportProblem,
  type ImportReader,
  type ImportSet,
  type SkippedEntry,
} from "./import-set.js";
import { parseJsonSource, readJsonText } from "./json-source.js";
import { mediaFolderOf, withExportedMedia } from "./pressroom-media.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The export's `authors`, typed; absent (an export older than authors): none. */
function authorsOf(raw: unknown, problems: ImportProblem[]): ImportAuthor[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ where: "authors", message: "must be a list." });
    return [];
  }
  const authors: ImportAuthor[] = [];
  raw.forEach((item, i) => {
    const where = `authors[${i}]`;
    if (!isObject(item) || typeof item.slug !== "string" || typeof item.name !== "string") {
      problems.push({ where, message: `must be an object with a "slug" and a "name".` });
      return;
    }
    const optional = (name: "bio" | "avatarUrl" | "websiteUrl"): string | null => {
      const v = item[name];
      if (v === null || v === undefined) return null;
      if (typeof v === "string") return v;
      problems.push({ where, message: `"${name}" must be a string or null.` });
      return null;
    };
    authors.push({
      slug: item.slug,
      name: item.name,
      bio: optional("bio"),
      avatarUrl: optional("avatarUrl"),
      websiteUrl: optional("websiteUrl"),
    });
  });
  return authors;
}

/** One blog entry's fields, typed; the type problems of the entry are pushed to `problems`. */
function blogOf(
  raw: unknown,
  index: number,
  problems: ImportProblem[],
  authorBySlug: ReadonlyMap<string, ImportAuthor>,
): ImportBlog | null {
  const slugShown = isObject(raw) && typeof raw.slug === "string" ? ` "${raw.slug}"` : "";
  const where = `blogs[${index}]${slugShown}`;
  const fail = (message: string) => {
    problems.push({ where, message });
    return null;
  };
  if (!isObject(raw)) return fail("must be an object.");
  const found = problems.length;
  const text = (name: string): string => {
    const v = raw[name];
    if (typeof v === "string") return v;
    fail(`"${name}" must be a string.`);
    return "";
  };
  const textOrNull = (name: string): string | null => {
    const v = raw[name];
    if (v === null || v === undefined) return null;
    if (typeof v === "string") return v;
    return fail(`"${name}" must be a string or null.`);
  };
  const date = (name: string, nullable: boolean): Date | null => {
    const v = raw[name];
    if ((v === null || v === undefined) && nullable) return null;
    const at = typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : null;
    if (at === null || Number.isNaN(at.getTime())) {
      fail(`"${name}" must be an ISO 8601 date-time${nullable ? " or null" : ""}.`);
      return null;
    }
    return at;
  };
  const featured = raw.featured ?? false;
  if (typeof featured !== "boolean") fail(`"featured" must be true or false.`);
  const id = text("id");
  const tags = raw.tags;
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) {
    fail(`"tags" must be a list of strings.`);
  }
  // A blog's authors by slug, each one of the export's authors; absent in older exports: none.
  let authors: ImportAuthorRef[] | undefined;
  if (raw.authors !== undefined) {
    if (!Array.isArray(raw.authors) || raw.authors.some((a) => typeof a !== "string")) {
      fail(`"authors" must be a list of author slugs.`);
    } else {
      authors = [];
      for (const slug of raw.authors as string[]) {
        const author = authorBySlug.get(slug);
        if (author === undefined)
          fail(`"authors" names "${slug}", not one of the export's authors.`);
        else authors.push({ name: author.name, slug });
      }
    }
  }
  const blog = {
    sourceKey: `pressroom:${id}`,
    origin: where,
    title: text("title"),
    slug: text("slug"),
    status: text("status") as BlogStatus,
    bodyMarkdown: text("bodyMarkdown"),
    excerpt: textOrNull("excerpt") ?? undefined,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    authorName: text("authorName"),
    authors,
    coverImageUrl: textOrNull("coverImageUrl"),
    // Absent in exports made before they existed: null, and false (blog-rules.ts presentationOf).
    coverImageAlt: textOrNull("coverImageAlt"),
    featured: featured === true,
    metaTitle: textOrNull("metaTitle"),
    metaDescription: textOrNull("metaDescription"),
    canonicalUrl: textOrNull("canonicalUrl"),
    socialImageUrl: textOrNull("socialImageUrl"),
    createdAt: date("createdAt", false) ?? new Date(0),
    updatedAt: date("updatedAt", false) ?? new Date(0),
    releasedAt: date("releasedAt", true),
    removedAt: date("removedAt", true),
  };
  if (id === "" && found === problems.length) fail(`"id" must not be empty.`);
  return problems.length === found ? blog : null;
}

/** The ImportSet of an export document already parsed; `name` locates its problems. */
export function pressroomSet(doc: unknown, name: string): ImportSet {
  if (!isObject(doc) || doc.format !== EXPORT_FORMAT) {
    throw new ImportInputError([
      { where: name, message: `not a Pressroom export ("format" is not "${EXPORT_FORMAT}").` },
    ]);
  }
  if (doc.version !== EXPORT_VERSION) {
    throw new ImportInputError([
      {
        where: name,
        message: `export version ${JSON.stringify(doc.version)} is not one this Pressroom reads (${EXPORT_VERSION}).`,
      },
    ]);
  }
  if (!Array.isArray(doc.blogs)) {
    throw new ImportInputError([{ where: name, message: `"blogs" must be a list.` }]);
  }
  const problems: ImportProblem[] = [];
  const authors = authorsOf(doc.authors, problems);
  problems.push(...authorProblems(authors));
  const authorBySlug = new Map(authors.map((a) => [a.slug, a]));
  const blogs = doc.blogs
    .map((raw, i) => blogOf(raw, i, problems, authorBySlug))
    .filter((b): b is ImportBlog => b !== null);
  problems.push(...setProblems(blogs));
  if (problems.length > 0) throw new ImportInputError(problems);
  const skipped: SkippedEntry[] = [];
  const listed = (key: string) => (Array.isArray(doc[key]) ? (doc[key] as unknown[]) : []);
  listed("keys").forEach((_, i) => {
    skipped.push({ origin: `keys[${i}]`, reason: "keys are not imported: mint new ones." });
  });
  listed("webhookEndpoints").forEach((_, i) => {
    skipped.push({
      origin: `webhookEndpoints[${i}]`,
      reason: "webhook endpoints are not imported: add them again (they get new secrets).",
    });
  });
  return { format: "pressroom", blogs, authors, skipped, notes: [] };
}

/**
 * `pressroom import --from pressroom FILE`: reads the file `source`, and the images of its `media`
 * from `--media-dir`, else the folder `pressroom export` wrote beside it (pressroom-media.ts).
 */
export const readPressroomExport: ImportReader = async (source, options) => {
  const name = path.basename(source);
  const text = await readJsonText(source, name, options.maxJsonBytes);
  const doc = parseJsonSource(text, name);
  const set = pressroomSet(doc, name);
  const fail = (problems: ImportProblem[]): never => {
    throw new ImportInputError(problems);
  };
  return isObject(doc)
    ? withExportedMedia(doc, set, options.mediaDir ?? mediaFolderOf(source), fail)
    : set;
};

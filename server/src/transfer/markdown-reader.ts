/**
 * The Markdown folder importer's reader (`pressroom import --from markdown DIR`): every `.md` and
 * `.markdown` file under the folder, recursively, as a blog (front matter: markdown-fields.ts).
 * Names starting with "." (files and folders) are passed over silently; other files and
 * symbolic links are listed as skipped. A file over 1 MiB is a problem, not read. Files are read
 * 64 at a time, in sorted order of their paths (sourceKey `markdown:<path relative to the folder,
 * with />`). Every problem of every file is collected, each as `path:line`, then thrown as one
 * ImportInputError. A file with no `date` takes its modification time, which a copy or a fresh
 * clone changes: importing it again then updates the blog (see the note printed).
 *
 * Images next to the files (README, "Import and export"): a body's `![alt](img/a.png)` and a
 * `cover` that is a path, relative to the file's folder, are the set's images (markdown-images.ts),
 * put in the library by the import with their alt text (the cover's `coverAlt`). A path out of the
 * folder, or a file that is no image, is a problem; a file not there is a note, and the body keeps
 * the path as written (the renderer drops relative images), a cover is then none.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseFrontMatter } from "./front-matter.js";
import { LIMITS } from "./import-checks.js";
import { type ImageCollector, imageCollector } from "./import-images.js";
import {
  type ImportBlog,
  ImportInputError,
  type ImportProblem,
  type ImportReader,
  type SkippedEntry,
} from "./import-set.js";
import { KNOWN_KEYS, markdownFields } from "./markdown-fields.js";
import { collectBodyImages, coverPathOf, withFoundImages } from "./markdown-images.js";

const CONCURRENCY = 64;
const MARKDOWN = /\.(md|markdown)$/i;

/** The Markdown files under `root` (relative, with /, sorted) and the other entries skipped. */
async function walk(root: string): Promise<{ files: string[]; skipped: SkippedEntry[] }> {
  const files: string[] = [];
  const skipped: SkippedEntry[] = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await visit(path);
      else if (entry.isSymbolicLink())
        skipped.push({ origin: path, reason: "a symbolic link (not followed)" });
      else if (entry.isFile() && MARKDOWN.test(entry.name)) files.push(path);
      else skipped.push({ origin: path, reason: "not a Markdown file (.md, .markdown)" });
    }
  };
  await visit("");
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  files.sort(byCodeUnit);
  skipped.sort((a, b) => byCodeUnit(a.origin, b.origin));
  return { files, skipped };
}

type FileResult =
  | {
      ok: true;
      blog: ImportBlog;
      slugLine: number;
      unknownKeys: string[];
      fromHeading: boolean;
      mtimeUsed: boolean;
      /** The cover's path from the folder when the front matter gives a path, not a URL. */
      coverPath: string | undefined;
    }
  | { ok: false; problems: ImportProblem[] };

/** Files larger than this are refused unread (1 MiB: room for a 200,000-character body). */
const MAX_FILE_BYTES = 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readOne(root: string, path: string, images: ImageCollector): Promise<FileResult> {
  const fail = (line: number | null, message: string): FileResult => ({
    ok: false,
    problems: [{ where: line === null ? path : `${path}:${line}`, message }],
  });
  let bytes: Uint8Array;
  let mtime: Date;
  try {
    const info = await stat(join(root, path));
    if (info.size > MAX_FILE_BYTES) {
      return fail(
        null,
        `is ${info.size} bytes, over the ${MAX_FILE_BYTES}-byte limit of a Markdown file (a blog body is at most ${LIMITS.body} characters); not read.`,
      );
    }
    mtime = info.mtime;
    bytes = await readFile(join(root, path));
  } catch (err) {
    return fail(null, `cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return fail(null, "is not UTF-8 text");
  }
  const fm = parseFrontMatter(text);
  if (!fm.ok) {
    return {
      ok: false,
      problems: fm.problems.map((p) => ({ where: `${path}:${p.line}`, message: p.message })),
    };
  }
  const { front, coverPath } = coverPathOf(fm.value, path, images);
  const fields = markdownFields(front, path);
  if (!fields.ok) {
    return {
      ok: false,
      problems: fields.problems.map((p) => ({ where: `${path}:${p.line}`, message: p.message })),
    };
  }
  const f = fields.value;
  const createdAt = f.date ?? mtime;
  collectBodyImages(f.bodyMarkdown, path, images);
  return {
    ok: true,
    coverPath,
    slugLine: f.slugLine,
    unknownKeys: [...fm.value.fields.keys()].filter((k) => !KNOWN_KEYS.has(k)),
    fromHeading: f.titleFromHeading,
    mtimeUsed: f.date === null,
    blog: {
      sourceKey: `markdown:${path}`,
      origin: path,
      title: f.title,
      slug: f.slug,
      status: f.draft ? "draft" : "released",
      bodyMarkdown: f.bodyMarkdown,
      excerpt: f.excerpt,
      tags: f.tags,
      authorName: f.authorName ?? "Pressroom",
      ...(f.authors === undefined ? {} : { authors: f.authors }),
      coverImageUrl: f.coverImageUrl,
      coverImageAlt: f.coverImageAlt,
      featured: f.featured,
      metaTitle: f.metaTitle,
      metaDescription: f.metaDescription,
      canonicalUrl: f.canonicalUrl,
      socialImageUrl: f.socialImageUrl,
      createdAt,
      updatedAt: f.updated ?? createdAt,
      releasedAt: f.draft ? null : createdAt,
      removedAt: null,
    },
  };
}

export const readMarkdownFolder: ImportReader = async (source, options) => {
  let listing: { files: string[]; skipped: SkippedEntry[] };
  try {
    if (!(await stat(source)).isDirectory()) throw new Error("not a folder");
    listing = await walk(source);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ImportInputError([
      { where: source, message: `is not a readable folder (${reason})` },
    ]);
  }
  const { files, skipped } = listing;
  const total = files.length;
  const step = Math.max(1, Math.floor(total / 100));
  const results: FileResult[] = new Array(total);
  const images = imageCollector(source);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      results[i] = await readOne(source, files[i] ?? "", images);
      done++;
      if (done % step === 0 || done === total) options.onProgress?.("reading", done, total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, total) }, worker));

  const problems: ImportProblem[] = [];
  const blogs: ImportBlog[] = [];
  const coverPaths: (string | undefined)[] = [];
  const slugOwners = new Map<string, string>();
  const unknownKeys = new Map<string, number>();
  let fromHeading = 0;
  let mtimeUsed = 0;
  for (const result of results) {
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const { blog } = result;
    const owner = slugOwners.get(blog.slug);
    if (owner !== undefined) {
      problems.push({
        where: `${blog.origin}:${result.slugLine}`,
        message: `slug "${blog.slug}" is also the slug of ${owner} (set a distinct slug: in front matter)`,
      });
    } else slugOwners.set(blog.slug, blog.origin);
    for (const key of result.unknownKeys) unknownKeys.set(key, (unknownKeys.get(key) ?? 0) + 1);
    if (result.fromHeading) fromHeading++;
    if (result.mtimeUsed) mtimeUsed++;
    blogs.push(blog);
    coverPaths.push(result.coverPath);
  }
  const checked = await images.check();
  problems.push(...checked.problems);
  if (problems.length > 0) throw new ImportInputError(problems);
  const missing: string[] = [];
  const withImages = blogs.map((blog, i) => withFoundImages(blog, coverPaths[i], images, missing));

  const notes = [`${blogs.length} Markdown file(s) read.`];
  if (fromHeading > 0)
    notes.push(
      `${fromHeading} title(s) taken from the file's first '# heading' (removed from the body).`,
    );
  if (mtimeUsed > 0)
    notes.push(
      `${mtimeUsed} file(s) have no date: their modification time was used. A copy or a fresh clone changes it, and importing again then updates those blogs (a blog.updated event for each released one); give them a date: in front matter to keep them stable.`,
    );
  if (unknownKeys.size > 0) {
    const keys = [...unknownKeys]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, n]) => `${k} (${n})`);
    notes.push(`Front matter keys not imported: ${keys.join(", ")}.`);
  }
  if (checked.images.length > 0) {
    notes.push(`${checked.images.length} image file(s) beside the Markdown, for the library.`);
  }
  notes.push(...missing);
  const found = checked.images.length === 0 ? {} : { images: checked.images };
  return { format: "markdown", blogs: withImages, skipped, notes, ...found };
};

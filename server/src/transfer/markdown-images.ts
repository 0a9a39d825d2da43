/**
 * Images in Markdown (README, "Import and export", "Images"): finding and rewriting a body's image
 * sources (`rewriteMarkdownImages`, also for Ghost bodies once converted, ghost-images.ts), and the
 * Markdown folder reader's images (markdown-reader.ts): a body's relative image paths and a
 * `cover` that is a path, both relative to the file's folder, named to the collector
 * (import-images.ts) while the files are read, then, once checked, their tokens in their place.
 * A file not there: the body keeps the path as written, the cover is none; each a note.
 */
import { posix } from "node:path";
import type { FrontMatter } from "./front-matter.js";
import { type ImageCollector, localPathOf } from "./import-images.js";
import type { ImportBlog } from "./import-set.js";
import { PRESENTATION_KEYS } from "./markdown-fields.js";

/** A Markdown image: `![alt](src "title")` or `![alt](<src>)`, outside code. */
const IMAGE =
  /!\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>\n]*>|[^\s()]+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*)\)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `markdown` with the source of each image rewritten by `rewrite(src, alt)` (kept when it gives
 * undefined); images in fenced code blocks and inline code spans are left as written.
 */
export function rewriteMarkdownImages(
  markdown: string,
  rewrite: (src: string, alt: string) => string | undefined,
): string {
  let fence: string | null = null;
  return markdown
    .split("\n")
    .map((line) => {
      const mark = FENCE.exec(line)?.[1];
      if (fence !== null) {
        if (mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
        return line;
      }
      if (mark !== undefined) {
        fence = mark;
        return line;
      }
      // Inline code spans kept apart: only the text between them is rewritten.
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) =>
          i % 2 === 1
            ? part
            : part.replace(IMAGE, (whole, alt: string, raw: string, title: string) => {
                const src = raw.startsWith("<") ? raw.slice(1, -1) : raw;
                const to = rewrite(src, alt.replace(/\\(.)/g, "$1"));
                return to === undefined ? whole : `![${alt}](${to}${title})`;
              }),
        )
        .join("");
    })
    .join("\n");
}

/** The first string among front-matter `keys`, or undefined. */
function firstString(fields: ReadonlyMap<string, unknown>, keys: readonly string[]) {
  const key = keys.find((k) => fields.has(k));
  const value = key === undefined ? undefined : fields.get(key);
  return typeof value === "string" ? value : undefined;
}

const COVER_KEYS = ["cover", "coverImage", "cover_image"] as const;

/** The image paths of a file's body, from the folder imported, by `each`. */
function bodyImages(
  body: string,
  file: string,
  each: (relative: string, alt: string) => string | undefined,
): string {
  return rewriteMarkdownImages(body, (src, alt) => {
    const local = localPathOf(src);
    return local === undefined ? undefined : each(posix.join(posix.dirname(file), local), alt);
  });
}

/**
 * A cover that is a path beside `file`: named to `images` (with its `coverAlt`) and taken out of
 * the front matter the fields are read from (it is no URL to check); `coverPath` from the folder.
 */
export function coverPathOf(
  front: FrontMatter,
  file: string,
  images: ImageCollector,
): { front: FrontMatter; coverPath: string | undefined } {
  const key = COVER_KEYS.find((k) => front.fields.has(k));
  const value = key === undefined ? undefined : front.fields.get(key);
  const local = typeof value === "string" ? localPathOf(value.trim()) : undefined;
  if (key === undefined || local === undefined) return { front, coverPath: undefined };
  const coverPath = posix.join(posix.dirname(file), local);
  const alt = firstString(front.fields, PRESENTATION_KEYS.coverImageAlt) ?? "";
  const others = new Map(front.fields);
  others.delete(key);
  const named = images.add(coverPath, alt, file) !== undefined;
  return { front: { ...front, fields: others }, coverPath: named ? coverPath : undefined };
}

/** Names the relative images of `file`'s body to `images`. */
export function collectBodyImages(body: string, file: string, images: ImageCollector): void {
  bodyImages(body, file, (relative, alt) => {
    images.add(relative, alt, file);
    return undefined;
  });
}

/** `blog` with its checked images' tokens in their paths' place; a file not there is noted. */
export function withFoundImages(
  blog: ImportBlog,
  coverPath: string | undefined,
  images: ImageCollector,
  missing: string[],
): ImportBlog {
  const bodyMarkdown = bodyImages(blog.bodyMarkdown, blog.origin, (relative) => {
    const found = images.resolved(relative);
    if (found === undefined) return undefined;
    if ("token" in found) return found.token;
    missing.push(`${blog.origin}: image "${found.missing}" not found; its path is kept.`);
    return undefined;
  });
  if (coverPath === undefined) return { ...blog, bodyMarkdown };
  const cover = images.resolved(coverPath);
  if (cover !== undefined && "token" in cover) {
    return { ...blog, bodyMarkdown, coverImageUrl: cover.token };
  }
  missing.push(`${blog.origin}: cover image "${coverPath}" not found; imported with no cover.`);
  return { ...blog, bodyMarkdown, coverImageUrl: null };
}

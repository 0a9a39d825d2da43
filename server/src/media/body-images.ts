/**
 * The library images a blog shows: in its rendered body (`<img>` elements of the sanitised HTML,
 * blogs/render.ts) and as its cover. What the release rule (alt text) and an image's deletion
 * (which blogs use it) read, and what the body's image sizes are added to.
 *
 * The body is the sanitiser's own output, never a writer's HTML: every attribute is written as
 * `name="value"` with `&`, `<`, `>` and `"` escaped, so an element ends at the first `>` and a
 * value at the first `"` (as html-text.ts relies on). Linear in the length.
 */
import { libraryImageOf } from "./media-url.js";

/** A library image of a body: where its element is, what it names, and its alt text as written. */
export interface BodyImage {
  readonly mediaId: string;
  readonly name: string;
  /** The `alt` attribute, decoded; "" when absent or empty. */
  readonly alt: string;
  /** The element's offsets in the HTML: `html.slice(start, end)` is the whole `<img …>`. */
  readonly start: number;
  readonly end: number;
  /** Its attributes in order, values decoded. */
  readonly attributes: ReadonlyMap<string, string>;
}

const IMG = /<img\b([^<>]*)>/gi;
const ATTRIBUTE = /([a-z][a-z0-9-]*)(?:="([^"]*)")?/gi;
const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  nbsp: "\u00a0",
};

/** An attribute's value as written by the sanitiser → its text. */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref.toLowerCase()] ?? whole;
    const point =
      ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : +ref.slice(1);
    return point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)
      ? String.fromCodePoint(point)
      : whole;
  });
}

/** Text → an attribute's value as the sanitiser writes it. */
export const encodeAttribute = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function attributesOf(inside: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of inside.matchAll(ATTRIBUTE)) {
    const [, name = "", value = ""] = match;
    const key = name.toLowerCase();
    if (!found.has(key)) found.set(key, decodeAttribute(value));
  }
  return found;
}

/** The library images of a sanitised body, in order (the same image as often as it appears). */
export function libraryImagesIn(bodyHtml: string): BodyImage[] {
  const images: BodyImage[] = [];
  for (const match of bodyHtml.matchAll(IMG)) {
    const attributes = attributesOf(match[1] ?? "");
    const named = libraryImageOf(attributes.get("src"));
    if (named === undefined) continue;
    const start = match.index;
    images.push({
      ...named,
      alt: (attributes.get("alt") ?? "").trim(),
      start,
      end: start + match[0].length,
      attributes,
    });
  }
  return images;
}

/** A blog's content as far as its images go: its rendered body and its cover. */
export interface ImageContent {
  readonly bodyHtml: string;
  readonly coverImageUrl: string | null;
  readonly coverImageAlt?: string | null;
}

/** The distinct library images `content` shows (cover first), by ID: what `mediaIds` stores. */
export function mediaIdsOf(content: Pick<ImageContent, "bodyHtml" | "coverImageUrl">): string[] {
  const cover = libraryImageOf(content.coverImageUrl);
  const ids = [
    ...(cover === undefined ? [] : [cover.mediaId]),
    ...libraryImagesIn(content.bodyHtml).map((image) => image.mediaId),
  ];
  return [...new Set(ids)];
}

/** A library image `content` shows without alt text of its own there. */
export interface ImageWithoutAlt {
  readonly mediaId: string;
  readonly name: string;
  readonly where: "cover" | "body";
}

/** The library images of `content` whose place gives no alt text (the cover's is `coverImageAlt`). */
export function imagesWithoutAlt(content: ImageContent): ImageWithoutAlt[] {
  const missing: ImageWithoutAlt[] = [];
  const cover = libraryImageOf(content.coverImageUrl);
  if (cover !== undefined && (content.coverImageAlt ?? "").trim() === "") {
    missing.push({ ...cover, where: "cover" });
  }
  for (const image of libraryImagesIn(content.bodyHtml)) {
    if (image.alt === "") missing.push({ mediaId: image.mediaId, name: image.name, where: "body" });
  }
  return missing;
}

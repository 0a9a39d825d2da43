import { type Draft, oneLine } from "./blog-draft.js";

// What the editor's search-result and social-card previews say (seo-previews.tsx), from the form
// as typed: the fallbacks consumers are told to use (openapi.yaml, "Presentation and search
// fields": metaTitle else title, metaDescription else excerpt, socialImageUrl else the cover)
// and the cuts search engines make. Pure, so the rules are tested without a browser.

/** About what a search result shows of a title (≈600 px) and of a description (≈920 px). */
export const SEARCH_TITLE_CHARS = 60;
export const SEARCH_DESCRIPTION_CHARS = 160;
/** About what a social card shows of each. */
export const CARD_TITLE_CHARS = 70;
export const CARD_DESCRIPTION_CHARS = 200;

/** Cut after a word and its trailing punctuation: "A title, to cut" → "A title…". */
const TRAILING = /[\s.,;:!?\-–—]+$/u;

/**
 * `text` as a search engine shows it in `max` characters: whole if it fits; otherwise cut at the
 * last word boundary that fits (unless that loses more than 40%, then mid-word), with an
 * ellipsis, the whole at most `max` characters. Characters are code points: an emoji is not
 * split in two.
 */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join("");
  // A cut just before a space ends on a whole word already.
  const space = /\s/.test(chars[max - 1] ?? "") ? cut.length : cut.lastIndexOf(" ");
  const kept = space >= (max - 1) * 0.6 ? cut.slice(0, space) : cut;
  return `${kept.replace(TRAILING, "")}…`;
}

/** The page title consumers put in `<title>`: the meta title, or else the title. */
export const pageTitleOf = (d: Draft): string => oneLine(d.metaTitle) || d.title.trim();

/**
 * The description consumers put in `<meta name="description">`: the meta description, else the
 * excerpt (a saved blog's form holds the one the server derived), else what the server would
 * derive from the body.
 */
export const descriptionOf = (d: Draft): string =>
  oneLine(d.metaDescription) || oneLine(d.excerpt) || derivedExcerptOf(d.bodyMarkdown);

/** The longest excerpt the server derives (server/src/blogs/render.ts, `excerptOf`). */
const DERIVED_CHARS = 200;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/** Blocks that do not render as a paragraph: headings, lists, tables, rules, HTML, code. */
const NOT_PARAGRAPH = /^(\s{0,3}(#|[-*+]\s|\d+[.)]\s|\||<|(?:[-*_]\s*){3,}$)|\s{4})/;

/**
 * Close to the excerpt the server derives from a body when none is typed: the first paragraph's
 * text, without its Markdown, cut near `DERIVED_CHARS`. The server's own, from the rendered HTML,
 * is in the Excerpt field once the blog is saved.
 */
export function derivedExcerptOf(markdown: string): string {
  const paragraphs: string[][] = [];
  let current: string[] = [];
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || FENCE.test(line) || line.trim() === "") {
      if (current.length > 0) paragraphs.push(current);
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length > 0) paragraphs.push(current);
  const first = paragraphs.find((p) => !NOT_PARAGRAPH.test(p[0] ?? "")) ?? paragraphs[0] ?? [];
  const text = plainOf(first.map((l) => l.replace(/^\s{0,3}(>\s?)+/, "")).join(" "));
  if (text.length <= DERIVED_CHARS) return text;
  const cut = text.slice(0, DERIVED_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > DERIVED_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}

/** Inline Markdown as the text a reader sees: links by their words, images and HTML gone. */
const plainOf = (line: string): string =>
  oneLine(
    line
      .replace(/^\s{0,3}#{1,6}\s+/, "")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, "$1")
      .replace(/<(https?:\/\/[^>\s]+)>/g, "$1")
      .replace(/<[^>]*>/g, "")
      .replace(/(\*\*|__|~~|\*|_|`)/g, "")
      .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, "$1"),
  );

/** An absolute http(s) URL's parts, or null for anything else (or nothing). */
function urlOf(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * admin.yaml's PublicUrlInput (the cover's rule too): an absolute http(s) URL with no user name
 * or password (no `@` before the host: consumers are handed it).
 */
export const isPublicUrl = (text: string): boolean =>
  /^https?:\/\/[^/?#\\\s@]+(?:[/?#\\]|$)/i.test(text.trim()) && urlOf(text) !== null;

/** "engineering.example.com", or "" when the text is no http(s) URL. */
export const hostOf = (text: string): string => urlOf(text)?.host ?? "";

/**
 * A search result's address line, as search engines break it: the canonical URL's host and path
 * ("example.com › 2026 › spring"), or else the blog's slug on the consumer's own site, which the
 * dashboard does not know.
 */
export function addressLineOf(d: Draft, savedSlug: string | null): string {
  const canonical = urlOf(d.canonicalUrl);
  if (canonical !== null) {
    const parts = canonical.pathname.split("/").filter((p) => p !== "");
    return [canonical.host, ...parts.map(decodedPart)].join(" › ");
  }
  const slug = d.slug.trim() || savedSlug || "…";
  return `Your site › ${slug}`;
}

const decodedPart = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * The social card's image: the social image URL, or else the cover's. A field holding text that
 * is no http(s) URL gives no image (its own error says why), never the other field's.
 */
export function cardImageOf(d: Draft): string | null {
  const chosen = d.socialImageUrl.trim() !== "" ? d.socialImageUrl : d.coverImageUrl;
  return isPublicUrl(chosen) ? chosen.trim() : null;
}

/** "4 min read"; nothing for a body without words (0). */
export const readingTimeText = (minutes: number): string | null =>
  minutes > 0 ? `${minutes} min read` : null;

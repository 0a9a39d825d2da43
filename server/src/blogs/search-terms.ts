import { createHash } from "node:crypto";
import { mediaIdsOf } from "../media/body-images.js";
import type { BlogDoc } from "../platform/db/collections.js";
import { textTermsOf } from "./text-search.js";
import { clip, wordsOf } from "./words.js";

export { MAX_TERM_LENGTH, wordsOf } from "./words.js";

/**
 * The admin list's search (`q`, openapi/admin.yaml `BlogSearch`) as exact equalities, so that
 * both MongoDB and the embedded database answer it from an index: FerretDB's pushdown
 * translates string equality on an indexed array field (through its element table), never a
 * `$regex`. Each blog stores `searchTerms`: every word of its title, slug and tags, normalised
 * (`wordsOf`), with each of its prefixes; a query word is then one `searchTerms: word`.
 */

/**
 * At most this many terms per blog: bounds a blog's index entries. Every whole word fits (a
 * title of 200, a slug of 80 and 20 tags of 40 characters hold at most 540 words); only
 * prefixes can be left out, the last words' shortest ones first (`searchTermsOf`).
 */
export const MAX_TERMS = 600;

/**
 * What a blog stores for the search: each word of its title, slug and tags with all its
 * prefixes (from one character: a search box is typed one letter at a time), distinct. "Café"
 * stores `c`, `ca`, `caf`, `cafe`. Every whole word comes first, so the `MAX_TERMS` cap can only
 * cost prefixes (of the last words, longest kept first), never a whole word: a blog is always
 * found by each word of its title, slug and tags typed in full.
 */
export function searchTermsOf(blog: Pick<BlogDoc, "title" | "slug" | "tags">): string[] {
  return prefixTermsOf([blog.title, blog.slug, ...blog.tags].join(" "));
}

/**
 * The words of `text` with all their prefixes, distinct, whole words first and at most
 * `MAX_TERMS`: what `searchTermsOf` stores for a blog, and the media library for an image's
 * name and alt text (media/media-store.ts).
 */
export function prefixTermsOf(text: string): string[] {
  const words = wordsOf(text).map((w) => [...clip(w)]);
  const terms = new Set(words.map((chars) => chars.join("")));
  for (const chars of words) {
    for (let n = chars.length - 1; n >= 1 && terms.size < MAX_TERMS; n--) {
      terms.add(chars.slice(0, n).join(""));
    }
  }
  return [...terms].slice(0, MAX_TERMS);
}

/**
 * The title sort's key: the title's letters and digits as `wordsOf` makes them, one space
 * between words, so "Éclair", "eclair" and "ECLAIR!" sort together (A–Z by code point after
 * that; ties by `_id`).
 */
export const titleKeyOf = (title: string): string => wordsOf(title).join(" ");

/**
 * The derived fields every write of title, slug, tags, excerpt, body or cover stores with them:
 * the admin search's, the consumer search's (text-search.ts) and the library images the live
 * version shows (`mediaIds`, media/body-images.ts), which an image's deletion looks up.
 */
export const searchFieldsOf = (
  blog: Pick<BlogDoc, "title" | "slug" | "tags" | "excerpt" | "bodyHtml" | "coverImageUrl">,
): Pick<BlogDoc, "searchTerms" | "titleKey" | "textTerms" | "mediaIds"> => ({
  searchTerms: searchTermsOf(blog),
  titleKey: titleKeyOf(blog.title),
  textTerms: textTermsOf(blog),
  mediaIds: mediaIdsOf(blog),
});

/** A parsed `q`: its distinct words as stored terms, and `scope`, what a cursor is bound to. */
export interface BlogSearch {
  readonly terms: readonly string[];
  readonly scope: string;
}

/**
 * `q` → its terms: distinct normalised words, clipped as stored. Null without a `q`. A `q` of
 * only punctuation has no terms and matches no blog. Never a pattern: words only go into
 * equalities, so nothing in `q` is interpreted.
 */
export function parseBlogSearch(q: string | undefined): BlogSearch | null {
  if (q === undefined) return null;
  const terms = [...new Set(wordsOf(q).map(clip))].sort();
  const scope = createHash("sha256").update(JSON.stringify(terms), "utf8").digest("base64url");
  return { terms, scope: scope.slice(0, 16) };
}

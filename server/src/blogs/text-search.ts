import type { Filter } from "mongodb";
import type { BlogDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import { textOfHtml } from "./html-text.js";
import { clip, wordsOf } from "./words.js";

/**
 * The consumer list's search (openapi.yaml, "Search", `q`). Each blog stores `textTerms`: the
 * distinct words of its title, excerpt, tags and body text, normalised as the admin search
 * normalises them (words.ts `wordsOf`) and clipped to `MAX_TERM_LENGTH`, one entry per
 * word and never its prefixes (a body has far more words than a title: prefixes would multiply
 * its index entries). A query's words but the last are equalities on the multikey field, and its
 * last word a range over it, `{textTerms: {$elemMatch: {$gte: "word", $lt: "wore"}}}` (one
 * element within both bounds), which MongoDB answers from the bounds of `released_search` and the
 * embedded database from the same range of its element table of `textTerms`. (Stock FerretDB 1.24
 * tested each bound against any element; our patch tests one element at a time, as MongoDB does:
 * server/embedded-db/README.md.) Never a `$regex`: nothing in `q` is ever a pattern.
 */

/** At most this many terms per blog: title, excerpt and tags first, then the body's in order. */
export const MAX_TEXT_TERMS = 10_000;
/** At most this many words in a `q` (openapi.yaml, `Search`). */
export const MAX_SEARCH_WORDS = 8;

/** What a blog stores for the consumer search: its distinct words, at most `MAX_TEXT_TERMS`. */
export function textTermsOf(
  blog: Pick<BlogDoc, "title" | "excerpt" | "tags" | "bodyHtml">,
): string[] {
  const terms = new Set<string>();
  const add = (text: string) => {
    for (const word of wordsOf(text)) {
      if (terms.size >= MAX_TEXT_TERMS) return;
      terms.add(clip(word));
    }
  };
  add([blog.title, blog.excerpt, ...blog.tags].join(" "));
  add(textOfHtml(blog.bodyHtml));
  return [...terms];
}

/** A parsed `q`: whole words, the last word as a prefix, and `key`, its normal form. */
export interface TextSearch {
  /** Each must be a term of the blog. */
  readonly words: readonly string[];
  /** A term of the blog must start with it; null when `q` has no word (nothing matches). */
  readonly prefix: string | null;
  /** The words in normal form: what the ETag and a cursor are bound to. */
  readonly key: string;
}

/** `q` → its words; a `q` of more than `MAX_SEARCH_WORDS` words is a 400. */
export function parseTextSearch(q: string): TextSearch {
  const words = wordsOf(q).map(clip);
  if (words.length > MAX_SEARCH_WORDS) {
    throw invalid(`Invalid query parameter q: at most ${MAX_SEARCH_WORDS} words.`);
  }
  const prefix = words.at(-1) ?? null;
  const whole = [...new Set(words.slice(0, -1))];
  return { words: whole, prefix, key: [...whole, `${prefix ?? ""}*`].join(" ") };
}

/**
 * The first string after every string that starts with `prefix`, in MongoDB's order of strings
 * (UTF-8 bytes, which is code point order): `prefix` with its last code point one higher. A
 * string s with s ≥ prefix and s < this starts with `prefix`. Words are letters and digits, never
 * the last code point; a successor in the surrogate range (no string holds one) skips it.
 */
export function successorOf(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()?.codePointAt(0) ?? 0;
  const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
  return points.join("") + String.fromCodePoint(next);
}

/**
 * The search's terms of the list's filter (list-filter.ts `releasedFilter`). A search without a
 * word matches nothing and is never sent (blog-reads.ts).
 */
export function textSearchFilter(search: TextSearch & { prefix: string }): Filter<BlogDoc>[] {
  return [
    ...search.words.map((word) => ({ textTerms: word })),
    { textTerms: { $elemMatch: { $gte: search.prefix, $lt: successorOf(search.prefix) } } },
  ];
}

/** Whether a blog's text (as the preview perspective shows it) passes the search. */
export function textMatches(
  search: TextSearch,
  blog: Pick<BlogDoc, "title" | "excerpt" | "tags" | "bodyHtml">,
): boolean {
  const { prefix } = search;
  if (prefix === null) return false;
  const terms = textTermsOf(blog);
  const held = new Set(terms);
  return search.words.every((word) => held.has(word)) && terms.some((t) => t.startsWith(prefix));
}

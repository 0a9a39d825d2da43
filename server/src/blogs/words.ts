/**
 * Words as both searches store and compare them (search-terms.ts for the admin list,
 * text-search.ts for consumers).
 */

/** Longer words are stored (and searched) by their first this many characters. */
export const MAX_TERM_LENGTH = 24;

/**
 * Letters and digits in lower case without accents: NFKD splits "é" into "e" and a combining
 * mark, which goes, then the text is split on anything that is not a letter or digit
 * (`release-notes` → `release`, `notes`). Compatibility forms fold too ("ﬁ" → "fi", "①" → "1").
 */
export function wordsOf(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** A word as stored and searched: at most `MAX_TERM_LENGTH` code points. */
export const clip = (word: string): string => [...word].slice(0, MAX_TERM_LENGTH).join("");

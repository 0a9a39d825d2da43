import { textOfHtml } from "./html-text.js";

/**
 * A body's reading time (openapi.yaml, `Blog.readingTimeMinutes`): the words of its text at 265
 * a minute, and characters of scripts written without spaces (Chinese, Japanese) at 500 a minute,
 * rounded up. Derived from the sanitised HTML when the blog is saved, so markup, link addresses
 * and image sources never count; the alt text of an image does not either (readers skip it).
 */

const WORDS_PER_MINUTE = 265;
const CHARACTERS_PER_MINUTE = 500;

/** Han ideographs and kana: read character by character, not word by word. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/** What makes a run without white space a word: at least one letter or digit. */
const WORDLIKE = /[\p{L}\p{N}]/u;

export function readingTimeOf(bodyHtml: string): number {
  const text = textOfHtml(bodyHtml);
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  // Split, then test each run: linear in the text (a pattern matching whole words would
  // backtrack quadratically over a long run without letters).
  let words = 0;
  for (const run of text.replace(UNSPACED, " ").split(/\s+/)) if (WORDLIKE.test(run)) words++;
  return Math.ceil(words / WORDS_PER_MINUTE + unspaced / CHARACTERS_PER_MINUTE);
}

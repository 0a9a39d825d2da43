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
/** A word: a run without white space holding at least one letter or digit. */
const WORD = /[^\s]*[\p{L}\p{N}][^\s]*/gu;

/** The text of sanitised HTML: no tags, entities decoded as far as counting needs. */
function textOf(bodyHtml: string): string {
  return bodyHtml
    .replace(/<[^>]*>/g, " ")
    .replace(/&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi, (entity) => (entity === "&nbsp;" ? " " : "x"));
}

export function readingTimeOf(bodyHtml: string): number {
  const text = textOf(bodyHtml);
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  const words = text.replace(UNSPACED, " ").match(WORD)?.length ?? 0;
  return Math.ceil(words / WORDS_PER_MINUTE + unspaced / CHARACTERS_PER_MINUTE);
}

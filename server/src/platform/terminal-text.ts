/**
 * Characters that must not reach an operator's terminal as they are, since names, titles, slugs
 * and messages the CLI prints come from input (a Markdown folder's file names, a Ghost export, a
 * key's name): C0 controls but the line feed (ESC starts terminal escape sequences; CR and
 * backspace overwrite what was printed), DEL, C1 controls (U+0080–U+009F: CSI and OSC among
 * them) and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * reorder what a line shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number): string =>
  (c.codePointAt(0) ?? 0).toString(16).padStart(width, "0");

/** `text` with every unsafe character spelled out as a visible escape: `\x1b`, `\u202e`. */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => (c <= "\u00ff" ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * JSON text with every unsafe character inside its strings written as a `\uXXXX` escape: the
 * same JSON value, safe on a terminal (JSON.stringify escapes C0 controls only).
 */
export function jsonSafe(json: string): string {
  return json.replace(UNSAFE, (c) => `\\u${hex(c, 4)}`);
}

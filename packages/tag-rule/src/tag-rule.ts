/**
 * The normal form of a tag (openapi.yaml, "Tags"; admin.yaml, `BlogInput.tags`): the one rule
 * applied wherever a tag is written — the admin API and the CLI through the server's
 * blogs/blog-rules.ts, the dashboard's editor (dashboard/src/features/blogs/blog-draft.ts) — and
 * what a consumer's `tag=` must already be in. A package of its own (`@pressroom/tag-rule`) so
 * that both import it and neither reaches into the other; no imports, so it runs in the browser
 * as it is.
 */

/** The longest tag, in Unicode code points of its normal form. */
export const TAG_MAX_LENGTH = 40;

export type TagNormalisation =
  | { readonly ok: true; readonly tag: string }
  | { readonly ok: false; readonly problem: string };

/**
 * Characters no tag may contain, as a regular expression class: controls (U+0000–U+001F,
 * U+007F–U+009F) and the invisible format characters of the Basic Multilingual Plane (soft
 * hyphen, Arabic and Syriac marks, Mongolian vowel separator, zero-width space, non-joiner and
 * joiner, direction marks, bidi embeddings, overrides and isolates, word joiner and invisible
 * operators, byte-order mark, interlinear annotation). Listed rather than `\p{Cf}`, so that it
 * cannot differ between JavaScript engines: admin.yaml's pattern for a tag is this same class (a
 * test compares them).
 */
export const REFUSED_CLASS =
  "\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u180e" +
  "\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb";
/** …and lone surrogates, which a request's JSON can carry (no spec pattern says so: tools cannot read it). */
const REFUSED = new RegExp(`[${REFUSED_CLASS}\\ud800-\\udfff]`, "u");

/** The tag as the refusal quotes it: refused characters as `U+XXXX`, at most 60 code points. */
export function quoteTag(raw: string): string {
  const points = [...raw];
  const shown = points
    .slice(0, 60)
    .map((c) =>
      REFUSED.test(c)
        ? `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`
        : c,
    )
    .join("");
  return `"${shown}${points.length > 60 ? "…" : ""}"`;
}

/**
 * NFKC, lower case (Unicode's default mapping: the same in every locale), NFKC again, trimmed,
 * each run of white space one `-`. A blank tag normalises to "" (callers decide: the admin API
 * drops it, a consumer filter refuses it). Idempotent: a normal form is its own normal form.
 */
export function normaliseTag(raw: string): TagNormalisation {
  if (REFUSED.test(raw)) {
    return {
      ok: false,
      problem: `Tag ${quoteTag(raw)} contains a control or invisible character.`,
    };
  }
  const tag = raw.normalize("NFKC").toLowerCase().normalize("NFKC").trim().replace(/\s+/gu, "-");
  // NFKC and case mapping never make such characters, but the check is cheap and final.
  if (REFUSED.test(tag)) {
    return { ok: false, problem: `Tag ${quoteTag(raw)} cannot be normalised.` };
  }
  const length = [...tag].length;
  if (length > TAG_MAX_LENGTH) {
    return {
      ok: false,
      problem: `Tag ${quoteTag(raw)} is longer than ${TAG_MAX_LENGTH} characters in normal form (${length}).`,
    };
  }
  return { ok: true, tag };
}

/**
 * A blog's tags as stored: each in normal form, blank ones dropped, repeats (in normal form)
 * dropped with the first kept, order kept. The first tag that cannot be normalised is returned
 * as the problem instead.
 */
export function normaliseTags(
  raw: readonly string[],
):
  | { readonly ok: true; readonly tags: string[] }
  | { readonly ok: false; readonly problem: string } {
  const tags = new Set<string>();
  for (const one of raw) {
    const result = normaliseTag(one);
    if (!result.ok) return result;
    if (result.tag !== "") tags.add(result.tag);
  }
  return { ok: true, tags: [...tags] };
}

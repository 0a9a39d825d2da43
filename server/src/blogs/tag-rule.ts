/**
 * The normal form of a tag (openapi.yaml, "Tags"; admin.yaml, `BlogInput.tags`): the one rule
 * applied wherever a tag is written — the admin API and the CLI through blog-rules.ts, the
 * dashboard's editor (dashboard/src/blog-draft.ts imports this module) — and what a consumer's
 * `tag=` must already be in. No imports: it runs in the browser as it is.
 */

/** The longest tag, in Unicode code points of its normal form. */
export const TAG_MAX_LENGTH = 40;

export type TagNormalisation =
  | { readonly ok: true; readonly tag: string }
  | { readonly ok: false; readonly problem: string };

/**
 * Characters no tag may contain: controls (Cc), invisible format characters (Cf: zero-width
 * space and joiners, soft hyphen, bidi controls, byte-order mark), lone surrogates (Cs) and
 * unassigned code points (Cn, whose normalisation a later Unicode version may change).
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Cn}]/u;

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
      problem: `Tag ${quoteTag(raw)} contains a control or invisible character, or one Unicode does not assign.`,
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

/**
 * A Ghost post's presentation and search fields (blog-rules.ts `PRESENTATION_FIELDS`), for
 * ghost-reader.ts. Ghost 5 and later keep the SEO and social fields in `posts_meta`, one row per
 * post; older exports on the post itself. A posts_meta row's value wins; the post's is read when
 * the row has none. The mapping:
 * - meta_title (else og_title, else twitter_title) → metaTitle;
 * - meta_description (else og_description, else twitter_description) → metaDescription;
 * - canonical_url → canonicalUrl; og_image (else twitter_image) → socialImageUrl: absolute
 *   http(s) URLs without a user name or password, as a cover (blog-rules.ts `coverUrlOf`);
 *   anything else dropped with a note, which does not repeat credentials;
 * - feature_image_alt → coverImageAlt; featured (true or 1; false, 0 or absent) → featured.
 * Text is made one line (each run of white space one space); text longer than the admin API
 * takes is dropped with a note rather than cut. Nothing about email (newsletters, the email
 * subject) is read.
 */
import type { Presentation } from "../blogs/blog-rules.js";
import { coverUrlOf } from "../blogs/blog-rules.js";
import { type GhostRecord, str } from "./ghost-export.js";
import { LIMITS } from "./import-checks.js";

/** A one-line field as the blog rules take it: each run of white space one space. */
export const oneLine = (s: string | undefined): string => (s ?? "").replace(/\s+/gu, " ").trim();

/**
 * `url` (a field named `what`) as a public URL, or null and a note saying it is dropped and what
 * the blog has instead (`none`, e.g. "no cover").
 */
export function ghostUrl(
  url: string | undefined,
  what: string,
  none: string,
): { url: string | null; note: string | null } {
  if (url === undefined || url.trim() === "") return { url: null, note: null };
  const dropped = (why: string) => ({ url: null, note: `${what} "${url}" ${why}; ${none}.` });
  if (url.startsWith("__GHOST_URL__")) return dropped("is on the Ghost site (__GHOST_URL__)");
  const checked = coverUrlOf(url.trim());
  if ("href" in checked) return { url: checked.href, note: null };
  // Not repeated in the note: the user name and password it carries.
  return checked.problem === "must be an absolute http(s) URL"
    ? dropped("is not an absolute http(s) URL")
    : { url: null, note: `${what} carries a user name or password, refused; ${none}.` };
}

/** The six fields of `post` (its posts_meta row `meta`, if any), and notes on what was dropped. */
export function ghostPresentation(
  post: GhostRecord,
  meta: GhostRecord | undefined,
): { fields: Presentation; notes: string[] } {
  const notes: string[] = [];
  /** The first of `names` with a value, the posts_meta row's before the post's. */
  const first = (...names: string[]): { name: string; value: string } | undefined => {
    for (const name of names) {
      const value = str(meta?.[name]) ?? str(post[name]);
      if (value !== undefined && value.trim() !== "") return { name, value };
    }
    return undefined;
  };
  const text = (max: number, ...names: string[]): string | null => {
    const found = first(...names);
    if (found === undefined) return null;
    const line = oneLine(found.value);
    if (line.length <= max) return line;
    notes.push(`${found.name} is longer than ${max} characters (${line.length}); not imported.`);
    return null;
  };
  const url = (none: string, ...names: string[]): string | null => {
    const found = first(...names);
    if (found === undefined) return null;
    const checked = ghostUrl(found.value, found.name, none);
    if (checked.note !== null) notes.push(checked.note);
    return checked.url;
  };
  const featured = post.featured;
  if (featured != null && ![true, false, 0, 1].includes(featured as never)) {
    const shown = JSON.stringify(featured)?.slice(0, 40) ?? typeof featured;
    notes.push(`featured ${shown} is not true or false (nor 1 or 0); not featured.`);
  }
  return {
    fields: {
      coverImageAlt: text(LIMITS.coverImageAlt, "feature_image_alt"),
      featured: featured === true || featured === 1,
      metaTitle: text(LIMITS.metaTitle, "meta_title", "og_title", "twitter_title"),
      metaDescription: text(
        LIMITS.metaDescription,
        "meta_description",
        "og_description",
        "twitter_description",
      ),
      canonicalUrl: url("no canonical URL", "canonical_url"),
      socialImageUrl: url("no social image", "og_image", "twitter_image"),
    },
    notes,
  };
}

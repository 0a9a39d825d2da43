import { createHash } from "node:crypto";
import { normaliseTag, quoteTag } from "@pressroom/tag-rule";
import { invalid } from "../platform/domain-error.js";

/**
 * A consumer's `tag` filter (openapi.yaml, "Tags") in its canonical form: the distinct tags in
 * code point order. `key` names the set (it goes into the ETag); `scope` binds a cursor to it.
 */
export interface TagFilter {
  readonly tags: readonly string[];
  readonly key: string;
  readonly scope: string;
}

/** Unicode code point order (MongoDB's order of UTF-8 strings), not UTF-16's. */
export const compareCodePoints = (a: string, b: string): number => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/**
 * The `tag` query parameter → the filter, or null without one. The spec has already refused
 * an empty value, more than 40 characters and more than 10 values; here every value must be
 * in normal form, else a 400 naming it (and its normal form, when it has one).
 */
export function parseTagFilter(raw: readonly string[] | undefined): TagFilter | null {
  if (raw === undefined) return null;
  for (const value of raw) {
    const normal = normaliseTag(value);
    if (!normal.ok) throw invalid(`Invalid query parameter tag: ${normal.problem}`);
    if (normal.tag === "") throw invalid("Invalid query parameter tag: a tag cannot be blank.");
    if (normal.tag !== value) {
      throw invalid(
        `Invalid query parameter tag: tag ${quoteTag(value)} is not in normal form: use "${normal.tag}".`,
      );
    }
  }
  const tags = [...new Set(raw)].sort(compareCodePoints);
  const key = JSON.stringify(tags);
  const scope = createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 16);
  return { tags, key, scope };
}

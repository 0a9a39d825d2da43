import { invalid as invalidValue } from "../platform/domain-error.js";

/** Position after the last blog of a page: its sort time (ms) and id, the list's sort key. */
export interface ListPosition {
  at: Date;
  id: string;
}

/**
 * `scope` binds the cursor to the list it came from (a tag filter's, blogs/tag-filter.ts): the
 * plain list's cursors have none, and are exactly what they always were.
 */
export function encodeCursor({ at, id }: ListPosition, scope: string | null = null): string {
  const parts: unknown[] = scope === null ? [at.getTime(), id] : [at.getTime(), id, scope];
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/**
 * Anything that is not a cursor this server produced for this `scope` is invalid; the message
 * names the parameter (and, for a cursor of another tag set, says so).
 */
export function decodeCursor(cursor: string, scope: string | null = null): ListPosition {
  const invalid = () =>
    invalidValue("Invalid query parameter cursor: pass a nextCursor unchanged.");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > 3) throw invalid();
  const [millis, id, boundTo = null] = parsed as unknown[];
  if (
    typeof millis !== "number" ||
    !Number.isSafeInteger(millis) ||
    millis < 0 ||
    typeof id !== "string" ||
    !/^b_[A-Za-z0-9]{1,64}$/.test(id)
  ) {
    throw invalid();
  }
  if (parsed.length === 3 && typeof boundTo !== "string") throw invalid();
  if (boundTo !== scope) {
    throw invalidValue(
      "Invalid query parameter cursor: pass a nextCursor unchanged, with the same tag values as the request that returned it.",
    );
  }
  return { at: new Date(millis), id };
}

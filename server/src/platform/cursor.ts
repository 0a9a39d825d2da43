import { invalid } from "./domain-error.js";

/**
 * The opaque `cursor`/`nextCursor` of every keyset-paginated list (the consumer's blog list, the
 * dashboard's, the audit log, a webhook endpoint's delivery log): one codec, configured per list.
 *
 * A cursor is where a page ended in the list's order: base64url of the JSON `[value, id]`, the
 * last item's sort value (a time as epoch milliseconds, a string as itself) and its `_id` (the
 * tie-break), so the next page is one index range, with no skip and no shifting while others write.
 *
 * **A cursor is bound to its query.** A list gives each query a scope, what its walk depends
 * on (the consumer list's tag set; the dashboard list's sort and search), and the query's cursors
 * carry it as a third element: `[value, id, scope]`. A cursor is only ever read back against the
 * scope of the request that passes it, and one of another scope is refused with the list's own
 * 400, which says what must be the same: it would otherwise continue another walk from a position
 * that walk never had. The query without a tag set, sort or search has no scope (null): its
 * cursors are `[value, id]`, exactly what they were before scopes existed, so those a client holds
 * still work. A list without scopes at all (the audit and delivery logs) refuses a third element.
 * Anything else (not base64url JSON, another shape, an id of another kind) is refused with
 * {@link UNCHANGED}, one message for every list.
 */

/** The 400 for anything that is not a cursor this server made. */
const UNCHANGED = "Invalid query parameter cursor: pass a nextCursor unchanged.";

/** A sort value a cursor can carry: a time (written as epoch ms) or a string (as itself). */
export type SortValue = Date | string;

/** Where a page ended in its list's order: its last item's sort value and `_id`. */
export interface KeysetPosition<V extends SortValue> {
  readonly value: V;
  readonly id: string;
}

/** A cursor's first element read back as a sort value; undefined when it is not one. */
export type SortValueReader<V extends SortValue> = (raw: unknown) => V | undefined;

/** A time: epoch milliseconds, a non-negative safe integer. */
export const readTime: SortValueReader<Date> = (raw) =>
  typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0 ? new Date(raw) : undefined;

/** A string of at most `maxLength` UTF-16 code units. */
export const readText =
  (maxLength: number): SortValueReader<string> =>
  (raw) =>
    typeof raw === "string" && raw.length <= maxLength ? raw : undefined;

/**
 * How a list's sort values are read back. `value`: one kind for every query, checked with the
 * id (a malformed value is {@link UNCHANGED} whatever its scope). `valueFor`: a kind per query (a
 * time, or a title for the title order), so it is only read once the scope says the cursor is
 * this query's: a cursor of another order is "another's", not malformed.
 */
type ValueSpec<Q, V extends SortValue> =
  | { readonly value: SortValueReader<V> }
  | { readonly valueFor: (query: Q) => SortValueReader<V> };

export type KeysetCursorSpec<Q, V extends SortValue> = ValueSpec<Q, V> & {
  /** The ids a position may have: the list's `_id` form. */
  readonly idPattern: RegExp;
  /**
   * Refuse a cursor with any character outside the base64url alphabet before decoding it
   * (Node's decoder skips such characters; the spec's pattern refuses them first anyway).
   */
  readonly base64urlOnly?: boolean;
  /**
   * For a list whose queries bind cursors: each query's scope (null: none), and the 400 for a
   * cursor of another scope. Without it the list has one walk, and a cursor is always `[value,
   * id]` (a third element is refused as malformed).
   */
  readonly scope?: {
    readonly of: (query: Q) => string | null;
    readonly refusal: string;
  };
};

/** A list's cursors: `query` is what they are bound to (omitted for a list without scopes). */
export interface KeysetCursor<Q, V extends SortValue> {
  encode(position: KeysetPosition<V>, query: Q): string;
  decode(cursor: string, query: Q): KeysetPosition<V>;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The codec of one list's cursors (see the top of this file). */
export function keysetCursor<Q = void, V extends SortValue = Date>(
  spec: KeysetCursorSpec<Q, V>,
): KeysetCursor<Q, V> {
  const unchanged = () => invalid(UNCHANGED);
  const maxElements = spec.scope === undefined ? 2 : 3;
  return {
    encode({ value, id }, query) {
      const scope = spec.scope?.of(query) ?? null;
      const v = value instanceof Date ? value.getTime() : value;
      const parts: unknown[] = scope === null ? [v, id] : [v, id, scope];
      return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
    },

    decode(cursor, query) {
      if (spec.base64urlOnly === true && !BASE64URL.test(cursor)) throw unchanged();
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        throw unchanged();
      }
      if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > maxElements) {
        throw unchanged();
      }
      const [raw, id, boundTo = null] = parsed as unknown[];
      // One kind of value for every query: checked with the id, before the scope.
      const early = "value" in spec ? spec.value(raw) : null;
      if (early === undefined) throw unchanged();
      if (typeof id !== "string" || !spec.idPattern.test(id)) throw unchanged();
      if (parsed.length === 3 && typeof boundTo !== "string") throw unchanged();
      if (spec.scope !== undefined && boundTo !== spec.scope.of(query)) {
        throw invalid(spec.scope.refusal);
      }
      // A kind per query: read only now that the scope says the cursor is this query's.
      const value = early ?? ("valueFor" in spec ? spec.valueFor(query)(raw) : undefined);
      if (value === undefined) throw unchanged();
      return { value, id };
    },
  };
}

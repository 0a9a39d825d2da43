import { keysetCursor, readText, readTime } from "../platform/cursor.js";
import type { EditorListQuery, EditorPosition } from "./editor-list.js";

/**
 * The cursors of the two blog lists, each the one cursor codec (platform/cursor.ts) bound to
 * what its query can change: the consumer list's tag filter, the dashboard list's sort and search.
 */

/** Position after the last blog of a page: its sort time (ms) and id, the list's sort key. */
export interface ListPosition {
  at: Date;
  id: string;
}

const BLOG_ID = /^b_[A-Za-z0-9]{1,64}$/;
/** A title key (search-terms.ts `titleKeyOf`): far shorter than this bound, as titles are. */
const readTitleKey = readText(1000);

/** What a consumer list cursor is bound to: its filter's scope (blogs/list-filter.ts). */
type Scoped = { readonly scope: string | null } | null;

const consumerCodec = keysetCursor<Scoped>({
  value: readTime,
  idPattern: BLOG_ID,
  base64urlOnly: true,
  scope: {
    of: (filter) => filter?.scope ?? null,
    refusal:
      "Invalid query parameter cursor: pass a nextCursor unchanged, with the same q, tag, author, featured, releasedAfter and releasedBefore values as the request that returned it.",
  },
});

/**
 * The consumer list's cursors (openapi.yaml, "Tags" and "Archives": a `nextCursor` is bound to
 * its filter, list-filter.ts). The plain list's cursors have no scope, and are exactly what they
 * always were; a tag set's alone have the scope they had before the other filters existed. Positions keep
 * their `at`, as the store's pages and the changes feed's tokens hold them.
 */
export const listCursor = {
  encode: ({ at, id }: ListPosition, filter: Scoped): string =>
    consumerCodec.encode({ value: at, id }, filter),

  decode(cursor: string, filter: Scoped): ListPosition {
    const { value, id } = consumerCodec.decode(cursor, filter);
    return { at: value, id };
  },
};

/**
 * The dashboard list's cursors (admin.yaml `listAdminBlogs`): the sort value is a time, or the
 * title key for the title order, and the cursor is bound to the sort and the search's words.
 * The newest-first list without a search has no scope: its cursors are exactly what they were
 * before sorts and search existed.
 */
export const editorCursor = keysetCursor<EditorListQuery, EditorPosition["value"]>({
  valueFor: ({ sort }) => (sort === "title" ? readTitleKey : readTime),
  idPattern: BLOG_ID,
  scope: {
    of: ({ sort, search }) =>
      sort === "newest" && search === null
        ? null
        : `${sort}${search === null ? "" : `~${search.scope}`}`,
    refusal:
      "Invalid query parameter cursor: it belongs to another sort or q; pass a nextCursor with the same sort and q as the request that returned it.",
  },
});

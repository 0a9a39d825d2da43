import type { Collection, Filter, Sort } from "mongodb";
import type { BlogDoc } from "../platform/db/collections.js";
import type { BlogSearch } from "./search-terms.js";

/** The admin list's orders (openapi/admin.yaml `listAdminBlogs`, `sort`). */
export type EditorSort = "newest" | "oldest" | "updated" | "title";

/** Each order as a stored field and a direction; ties always by `_id` the same way. */
const ORDERS: Record<EditorSort, { field: "createdAt" | "updatedAt" | "titleKey"; dir: 1 | -1 }> = {
  newest: { field: "createdAt", dir: -1 },
  oldest: { field: "createdAt", dir: 1 },
  updated: { field: "updatedAt", dir: -1 },
  title: { field: "titleKey", dir: 1 },
};

/** Position after a page's last blog: its sort value (a time, or the title key) and its id. */
export interface EditorPosition {
  value: Date | string;
  id: string;
}

export interface EditorListQuery {
  status: "draft" | "released" | undefined;
  sort: EditorSort;
  search: BlogSearch | null;
}

/**
 * The filter: drafts and released (or one of them), and with a search one `searchTerms`
 * equality per word (all must match). Key order is the query's shape (the plan test's).
 */
export function editorFilter(
  workspaceId: string,
  status: "draft" | "released" | undefined,
  search: BlogSearch | null,
): Filter<BlogDoc> {
  const filter: Filter<BlogDoc> =
    status === undefined
      ? { workspaceId, status: { $in: ["draft", "released"] } }
      : { workspaceId, status };
  if (search !== null) filter.$and = search.terms.map((term) => ({ searchTerms: term }));
  return filter;
}

/** One page of the list in `query`'s order, after `after` (keyset: no skip, no shifting). */
export async function editorPage(
  blogs: Collection<BlogDoc>,
  workspaceId: string,
  query: EditorListQuery,
  limit: number,
  after: EditorPosition | null,
): Promise<{ blogs: BlogDoc[]; next: EditorPosition | null }> {
  // A search without a word (only punctuation) matches nothing: no query at all.
  if (query.search !== null && query.search.terms.length === 0) {
    return { blogs: [], next: null };
  }
  const { field, dir } = ORDERS[query.sort];
  const filter = editorFilter(workspaceId, query.status, query.search);
  if (after !== null) {
    const beyond = dir === -1 ? "$lt" : "$gt";
    filter.$or = [
      { [field]: { [beyond]: after.value } },
      { [field]: after.value, _id: { [beyond]: after.id } },
    ];
  }
  const sort: Sort = { [field]: dir, _id: dir };
  const docs = await blogs
    .find(filter)
    .sort(sort)
    .limit(limit + 1)
    .toArray();
  const pageDocs = docs.slice(0, limit);
  const last = pageDocs.at(-1);
  const value = last?.[field];
  const next =
    docs.length > limit && last !== undefined && value !== undefined
      ? { value, id: last._id }
      : null;
  return { blogs: pageDocs, next };
}

/** Blogs per status filter for the same search (two counts on the exact filters). */
export async function editorCounts(
  blogs: Collection<BlogDoc>,
  workspaceId: string,
  search: BlogSearch | null,
): Promise<{ all: number; draft: number; released: number }> {
  if (search !== null && search.terms.length === 0) return { all: 0, draft: 0, released: 0 };
  const [draft, released] = await Promise.all([
    blogs.countDocuments(editorFilter(workspaceId, "draft", search)),
    blogs.countDocuments(editorFilter(workspaceId, "released", search)),
  ]);
  return { all: draft + released, draft, released };
}

import { adminQueryLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, type BlogCounts, call } from "../../api.js";
import { useLoad } from "../../use-load.js";

/**
 * A search the API takes: at most its `maxLength` characters (code points, as the API counts
 * them; the box's own `maxLength` counts UTF-16 units, so typing stays within). A longer `q` can
 * only come from an edited or old link: it is cut, not sent to be refused.
 */
export function searchable(q: string): string {
  const max = Math.min(
    adminQueryLimits.listAdminBlogs.q.maxLength,
    adminQueryLimits.countAdminBlogs.q.maxLength,
  );
  const chars = Array.from(q);
  return chars.length <= max ? q : chars.slice(0, max).join("").trim();
}

/**
 * The counts on the blog list's filters for search `q` ("" for none); null while unknown or
 * after a failure (the list's own request reports it; stale counts would mislead). They depend
 * on the search only, not on the filter, sort or page: fetched when `ws` or `q` changes (the
 * stale request aborted: an aborted request does not turn the offline banner on, see api.ts),
 * and again when `round` changes ("Try again"). They never hold the list back.
 */
export function useBlogCounts(
  ws: string,
  q: string,
  round: number,
): { counts: BlogCounts | null; loading: boolean } {
  const counts = useLoad(
    (signal) =>
      call(
        api.GET("/workspaces/{workspaceId}/blog-counts", {
          params: { path: { workspaceId: ws }, query: q === "" ? {} : { q } },
          signal,
        }),
      ),
    [ws, q],
    { refreshOn: [round] },
  );
  return { counts: counts.error ? null : counts.data, loading: counts.loading };
}

import { useEffect, useState } from "preact/hooks";
import { adminQueryLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, type BlogCounts, call } from "../../api.js";

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
  const [counts, setCounts] = useState<BlogCounts | null>(null);
  // The search the counts held are for: after a new search, the old ones are not shown.
  const [countsFor, setCountsFor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const settle = (total: BlogCounts | null) => {
      if (controller.signal.aborted) return; // a newer search (or leaving the screen) took over
      setCounts(total);
      setCountsFor(`${ws}|${q}`);
      setLoading(false);
    };
    call(
      api.GET("/workspaces/{workspaceId}/blog-counts", {
        params: { path: { workspaceId: ws }, query: q === "" ? {} : { q } },
        signal: controller.signal,
      }),
    ).then(settle, () => settle(null));
    return () => controller.abort();
  }, [ws, q, round]);
  return { counts: countsFor === `${ws}|${q}` ? counts : null, loading };
}

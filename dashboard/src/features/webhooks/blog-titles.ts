import { useEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, api, call, type WebhookDelivery } from "../../api.js";

/** The blog list's largest page (admin.yaml, listAdminBlogs `limit`). */
const PAGE = 100;
/** At most this many pages per lookup: a log of old deliveries still costs a few requests. */
const MAX_PAGES = 5;
/** Clock slack between a blog's change and the delivery its event queued. */
const SLACK_MS = 5 * 60_000;

/**
 * The titles of the blogs `ids` name, found in the workspace's blogs by last change, newest
 * first (admin.yaml, listAdminBlogs `sort=updated`, 100 a page): every delivery of a blog
 * follows a change of it, so its blog changed at or after the delivery was queued, and the pages
 * are read only back to the oldest of those deliveries (`since`) — one request, most days.
 * A removed blog is in no list: it keeps its id.
 */
async function findTitles(
  workspaceId: string,
  ids: ReadonlySet<string>,
  since: number,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES && found.size < ids.size; page++) {
    const answer: { data: AdminBlog[]; nextCursor: string | null } = await call(
      api.GET("/workspaces/{workspaceId}/blogs", {
        params: {
          path: { workspaceId },
          query: { sort: "updated", limit: PAGE, ...(cursor ? { cursor } : {}) },
        },
      }),
    );
    for (const blog of answer.data) if (ids.has(blog.id)) found.set(blog.id, blog.title);
    const last = answer.data.at(-1);
    cursor = answer.nextCursor;
    if (cursor === null || last === undefined) break;
    if (Date.parse(last.updatedAt) < since - SLACK_MS) break; // older changes: none of ours
  }
  return found;
}

/**
 * The titles of the blogs the log's deliveries are about (the deliveries API names them by id
 * only), looked up once per blog: a refresh asks again only for blogs it has not asked about.
 * A lookup that fails is asked again with the next deliveries shown.
 */
export function useBlogTitles(
  workspaceId: string,
  deliveries: readonly WebhookDelivery[] | null,
): ReadonlyMap<string, string> {
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(() => new Map());
  const asked = useRef(new Set<string>());
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const unasked = new Map<string, number>(); // blog id → its oldest delivery shown
  for (const d of deliveries ?? []) {
    if (d.blogId === null || asked.current.has(d.blogId)) continue;
    const at = Date.parse(d.createdAt);
    unasked.set(d.blogId, Math.min(at, unasked.get(d.blogId) ?? at));
  }
  const key = [...unasked.keys()].sort().join(",");

  useEffect(() => {
    if (unasked.size === 0) return;
    const ids = new Set(unasked.keys());
    for (const id of ids) asked.current.add(id);
    findTitles(workspaceId, ids, Math.min(...unasked.values())).then(
      (found) => {
        if (alive.current && found.size > 0) setTitles((shown) => new Map([...shown, ...found]));
      },
      () => {
        for (const id of ids) asked.current.delete(id);
      },
    );
  }, [workspaceId, key]);
  return titles;
}

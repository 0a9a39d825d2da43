import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import {
  type AdminBlog,
  api,
  type BlogSort,
  type BlogStatus,
  call,
  messageOf,
  type Workspace,
} from "../../api.js";
import { ErrorMessage } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../../router.js";
import { searchable, useBlogCounts } from "./blogs-counts.js";
import { BlogsEmpty } from "./blogs-empty.js";
import { BlogRows, SkeletonRows } from "./blogs-rows.js";
import { BlogsToolbar, type ListChange } from "./blogs-toolbar.js";
import "./blogs.css";

const PAGE_SIZE = 20;
/** Typing waits this long for the next key before the list is searched. */
const SEARCH_DELAY_MS = 250;

interface BlogsProps {
  workspace: Workspace;
  status: BlogStatus | null;
  /** The search as in the URL (trimmed); "" for none. */
  q: string;
  sort: BlogSort;
}

/**
 * The blogs of a workspace: filtered by state (with counts), searched on the server by title,
 * slug and tag words, sorted, one page at a time ("Load more" follows `nextCursor`). Filter,
 * search and sort live in the URL, so a list can be reloaded or shared as it is.
 */
export function Blogs({ workspace, status, q: asked, sort }: BlogsProps) {
  const q = searchable(asked);
  useTitle(`Blogs · ${workspace.name}`);
  const [blogs, setBlogs] = useState<AdminBlog[] | null>(null);
  // What the blogs held were loaded for: after a change of filter, search or sort,
  // the screen renders once before its effect starts the new load, and must not show the old
  // list (or its empty state) as the new one's answer meanwhile.
  const listKey = `${status}|${sort}|${q}`;
  const [blogsFor, setBlogsFor] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState(q);
  const latest = useRef(0);
  const ws = workspace.id;

  const go = useCallback(
    (change: ListChange) =>
      navigate(hrefOf({ name: "blogs", ws, status, q, sort, ...change }), { replace: true }),
    [ws, status, q, sort],
  );

  // The URL changed under the box (back/forward, "Clear search"): show what it says.
  useEffect(() => setTyped((shown) => (shown.trim() === q ? shown : q)), [q]);
  useEffect(() => {
    const wanted = typed.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => go({ q: wanted }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q, go]);

  /** Bumped by "Try again": the counts are fetched again with the list. */
  const [countsRound, setCountsRound] = useState(0);
  const counts = useBlogCounts(ws, q, countsRound);

  const load = useCallback(
    async (cursor: string | null) => {
      const request = ++latest.current; // a newer request (another filter or search) wins
      setLoading(true);
      setError(null);
      try {
        const page = await call(
          api.GET("/workspaces/{workspaceId}/blogs", {
            params: {
              path: { workspaceId: ws },
              query: {
                limit: PAGE_SIZE,
                sort,
                ...(q === "" ? {} : { q }),
                ...(status ? { status } : {}),
                ...(cursor ? { cursor } : {}),
              },
            },
          }),
        );
        if (request !== latest.current) return;
        setBlogs((shown) => (cursor && shown ? [...shown, ...page.data] : page.data));
        setBlogsFor(`${status}|${sort}|${q}`);
        setNext(page.nextCursor);
      } catch (err) {
        if (request !== latest.current) return;
        setError(messageOf(err));
      }
      setLoading(false);
    },
    [ws, status, q, sort],
  );
  useEffect(() => {
    setBlogs(null);
    void load(null);
  }, [load]);

  const shown = blogsFor === listKey ? blogs : null;
  const firstLoad = shown === null && (loading || error === null);
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Blogs</h1>
          <p class="lead">Released blogs are what the consumer API serves. Drafts stay here.</p>
        </div>
        <a
          class="button primary"
          href={hrefOf({ name: "blog", ws, blogId: null })}
          onClick={onLinkClick}
        >
          New blog
        </a>
      </div>
      <BlogsToolbar
        status={status}
        counts={counts.counts}
        countsLoading={counts.loading}
        typed={typed}
        onType={setTyped}
        sort={sort}
        go={go}
      />
      {error && (
        <ErrorMessage
          message={error}
          onRetry={() => {
            setCountsRound((n) => n + 1);
            void load(shown ? next : null);
          }}
        />
      )}
      <div aria-busy={firstLoad || loading ? "true" : "false"} class="blogs-results">
        {firstLoad && (
          <>
            <p class="visually-hidden" role="status">
              Loading blogs…
            </p>
            <ul class="blog-list" aria-hidden="true">
              <SkeletonRows />
            </ul>
          </>
        )}
        {shown?.length === 0 && (
          <BlogsEmpty
            ws={ws}
            status={status}
            q={q}
            onClearSearch={() => {
              setTyped("");
              go({ q: "" });
            }}
            onShowAll={() => go({ status: null })}
          />
        )}
        {shown && shown.length > 0 && (
          <ul class="blog-list" aria-label="Blogs">
            <BlogRows ws={ws} blogs={shown} />
          </ul>
        )}
      </div>
      {shown && next && (
        <button type="button" class="button block" onClick={() => load(next)} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </button>
      )}
    </>
  );
}

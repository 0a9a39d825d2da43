import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import {
  type AdminBlog,
  api,
  type BlogCounts,
  type BlogSort,
  type BlogStatus,
  call,
  messageOf,
  type Workspace,
} from "../api.js";
import { ErrorMessage } from "../components/status.js";
import { useTitle } from "../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../router.js";
import { BlogsEmpty } from "./blogs-empty.js";
import { BlogRows, SkeletonRows } from "./blogs-rows.js";
import "./blogs.css";

const PAGE_SIZE = 20;
/** Typing waits this long for the next key before the list is searched. */
const SEARCH_DELAY_MS = 250;
const FILTERS: { value: BlogStatus | null; label: string; count: keyof BlogCounts }[] = [
  { value: null, label: "All", count: "all" },
  { value: "draft", label: "Drafts", count: "draft" },
  { value: "released", label: "Released", count: "released" },
];
const SORTS: { value: BlogSort; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "oldest", label: "Oldest" },
  { value: "updated", label: "Recently edited" },
  { value: "title", label: "Title A–Z" },
];

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
export function Blogs({ workspace, status, q, sort }: BlogsProps) {
  useTitle(`Blogs · ${workspace.name}`);
  const [blogs, setBlogs] = useState<AdminBlog[] | null>(null);
  const [counts, setCounts] = useState<BlogCounts | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState(q);
  const latest = useRef(0);
  const ws = workspace.id;

  const go = useCallback(
    (change: { status?: BlogStatus | null; q?: string; sort?: BlogSort }) =>
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

  const load = useCallback(
    async (cursor: string | null) => {
      const request = ++latest.current; // a newer request (another filter or search) wins
      setLoading(true);
      setError(null);
      const search = q === "" ? {} : { q };
      try {
        const [page, total] = await Promise.all([
          call(
            api.GET("/workspaces/{workspaceId}/blogs", {
              params: {
                path: { workspaceId: ws },
                query: {
                  limit: PAGE_SIZE,
                  sort,
                  ...search,
                  ...(status ? { status } : {}),
                  ...(cursor ? { cursor } : {}),
                },
              },
            }),
          ),
          // The counts follow the list: fetched again with each first page.
          cursor
            ? Promise.resolve(null)
            : call(
                api.GET("/workspaces/{workspaceId}/blog-counts", {
                  params: { path: { workspaceId: ws }, query: search },
                }),
              ),
        ]);
        if (request !== latest.current) return;
        setBlogs((shown) => (cursor && shown ? [...shown, ...page.data] : page.data));
        setNext(page.nextCursor);
        if (total !== null) setCounts(total);
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

  const firstLoad = blogs === null && loading;
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
      <div class="blogs-toolbar">
        <fieldset class="segmented">
          <legend class="visually-hidden">Show</legend>
          {FILTERS.map((f) => (
            <label key={f.label}>
              <input
                type="radio"
                name="status"
                checked={status === f.value}
                onChange={() => go({ status: f.value })}
              />
              <span>
                {f.label}
                {counts && (
                  <span class="count">
                    <span class="visually-hidden">, </span>
                    {counts[f.count]}
                  </span>
                )}
              </span>
            </label>
          ))}
        </fieldset>
        <div class="blogs-search">
          <label class="visually-hidden" for="blog-search">
            Search blogs
          </label>
          <input
            id="blog-search"
            type="search"
            placeholder="Search title, slug or tag"
            maxLength={100}
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </div>
        <div class="blogs-sort">
          <label for="blog-sort">Sort</label>
          <select
            id="blog-sort"
            value={sort}
            onChange={(e) => go({ sort: e.currentTarget.value as BlogSort })}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <ErrorMessage message={error} onRetry={() => load(blogs ? next : null)} />}
      <div aria-busy={loading ? "true" : "false"} class="blogs-results">
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
        {blogs?.length === 0 && (
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
        {blogs && blogs.length > 0 && (
          <ul class="blog-list" aria-label="Blogs">
            <BlogRows ws={ws} blogs={blogs} />
          </ul>
        )}
      </div>
      {blogs && next && (
        <button type="button" class="button block" onClick={() => load(next)} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </button>
      )}
    </>
  );
}

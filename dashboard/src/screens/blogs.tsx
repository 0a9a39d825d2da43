import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, api, type BlogStatus, call, messageOf, type Workspace } from "../api.js";
import { ErrorMessage, Loading, TimeAgo } from "../components/status.js";
import { useTitle } from "../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../router.js";

const PAGE_SIZE = 20;
const FILTERS: { value: BlogStatus | null; label: string }[] = [
  { value: null, label: "All" },
  { value: "draft", label: "Drafts" },
  { value: "released", label: "Released" },
];

interface BlogsProps {
  workspace: Workspace;
  status: BlogStatus | null;
}

/** Newest first, filtered by status, one page at a time ("Load more" follows `nextCursor`). */
export function Blogs({ workspace, status }: BlogsProps) {
  useTitle(`Blogs · ${workspace.name}`);
  const [blogs, setBlogs] = useState<AdminBlog[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = useCallback(
    async (cursor: string | null) => {
      const request = ++latest.current; // a newer request (another filter) wins
      setLoading(true);
      setError(null);
      try {
        const page = await call(
          api.GET("/workspaces/{workspaceId}/blogs", {
            params: {
              path: { workspaceId: workspace.id },
              query: {
                limit: PAGE_SIZE,
                ...(status ? { status } : {}),
                ...(cursor ? { cursor } : {}),
              },
            },
          }),
        );
        if (request !== latest.current) return;
        setBlogs((shown) => (cursor && shown ? [...shown, ...page.data] : page.data));
        setNext(page.nextCursor);
      } catch (err) {
        if (request !== latest.current) return;
        setError(messageOf(err));
      }
      setLoading(false);
    },
    [workspace.id, status],
  );
  useEffect(() => {
    setBlogs(null);
    void load(null);
  }, [load]);

  const now = Date.now();
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Blogs</h1>
          <p class="lead">Released blogs are what the consumer API serves. Drafts stay here.</p>
        </div>
        <a
          class="button primary"
          href={hrefOf({ name: "blog", ws: workspace.id, blogId: null })}
          onClick={onLinkClick}
        >
          New blog
        </a>
      </div>
      <fieldset class="segmented">
        <legend class="visually-hidden">Show</legend>
        {FILTERS.map((f) => (
          <label key={f.label}>
            <input
              type="radio"
              name="status"
              checked={status === f.value}
              onChange={() =>
                navigate(hrefOf({ name: "blogs", ws: workspace.id, status: f.value }), {
                  replace: true,
                })
              }
            />
            <span>{f.label}</span>
          </label>
        ))}
      </fieldset>
      {error && <ErrorMessage message={error} onRetry={() => load(blogs ? next : null)} />}
      {blogs === null && loading && <Loading label="Loading blogs…" />}
      {blogs?.length === 0 && (
        <div class="empty">
          <p>
            {status === "draft"
              ? "No drafts."
              : status === "released"
                ? "Nothing released yet: consumers see an empty list."
                : "No blogs yet. Write the first one."}
          </p>
        </div>
      )}
      {blogs && blogs.length > 0 && (
        <ul class="blog-list" aria-label="Blogs">
          {blogs.map((blog) => (
            <li key={blog.id} class="blog-item">
              <div class="blog-main">
                <a
                  class="blog-title"
                  href={hrefOf({ name: "blog", ws: workspace.id, blogId: blog.id })}
                  onClick={onLinkClick}
                >
                  {blog.title}
                </a>
                <span class="sub mono">/{blog.slug}</span>
                {blog.tags.length > 0 && (
                  <span class="tags">
                    {blog.tags.map((t) => (
                      <span class="tag" key={t}>
                        {t}
                      </span>
                    ))}
                  </span>
                )}
              </div>
              <div class="blog-meta">
                <span class={`badge ${blog.status}`}>
                  {blog.status === "released" ? "Released" : "Draft"}
                </span>
                <span class="sub">
                  {blog.status === "released" && blog.releasedAt ? "released " : "edited "}
                  <TimeAgo
                    iso={
                      blog.status === "released" && blog.releasedAt
                        ? blog.releasedAt
                        : blog.updatedAt
                    }
                    now={now}
                  />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {blogs && next && (
        <button type="button" class="button block" onClick={() => load(next)} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </button>
      )}
    </>
  );
}

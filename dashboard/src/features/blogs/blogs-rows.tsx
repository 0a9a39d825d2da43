import type { AdminBlog } from "../../api.js";
import { TimeAgo } from "../../components/status.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { isScheduled, scheduleText } from "./schedule.js";

/** The rows of the blog list: title, slug, tags; state and the last change. */
export function BlogRows({ ws, blogs }: { ws: string; blogs: AdminBlog[] }) {
  const now = Date.now();
  return (
    <>
      {blogs.map((blog) => (
        <li key={blog.id} class="blog-item">
          <div class="blog-main">
            <a
              class="blog-title"
              href={hrefOf({ name: "blog", ws, blogId: blog.id })}
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
            {blog.pendingChanges && <span class="badge pending">Changes pending</span>}
            {isScheduled(blog) && (
              <span class="badge pending" title={scheduleText(blog)}>
                Scheduled
              </span>
            )}
            <span class="sub">
              {blog.status === "released" && blog.releasedAt ? "released " : "edited "}
              <TimeAgo
                iso={
                  blog.status === "released" && blog.releasedAt ? blog.releasedAt : blog.updatedAt
                }
                now={now}
              />
            </span>
          </div>
        </li>
      ))}
    </>
  );
}

/**
 * Placeholder rows the size of real ones while the first page loads, hidden from screen
 * readers (the list's `aria-busy` and a status line say it loads), so nothing jumps.
 */
export function SkeletonRows({ count = 5 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} class="blog-item skeleton-row" aria-hidden="true">
          <div class="blog-main">
            <span class="skeleton skeleton-title" />
            <span class="skeleton skeleton-slug" />
          </div>
          <div class="blog-meta">
            <span class="skeleton skeleton-badge" />
          </div>
        </li>
      ))}
    </>
  );
}

import type { TargetedMouseEvent } from "preact";
import type { AdminBlog } from "../../api.js";
import { TimeAgo } from "../../components/status.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { BLOG_SEARCH_ID } from "./blogs-toolbar.js";
import { isScheduled, scheduleText } from "./schedule.js";

/**
 * The rows of the blog list: title, slug, tags; state and the last change. Each tag is a link to
 * the list searched for it (`tagHref`): the admin API has no tag filter (admin.yaml,
 * listAdminBlogs), so it is the search `q`, which finds the tag's words in titles and slugs too.
 * After the click the focus goes to the search box, which now holds the tag, not to `<body>`
 * with the row that is gone.
 */
export function BlogRows({
  ws,
  blogs,
  tagHref,
}: {
  ws: string;
  blogs: AdminBlog[];
  tagHref: (tag: string) => string;
}) {
  const now = Date.now();
  const onTag = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    onLinkClick(event);
    if (event.defaultPrevented) document.getElementById(BLOG_SEARCH_ID)?.focus();
  };
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
                  <a class="tag" key={t} href={tagHref(t)} onClick={onTag}>
                    <span class="visually-hidden">Search for tag </span>
                    {t}
                  </a>
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

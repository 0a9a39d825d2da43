import type { BlogStatus } from "../../api.js";
import { hrefOf, onLinkClick } from "../../router.js";

interface EmptyProps {
  ws: string;
  status: BlogStatus | null;
  q: string;
  onClearSearch: () => void;
  onShowAll: () => void;
}

/** What an empty list says, and the next step from it. */
export function BlogsEmpty({ ws, status, q, onClearSearch, onShowAll }: EmptyProps) {
  const newBlog = hrefOf({ name: "blog", ws, blogId: null });
  if (q !== "") {
    return (
      <div class="empty">
        <p>No blogs match “{q}”.</p>
        <p>
          <button type="button" class="button" onClick={onClearSearch}>
            Clear search
          </button>
        </p>
      </div>
    );
  }
  if (status === null) {
    return (
      <div class="empty blogs-first">
        <h2>No blogs yet</h2>
        <p>
          Write a draft, then release it: released blogs are what your apps read through the
          consumer API; drafts stay here.
        </p>
        <p class="empty-actions">
          <a class="button primary" href={newBlog} onClick={onLinkClick}>
            Write your first blog
          </a>
          <a href="/docs">Consumer API docs</a>
        </p>
      </div>
    );
  }
  return (
    <div class="empty">
      <p>
        {status === "draft" ? "No drafts." : "Nothing released yet: consumers see an empty list."}
      </p>
      <p class="empty-actions">
        {status === "draft" ? (
          <a class="button" href={newBlog} onClick={onLinkClick}>
            Write a blog
          </a>
        ) : (
          <button type="button" class="button" onClick={onShowAll}>
            Show all
          </button>
        )}
      </p>
    </div>
  );
}

import type { AdminBlog } from "../api.js";
import { TimeAgo } from "../components/status.js";

/** The editor's title and a sentence on what the blog's state means for consumers. */
export function EditorHeader({ blog }: { blog: AdminBlog | null }) {
  const released = blog?.status === "released";
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1}>{blog ? "Edit blog" : "New blog"}</h1>
        <p class="lead">
          {blog === null && "A new blog is a draft until you release it."}
          {blog && !released && (
            <>
              Consumers do not see it. Last saved <TimeAgo iso={blog.updatedAt} now={Date.now()} />.
            </>
          )}
          {released && blog.releasedAt && (
            <>
              Consumers see it since <TimeAgo iso={blog.releasedAt} now={Date.now()} />; saved
              changes reach them at once.
            </>
          )}
        </p>
      </div>
    </div>
  );
}

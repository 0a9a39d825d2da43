import type { AdminBlog } from "../api.js";
import { TimeAgo } from "../components/status.js";

export type Action = "save" | "release" | "unrelease";

interface EditorHeaderProps {
  /** null while the blog is new. */
  blog: AdminBlog | null;
  busy: Action | null;
  dirty: boolean;
  onRemove: () => void;
}

/** The editor's title, the blog's state, and its actions (submit buttons of the editor form). */
export function EditorHeader({ blog, busy, dirty, onRemove }: EditorHeaderProps) {
  const released = blog?.status === "released";
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1}>{blog ? "Edit blog" : "New blog"}</h1>
        <p class="lead">
          {blog === null && "A new blog is a draft until you release it."}
          {blog && !released && (
            <>
              <span class="badge draft">Draft</span> Consumers do not see it. Last saved{" "}
              <TimeAgo iso={blog.updatedAt} now={Date.now()} />.
            </>
          )}
          {blog?.releasedAt && (
            <>
              <span class="badge released">Released</span> Consumers see it since{" "}
              <TimeAgo iso={blog.releasedAt} now={Date.now()} />; saved changes reach them at once.
            </>
          )}
        </p>
      </div>
      {/* Save comes first in the DOM: it is the form's default button (Enter in a field). */}
      <div class="action-buttons">
        <button type="submit" name="action" value="save" class="button primary">
          {busy === "save" ? "Saving…" : blog ? "Save" : "Save draft"}
        </button>
        {released ? (
          <button type="submit" name="action" value="unrelease" class="button">
            {busy === "unrelease" ? "Unreleasing…" : "Unrelease"}
          </button>
        ) : (
          <button type="submit" name="action" value="release" class="button">
            {busy === "release" ? "Releasing…" : dirty ? "Save and release" : "Release"}
          </button>
        )}
        {blog && (
          <button type="button" class="button danger-outline" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
    </div>
  );
}

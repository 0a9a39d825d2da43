import type { ComponentChildren } from "preact";
import type { AdminBlog, ApiError } from "../../api.js";
import { ErrorMessage, Loading, TimeAgo } from "../../components/status.js";
import { PreviewOnSite } from "./preview-on-site.js";
import { isScheduled, scheduleText } from "./schedule.js";

/** The editor while its blog loads, or why it did not: gone (404), or a failure to retry. */
export function EditorLoading(props: {
  back: ComponentChildren;
  error: ApiError | null;
  onRetry: () => void;
}) {
  const { error } = props;
  return (
    <>
      {props.back}
      <h1 tabIndex={-1}>{error?.status === 404 ? "Blog not found" : "Edit blog"}</h1>
      {error === null && <Loading label="Loading the blog…" />}
      {error?.status === 404 && <p>It was removed, or it never existed in this workspace.</p>}
      {error && error.status !== 404 && (
        <ErrorMessage message={error.message} onRetry={props.onRetry} />
      )}
    </>
  );
}

/**
 * The editor's title, a sentence on what the blog's state means for consumers, and (once the
 * blog exists) its History, out of the action bar that must fit a phone.
 */
export function EditorHeader({
  blog,
  onHistory,
  onSchedule,
  preview,
}: {
  blog: AdminBlog | null;
  onHistory: () => void;
  onSchedule: () => void;
  /** Where "Preview on site" can go: the workspace has a preview URL (null: no button). */
  preview: { workspaceId: string; dirty: boolean } | null;
}) {
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
              Consumers see it since <TimeAgo iso={blog.releasedAt} now={Date.now()} />.{" "}
              {blog.pendingChanges
                ? "Your saved changes are pending: consumers see them once you publish them."
                : "Saved changes stay pending until you publish them."}
            </>
          )}
          {blog && isScheduled(blog) && <> {scheduleText(blog)}</>}
        </p>
      </div>
      {blog && (
        <div class="editor-header-actions">
          <button type="button" class="button" onClick={onSchedule}>
            Schedule
          </button>
          <button type="button" class="button" onClick={onHistory}>
            History
          </button>
          {preview && (
            <PreviewOnSite
              workspaceId={preview.workspaceId}
              blogId={blog.id}
              dirty={preview.dirty}
            />
          )}
        </div>
      )}
    </div>
  );
}

import type { AdminBlog } from "../../api.js";
import { ErrorMessage } from "../../components/status.js";
import { isScheduled } from "./schedule.js";

export type Action = "save" | "release" | "unrelease" | "publish";

interface EditorBarProps {
  /** null while the blog is new. */
  blog: AdminBlog | null;
  /** The action running, if any. */
  busy: Action | null;
  dirty: boolean;
  /** What the latest action did ("Saved."), until the next change. */
  notice: string;
  /** Why the latest action failed, and how to run it again when that could help. */
  error: { message: string; retry: (() => void) | null } | null;
  onRelease: () => void;
  onUnrelease: () => void;
  onRemove: () => void;
  onPublish: () => void;
  onDiscard: () => void;
}

const BUSY: Record<Action, string> = {
  save: "Saving…",
  release: "Saving before release…",
  unrelease: "Unreleasing…",
  publish: "Publishing…",
};

/** The label of Save: on a released blog a save keeps the changes pending, and says so. */
export function saveLabel(blog: AdminBlog | null, busy: boolean): string {
  if (busy) return "Saving…";
  if (blog?.status === "released") return "Save changes";
  return blog ? "Save" : "Save draft";
}

/**
 * The editor's action bar, sticky at the top of the page while the body scrolls: the blog's
 * status and whether it is saved (a polite live region), then its actions, in the DOM in the
 * order they are seen (left to right, Save last and rightmost as the primary one). Save is the
 * form's only submit button, so Enter in a field saves; Release, Unrelease and Remove ask first.
 */
export function EditorBar(props: EditorBarProps) {
  const { blog, busy, dirty, notice, error } = props;
  const released = blog?.status === "released";
  const pending = released && blog.pendingChanges;
  const state = busy
    ? BUSY[busy]
    : notice !== "" && !dirty
      ? notice
      : dirty
        ? "Unsaved changes."
        : pending
          ? "Saved, not live until you publish."
          : blog
            ? "No unsaved changes."
            : "Not saved yet.";
  return (
    <div class="editor-bar">
      <div class="editor-bar-inner">
        <div class="editor-state">
          <span class={released ? "badge released" : "badge draft"}>
            {released ? "Released" : "Draft"}
          </span>
          {pending && <span class="badge pending">Changes pending</span>}
          {blog && isScheduled(blog) && <span class="badge pending">Scheduled</span>}
          <p role="status" class={dirty && !busy ? "state-line unsaved" : "state-line"}>
            {state}
          </p>
        </div>
        <div class="editor-actions">
          {blog && (
            <button type="button" class="button danger-outline" onClick={props.onRemove}>
              Remove
            </button>
          )}
          {released && (
            <button type="button" class="button" onClick={props.onUnrelease}>
              {busy === "unrelease" ? "Unreleasing…" : "Unrelease"}
            </button>
          )}
          {pending && (
            <button type="button" class="button danger-outline" onClick={props.onDiscard}>
              Discard changes
            </button>
          )}
          {released && (pending || dirty) && (
            <button type="button" class="button" onClick={props.onPublish}>
              {busy === "publish" ? "Publishing…" : dirty ? "Save and publish" : "Publish changes"}
            </button>
          )}
          {!released && (
            <button type="button" class="button" onClick={props.onRelease}>
              {busy === "release" ? "Saving…" : dirty || !blog ? "Save and release" : "Release"}
            </button>
          )}
          <button type="submit" class="button primary" aria-keyshortcuts="Control+S Meta+S">
            {saveLabel(blog, busy === "save")}
          </button>
        </div>
      </div>
      {error &&
        (error.retry ? (
          <ErrorMessage message={error.message} onRetry={error.retry} />
        ) : (
          <ErrorMessage message={error.message} />
        ))}
    </div>
  );
}

import type { AdminBlog } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { exactTime, timeAgo } from "../../time.js";

/** Where consumers read a blog (openapi.yaml: `GET /blogs/{blogId}` and `/blogs/by-slug/{slug}`). */
export const consumerUrls = (blog: Pick<AdminBlog, "id" | "slug">, origin = location.origin) => ({
  byId: `${origin}/api/consumer/blogs/${encodeURIComponent(blog.id)}`,
  bySlug: `${origin}/api/consumer/blogs/by-slug/${encodeURIComponent(blog.slug)}`,
});

/** The question the editor is asking: about the blog as it was when asked, or about leaving. */
export type EditorQuestion =
  | {
      kind: "release" | "unrelease" | "remove" | "discard";
      blog: AdminBlog;
      /** Release: changes were saved (as a draft) just before asking. */
      savedFirst?: boolean;
    }
  /** Leaving the editor with unsaved changes: `proceed` leaves. */
  | { kind: "leave"; proceed: () => void };

interface EditorDialogsProps {
  question: EditorQuestion | null;
  /** Unsaved changes (Unrelease saves them to the draft). */
  dirty: boolean;
  onConfirm: (question: EditorQuestion) => Promise<void>;
  onClose: () => void;
}

/** The dialog of the editor's current question, if any. */
export function EditorDialogs({ question, dirty, onConfirm, onClose }: EditorDialogsProps) {
  if (question === null) return null;
  const confirm = () => onConfirm(question);
  if (question.kind === "leave") return <LeaveDialog onLeave={confirm} onClose={onClose} />;
  const { kind, blog } = question;
  if (kind === "release") {
    return (
      <ReleaseDialog
        blog={blog}
        savedFirst={question.savedFirst === true}
        onConfirm={confirm}
        onClose={onClose}
      />
    );
  }
  if (kind === "unrelease") {
    return <UnreleaseDialog blog={blog} dirty={dirty} onConfirm={confirm} onClose={onClose} />;
  }
  if (kind === "discard") {
    return <DiscardDialog dirty={dirty} onConfirm={confirm} onClose={onClose} />;
  }
  return <RemoveDialog blog={blog} onConfirm={confirm} onClose={onClose} />;
}

interface ReleaseDialogProps {
  /** The blog as just saved: the slug and ID consumers will find it by. */
  blog: AdminBlog;
  savedFirst: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/**
 * "Release?" — before a draft reaches consumers, the addresses it will have. Asked on every
 * release: the admin API keeps no trace of an earlier one (`releasedAt` is cleared by
 * unreleasing), and each release reaches consumers and webhooks at once all the same.
 */
function ReleaseDialog({ blog, savedFirst, onConfirm, onClose }: ReleaseDialogProps) {
  const { busy, error, submit } = useSubmit();
  const urls = consumerUrls(blog);
  return (
    <Modal
      title={`Release “${blog.title}”?`}
      onClose={onClose}
      description={
        <p>
          Consumers with an API key for this workspace can read it at once, and webhooks announce
          it.{savedFirst && " Your changes were saved to the draft first."}
        </p>
      }
    >
      <dl class="release-facts">
        <dt>Slug</dt>
        <dd>
          <code>{blog.slug}</code>
        </dd>
        <dt>Consumer URL</dt>
        <dd>
          <code>{urls.byId}</code>
        </dd>
        <dt>By slug</dt>
        <dd>
          <code>{urls.bySlug}</code>
        </dd>
      </dl>
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose} autofocus>
          Cancel
        </button>
        <button
          type="button"
          class="button primary"
          onClick={submit(onConfirm)}
          aria-disabled={busy}
        >
          {busy ? "Releasing…" : "Release"}
        </button>
      </div>
    </Modal>
  );
}

/** "Unrelease?" — consumers lose the blog at once; the text stays, as a draft. */
function UnreleaseDialog(props: {
  blog: AdminBlog;
  dirty: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Unrelease “${props.blog.title}”?`}
      confirmLabel="Unrelease"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <p>
        Consumers stop seeing it at once: lists and links to <code>{props.blog.slug}</code> answer
        404 until you release it again. It stays here as a draft
        {props.blog.pendingChanges ? ", made of your pending changes" : ""}
        {props.dirty ? ", with your unsaved changes saved to it" : ""}.
      </p>
    </ConfirmDialog>
  );
}

/** "Remove?" — gone from the dashboard and, if released, from consumers; no undo. */
function RemoveDialog(props: {
  blog: AdminBlog;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Remove “${props.blog.title}”?`}
      confirmLabel="Remove blog"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <p>
        It disappears from the dashboard and, if released, from the consumer API at once. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** "Discard pending changes?" — the blog returns to the version consumers read; no undo. */
function DiscardDialog(props: {
  dirty: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title="Discard pending changes?"
      confirmLabel="Discard changes"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <p>
        The blog goes back to the version consumers read
        {props.dirty ? ", and your unsaved changes are dropped too" : ""}. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** "Leave without saving?" — asked before the editor is left with unsaved changes. */
function LeaveDialog(props: { onLeave: () => Promise<void>; onClose: () => void }) {
  return (
    <ConfirmDialog
      title="Leave without saving?"
      confirmLabel="Leave without saving"
      cancelLabel="Stay"
      onConfirm={props.onLeave}
      onClose={props.onClose}
    >
      <p>Your changes to this blog are not saved. Stay to save them, or leave and lose them.</p>
    </ConfirmDialog>
  );
}

/**
 * "Restore unsaved changes?" — text of this blog typed in this browser and never saved (a crash,
 * a reload, an ended session) is offered back on opening it. Only its buttons answer: Escape
 * would leave the text neither restored nor discarded.
 */
export function RestoreDialog(props: {
  keptAt: string;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <Modal
      title="Restore unsaved changes?"
      onClose={() => {}}
      dismissible={false}
      description={
        <p>
          Changes to this blog were typed in this browser{" "}
          <time dateTime={props.keptAt} title={exactTime(props.keptAt)}>
            {timeAgo(props.keptAt)}
          </time>{" "}
          and never saved.
        </p>
      }
    >
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onDiscard}>
          Discard them
        </button>
        <button type="button" class="button primary" onClick={props.onRestore} autofocus>
          Restore
        </button>
      </div>
    </Modal>
  );
}

import { useRef, useState } from "preact/hooks";
import {
  type AdminBlog,
  type BlogRevisionSummary,
  type BlogSchedule,
  messageOf,
  type Workspace,
} from "../../api.js";
import { useFlash } from "../../components/flash.js";
import { focusFirstInvalid, isValid } from "../../components/form-check.js";
import { useSubmit, useTitle } from "../../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../../router.js";
import { authorNamesOf } from "./author-order.js";
import { useWorkspaceAuthors } from "./author-picker.js";
import {
  type BlogErrors,
  checkDraft,
  fieldErrorOf,
  isRetryable,
  withoutChanged,
  withProblem,
} from "./blog-checks.js";
import { draftOf, inputOf, patchOf } from "./blog-draft.js";
import {
  createBlog,
  moveBlog,
  removeBlog,
  restoreRevision,
  scheduleBlog,
  settleChanges,
  updateBlog,
} from "./blog-requests.js";
import { useSaveShortcut } from "./save-shortcut.js";
import "./editor.css";
import { zonedTime } from "../../time.js";
import { EditorHeader, EditorLoading } from "./blog-editor-header.js";
import { BlogFields } from "./blog-form.js";
import { conflictOf } from "./conflict.js";
import { ConflictDialog } from "./conflict-dialog.js";
import { useEditedBlog } from "./edited-blog.js";
import { type Action, EditorBar } from "./editor-actions.js";
import { useConflict } from "./editor-conflict.js";
import { EditorDialogs, type EditorQuestion, RestoreDialog } from "./editor-dialogs.js";
import { HistoryDialog } from "./history-dialog.js";
import type { LocalCopy } from "./local-copy.js";
import { scheduleText } from "./schedule.js";
import { ScheduleDialog } from "./schedule-dialog.js";

interface EditorProps {
  workspace: Workspace;
  /** null: a new blog, created on its first save. */
  blogId: string | null;
  /** The signed-in user: a new blog's author until changed, and whose kept text is offered. */
  user: { id: string; name: string };
}

export function BlogEditor({ workspace, blogId, user }: EditorProps) {
  const workspaceId = workspace.id;
  const edited = useEditedBlog({
    workspaceId,
    blogId,
    userId: user.id,
    defaultAuthor: user.name,
    onLeave: (proceed) => setDialog({ kind: "leave", proceed }),
  });
  const { blog, setBlog, draft, setDraft, latestDraft, dirty } = edited;
  const [errors, setErrors] = useState<BlogErrors>({});
  /** The action that failed in a way worth retrying unchanged; null otherwise. */
  const [failed, setFailed] = useState<Action | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** The action of the latest submit: while `busy`, the one running. */
  const [action, setAction] = useState<Action>("save");
  const actionRef = useRef<Action>("save");
  const { busy, error, submit } = useSubmit((err) => {
    // A refusal about one field is shown on that field, which takes the focus.
    const onField = fieldErrorOf(err);
    setFailed(onField === null && isRetryable(err) ? actionRef.current : null);
    if (onField === null) return messageOf(err);
    setErrors((e) => withProblem(e, onField.field, onField.message));
    focusFirstInvalid(formRef.current);
    return "Not saved: see the field marked below.";
  });
  const [notice, setNotice] = useState("");
  const [dialog, setDialog] = useState<EditorQuestion | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const flash = useFlash();
  const authors = useWorkspaceAuthors(workspaceId);
  useTitle(blog ? `${blog.title} · Blogs` : "New blog");

  /** Saves pending changes onto `base` (creating the blog if null); what was sent, if anything. */
  const saveOnto = async (base: AdminBlog | null): Promise<{ saved: AdminBlog; sent: boolean }> => {
    const sent = latestDraft.current;
    let saved: AdminBlog;
    if (base === null) {
      const newBlogAddress = location.pathname + location.search;
      saved = await createBlog(workspaceId, inputOf(sent));
      setBlog(saved); // before the address changes, so the editor does not reload it
      // The new blog's address replaces the new-blog one, unless the writer left meanwhile:
      // then they stay where they went.
      if (location.pathname + location.search === newBlogAddress) {
        navigate(hrefOf({ name: "blog", ws: workspaceId, blogId: saved.id }), {
          replace: true,
          force: true,
        });
      }
    } else {
      const patch = patchOf(base, sent);
      if (Object.keys(patch).length === 0) return { saved: base, sent: false };
      saved = await updateBlog(workspaceId, base, patch);
    }
    setBlog(saved);
    setErrors({});
    // Keep what was typed while the request was in flight.
    if (latestDraft.current === sent) setDraft(draftOf(saved));
    return { saved, sent: true };
  };

  /** Someone else changed the blog since this page read it: the writer chooses what to keep. */
  const conflicts = useConflict({
    latestDraft,
    setBlog,
    setDraft,
    reset: () => {
      setDialog(null);
      setHistoryOpen(false);
      setScheduleOpen(false);
      setErrors({});
    },
    setNotice,
    saveOnto: (theirs) => {
      if (checked()) runSave(theirs, "save");
    },
  });
  const { onVersionOf } = conflicts;

  /** The form's own check before anything is sent; false (and the first problem focused) if refused. */
  const checked = (): boolean => {
    const problems = checkDraft(latestDraft.current);
    setErrors(problems);
    if (isValid(problems)) return true;
    setNotice("");
    focusFirstInvalid(formRef.current);
    return false;
  };

  /**
   * Saves the form onto `base` as the chosen action's first step (Save and release: then asks;
   * Save and publish: then publishes). On a released blog a save keeps the changes pending.
   */
  const runSave = (base: AdminBlog | null, chosen: Action) => {
    setAction(chosen);
    actionRef.current = chosen;
    setNotice("");
    submit(() =>
      onVersionOf(base, "save", async () => {
        const { saved, sent } = await saveOnto(base);
        if (chosen === "release") setDialog({ kind: "release", blog: saved, savedFirst: sent });
        else if (chosen === "publish") await publish(saved);
        else if (sent && saved.pendingChanges) {
          setNotice("Saved as pending changes: consumers see them once you publish.");
        } else setNotice("Saved.");
      }),
    )();
  };

  /** Save, Release or Unrelease, as the bar's buttons, Ctrl/⌘+S and Retry ask. */
  const perform = (chosen: Action) => {
    // Nothing to act on while the blog loads (Ctrl+S is listened to from the start).
    if (busy || dialog !== null || conflicts.open !== null) return;
    if (blogId !== null && blog?.id !== blogId) return;
    setFailed(null);
    if (chosen === "unrelease") {
      // Opened at once, in the click's own task: a key typed next lands in the dialog.
      if (blog && (!dirty || checked())) setDialog({ kind: "unrelease", blog });
      return;
    }
    if (!checked()) return;
    if (chosen === "release" && blog && !dirty) {
      setDialog({ kind: "release", blog });
      return;
    }
    runSave(blog, chosen);
  };
  useSaveShortcut(() => perform("save"));

  const release = (target: AdminBlog) =>
    onVersionOf(target, "release", async () => {
      setBlog(await moveBlog(workspaceId, target, "release"));
      setDialog(null);
      setNotice("Released: consumers can read it now.");
    });
  // Unreleased first, then saved: pending changes never reach consumers on the way out. The
  // save runs as a Save of its own, so a failure shows in the bar, with Retry.
  const unrelease = (target: AdminBlog) =>
    onVersionOf(target, "unrelease", async () => {
      const moved = await moveBlog(workspaceId, target, "unrelease");
      afterUnrelease(moved);
    });
  const afterUnrelease = (moved: AdminBlog) => {
    setBlog(moved);
    setDialog(null);
    const notice = "Back to draft: consumers no longer see it.";
    setNotice(notice);
    if (Object.keys(patchOf(moved, latestDraft.current)).length === 0) return;
    setAction("save");
    actionRef.current = "save";
    submit(() =>
      onVersionOf(moved, "save", async () => {
        await saveOnto(moved);
        setNotice(notice);
      }),
    )();
  };
  const publish = (target: AdminBlog) =>
    onVersionOf(target, "publish", async () => {
      setBlog(await settleChanges(workspaceId, target, "publish"));
      setNotice("Published: consumers see the changes now.");
    });
  const discard = (target: AdminBlog) =>
    onVersionOf(target, "discard", async () => {
      const back = await settleChanges(workspaceId, target, "discard");
      setBlog(back);
      setDraft(draftOf(back));
      setErrors({});
      setDialog(null);
      setNotice("Changes discarded: this is the released version again.");
    });
  /** Saves a revision's content as a new version (pending changes on a released blog). */
  const revert = (target: AdminBlog, revision: BlogRevisionSummary) =>
    onVersionOf(target, "revert", async () => {
      const restored = await restoreRevision(workspaceId, target, revision.id);
      setBlog(restored);
      setDraft(draftOf(restored));
      setErrors({});
      setHistoryOpen(false);
      const when = zonedTime(revision.at);
      setNotice(
        restored.pendingChanges
          ? `Restored the version of ${when} as pending changes: consumers see it once you publish.`
          : `Restored the version of ${when}.`,
      );
    });
  /** Sets, moves or cancels the blog's schedule. */
  const reschedule = (target: AdminBlog, body: BlogSchedule) =>
    onVersionOf(target, "schedule", async () => {
      const scheduled = await scheduleBlog(workspaceId, target, body);
      setBlog(scheduled);
      setScheduleOpen(false);
      setNotice(scheduleText(scheduled) || "Nothing is scheduled now.");
    });
  const remove = (target: AdminBlog) =>
    onVersionOf(target, "remove", async () => {
      await removeBlog(workspaceId, target);
      edited.discardLocalCopy(); // nothing of a removed blog is offered back
      flash(`Blog “${target.title}” removed.`);
      navigate(hrefOf({ name: "blogs", ws: workspaceId, status: null }), { force: true });
    });

  /**
   * Brings back text kept in this browser: into the form when it was typed on the version shown
   * (or for a new blog); onto a newer version, through the conflict dialog.
   */
  const restore = ({ draft: kept, base }: LocalCopy) => {
    edited.answerOffer(true);
    if (blog !== null && base !== null && base.version !== blog.version) {
      // The kept copy stays as it was (made on `base`) until the writer chooses; when it says
      // nothing theirs does not, it has nothing left to offer.
      if (conflictOf(base, kept, blog).differing.length === 0) edited.discardLocalCopy();
      else restoring.current = true;
      conflicts.meet(base, blog, "restore", kept);
    } else setDraft(kept);
  };
  /** The open conflict is a restored copy's: taking theirs forgets the copy too. */
  const restoring = useRef(false);

  const onSubmit = (event: Event) => {
    event.preventDefault();
    perform("save"); // Save is the form's only submit button: Enter in a field saves too
  };

  const back = (
    <a
      class="back-link"
      href={hrefOf({ name: "blogs", ws: workspaceId, status: null })}
      onClick={onLinkClick}
    >
      ← All blogs
    </a>
  );
  if (blogId !== null && blog?.id !== blogId) {
    return <EditorLoading back={back} error={edited.loadError} onRetry={edited.reload} />;
  }

  return (
    <form class="editor" onSubmit={onSubmit} aria-busy={busy} noValidate ref={formRef}>
      {back}
      <EditorHeader
        blog={blog}
        onHistory={() => !busy && setHistoryOpen(true)}
        onSchedule={() => !busy && setScheduleOpen(true)}
        preview={workspace.previewUrl === null ? null : { workspaceId, dirty }}
      />
      <EditorBar
        blog={blog}
        busy={busy ? action : null}
        dirty={dirty}
        notice={notice}
        error={
          error === null
            ? null
            : { message: error, retry: failed === null ? null : () => perform(failed) }
        }
        onRelease={() => perform("release")}
        onUnrelease={() => perform("unrelease")}
        onRemove={() => blog && !busy && setDialog({ kind: "remove", blog })}
        onPublish={() => perform("publish")}
        onDiscard={() => blog && !busy && setDialog({ kind: "discard", blog })}
      />
      <BlogFields
        workspaceId={workspaceId}
        draft={draft}
        onChange={(d) => {
          setDraft(d);
          setNotice("");
          setErrors((e) => withoutChanged(e, draft, d));
        }}
        saved={blog}
        errors={errors}
        onError={(field, problem) => setErrors((e) => withProblem(e, field, problem))}
        authors={authors}
      />
      <EditorDialogs
        question={dialog}
        dirty={dirty}
        onConfirm={async (q) => {
          if (q.kind === "leave") {
            setDialog(null);
            edited.discardLocalCopy();
            q.proceed();
          } else if (q.kind === "release") await release(q.blog);
          else if (q.kind === "unrelease") await unrelease(q.blog);
          else if (q.kind === "discard") await discard(q.blog);
          else await remove(q.blog);
        }}
        onClose={() => setDialog(null)}
      />
      {scheduleOpen && blog && (
        <ScheduleDialog
          blog={blog}
          dirty={dirty}
          onSchedule={(body) => reschedule(blog, body)}
          onClose={() => setScheduleOpen(false)}
        />
      )}
      {historyOpen && blog && (
        <HistoryDialog
          workspaceId={workspaceId}
          blog={blog}
          dirty={dirty}
          authorNames={authorNamesOf(authors.data, blog.authors)}
          onRestore={(revision) => revert(blog, revision)}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      {edited.offer && (
        <RestoreDialog
          keptAt={edited.offer.keptAt}
          onRestore={() => edited.offer && restore(edited.offer)}
          onDiscard={() => edited.answerOffer(false)}
        />
      )}
      {conflicts.open && (
        <ConflictDialog
          conflict={conflicts.open.conflict}
          refused={conflicts.open.refused}
          onKeepMine={() => {
            if (conflicts.open === null) return;
            restoring.current = false;
            conflicts.keepMine(conflicts.open.conflict);
          }}
          onTakeTheirs={() => {
            if (conflicts.open === null) return;
            conflicts.takeTheirs(conflicts.open.conflict);
            if (restoring.current) edited.discardLocalCopy();
            restoring.current = false;
          }}
        />
      )}
    </form>
  );
}

import { useState } from "preact/hooks";
import type { AdminBlog } from "../../api.js";
import { type Draft, draftOf } from "./blog-draft.js";
import { staleBlogOf } from "./blog-requests.js";
import { type Conflict, conflictOf } from "./conflict.js";
import type { RefusedAction } from "./conflict-dialog.js";

/** What the editor lends the conflict handling: its form and its ways of telling. */
interface EditorParts {
  latestDraft: { readonly current: Draft };
  setBlog: (blog: AdminBlog) => void;
  setDraft: (draft: Draft) => void;
  /** Clears field errors and any open question before theirs is shown. */
  reset: () => void;
  setNotice: (notice: string) => void;
  /** Saves the form onto `base`, as a Save (for "Keep mine"). */
  saveOnto: (base: AdminBlog) => void;
}

const DONE = {
  release: "released",
  unrelease: "unreleased",
  remove: "removed",
  publish: "published",
  discard: "discarded",
  revert: "restored",
  schedule: "scheduled",
} as const;

export interface OpenConflict {
  conflict: Conflict;
  refused: RefusedAction;
}

/**
 * The editor's side of admin.yaml's "Conditional writes": a write refused because the blog
 * changed since this page read it (412) is met here, never shown as an error. When the form
 * holds nothing that differs from the blog as it is now, that version is shown and the writer
 * told the action was not done; otherwise the conflict dialog asks which to keep.
 */
export function useConflict(parts: EditorParts) {
  const [open, setOpen] = useState<OpenConflict | null>(null);

  /** `typed` was made on `base`; the blog is `theirs` now. */
  const meet = (base: AdminBlog, theirs: AdminBlog, refused: RefusedAction, typed: Draft) => {
    parts.reset();
    const found = conflictOf(base, typed, theirs);
    if (found.differing.length > 0) {
      setOpen({ conflict: found, refused });
      return;
    }
    parts.setBlog(theirs);
    parts.setDraft(draftOf(theirs));
    parts.setNotice(
      refused === "save" || refused === "restore"
        ? "Someone else had saved the same changes: nothing more to save."
        : `Not ${DONE[refused]}: someone else changed this blog after you opened it. Their version is shown now; check it and try again.`,
    );
  };

  return {
    open,
    meet,
    /** Runs `write`, made on `base`; a refusal because the blog changed meanwhile is met, not thrown. */
    async onVersionOf(base: AdminBlog | null, refused: RefusedAction, write: () => Promise<void>) {
      try {
        await write();
      } catch (err) {
        const theirs = staleBlogOf(err);
        if (theirs === null || base === null) throw err;
        meet(base, theirs, refused, parts.latestDraft.current);
      }
    },
    /** "Keep mine": theirs becomes the base, the form holds mine, and it is saved as a Save. */
    keepMine({ theirs, mine }: Conflict) {
      setOpen(null);
      parts.setBlog(theirs);
      parts.setDraft(mine);
      parts.saveOnto(theirs);
    },
    takeTheirs({ theirs }: Conflict) {
      setOpen(null);
      parts.reset();
      parts.setBlog(theirs);
      parts.setDraft(draftOf(theirs));
      parts.setNotice("Their version is shown now; yours was not saved.");
    },
  };
}

import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, ApiError } from "../../api.js";
import { type LeaveGuard, setLeaveGuard } from "../../router.js";
import { type LoadFailure, useLoad } from "../../use-load.js";
import { type Draft, draftOf, EMPTY_DRAFT, isBlank, patchOf } from "./blog-draft.js";
import { loadBlog } from "./blog-requests.js";
import {
  forgetLocalCopy,
  type LocalCopy,
  localCopyKey,
  readLocalCopy,
  useLocalCopy,
} from "./local-copy.js";

/** The blog an editor works on, and the form's values for it. */
export interface EditedBlog {
  /** The blog as stored: null for a new one not saved yet (and while the one named loads). */
  blog: AdminBlog | null;
  setBlog: (blog: AdminBlog | null) => void;
  /** What the form holds. */
  draft: Draft;
  setDraft: (draft: Draft) => void;
  /** The draft as typed last, for a save still on its way: what it sent may be older. */
  latestDraft: { readonly current: Draft };
  /** The form differs from the stored blog (a new one: from a blank form). */
  dirty: boolean;
  /** Why the blog the address names could not be loaded (404: it is gone), until asked again. */
  loadError: ApiError | null;
  /** Asks for it again ("Try again"). */
  reload: () => Promise<void>;
  /**
   * Unsaved text of this blog this browser kept (local-copy.ts) and found on opening it, until
   * the writer answers: `answerOffer` (nothing is written or forgotten meanwhile).
   */
  offer: LocalCopy | null;
  answerOffer: (restore: boolean) => void;
  /** Forgets the kept text for good: the writer leaves without saving. */
  discardLocalCopy: () => void;
}

interface EditedBlogOptions {
  workspaceId: string;
  /** null: a new blog. */
  blogId: string | null;
  /** The signed-in user: whose kept text is offered. */
  userId: string;
  /** A new blog's author, until changed. */
  defaultAuthor: string;
  /** Asked before a move within the dashboard leaves unsaved changes. */
  onLeave: LeaveGuard;
}

const apiErrorOf = ({ cause, message }: LoadFailure): ApiError =>
  cause instanceof ApiError ? cause : new ApiError(message, 0);

/**
 * The blog `blogId` names (null: a new one, by `defaultAuthor` until changed), loaded unless it
 * is the one here already (just created, or saved), and its draft. Leaving the page with unsaved
 * changes asks first: the browser's question on a reload or a closed tab, `onLeave` on a move
 * within the dashboard (a link, the header, Back or Forward). Unsaved text is kept in this
 * browser as it is typed, and offered back when the blog is opened again.
 */
export function useEditedBlog(options: EditedBlogOptions): EditedBlog {
  const { workspaceId, blogId, userId, defaultAuthor, onLeave } = options;
  const fresh: Draft = { ...EMPTY_DRAFT, authorName: defaultAuthor };
  const [blog, setBlog] = useState<AdminBlog | null>(null);
  const [draft, setDraftState] = useState<Draft>(fresh);
  const latestDraft = useRef(draft);
  const setDraft = (d: Draft) => {
    latestDraft.current = d;
    setDraftState(d);
  };

  const unloaded = blogId !== null && blog?.id !== blogId ? blogId : null;
  const loaded = useLoad(
    unloaded === null ? null : () => loadBlog(workspaceId, unloaded),
    [unloaded],
    {
      clearError: "request",
      onAnswer: (answer) => {
        setBlog(answer);
        setDraft(draftOf(answer));
        lookForCopy(answer);
      },
    },
  );
  useEffect(() => {
    if (blogId !== null) return;
    if (blog !== null) {
      setBlog(null);
      setDraft(fresh);
    }
    lookForCopy(null);
  }, [blogId]);

  const differs = (stored: AdminBlog | null, d: Draft) =>
    stored ? Object.keys(patchOf(stored, d)).length > 0 : !isBlank(d, fresh);
  const dirty = differs(blog, draft);

  const [offer, setOffer] = useState<LocalCopy | null>(null);
  const place = { userId, workspaceId, blogId };
  /** On opening `stored` (null: a new blog): kept text that differs from it is offered back. */
  const lookForCopy = (stored: AdminBlog | null) => {
    const key = localCopyKey(userId, workspaceId, stored?.id ?? null);
    const copy = readLocalCopy(key);
    if (copy !== null && differs(stored, copy.draft)) setOffer(copy);
    else forgetLocalCopy(key);
  };
  // Nothing is written or forgotten while the blog loads or its kept text awaits an answer.
  const local = useLocalCopy(place, blog, draft, dirty, offer !== null || unloaded !== null);
  const leaving = useRef(onLeave);
  leaving.current = onLeave;
  // In the commit of the render that made the form dirty, not a frame later: a Back pressed at
  // once after typing is asked about too.
  useLayoutEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener("beforeunload", warn);
    setLeaveGuard((proceed) => leaving.current(proceed));
    return () => {
      removeEventListener("beforeunload", warn);
      setLeaveGuard(null);
    };
  }, [dirty]);

  const loadError = loaded.error && apiErrorOf(loaded.error);
  return {
    blog,
    setBlog,
    draft,
    setDraft,
    latestDraft,
    dirty,
    loadError,
    reload: loaded.reload,
    offer,
    answerOffer: (restore) => {
      if (!restore && offer !== null) forgetLocalCopy(localCopyKey(userId, workspaceId, blogId));
      setOffer(null);
    },
    discardLocalCopy: local.discard,
  };
}

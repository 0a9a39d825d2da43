import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, ApiError } from "../../api.js";
import { type LeaveGuard, setLeaveGuard } from "../../router.js";
import { type LoadFailure, useLoad } from "../../use-load.js";
import { type Draft, draftOf, EMPTY_DRAFT, isBlank, patchOf } from "./blog-draft.js";
import { loadBlog } from "./blog-requests.js";

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
}

const apiErrorOf = ({ cause, message }: LoadFailure): ApiError =>
  cause instanceof ApiError ? cause : new ApiError(message, 0);

/**
 * The blog `blogId` names (null: a new one, by `defaultAuthor` until changed), loaded unless it
 * is the one here already (just created, or saved), and its draft. Leaving the page with unsaved
 * changes asks first: the browser's question on a reload or a closed tab, `onLeave` on a move
 * within the dashboard (a link, the header, Back or Forward).
 */
export function useEditedBlog(
  workspaceId: string,
  blogId: string | null,
  defaultAuthor: string,
  onLeave: LeaveGuard,
): EditedBlog {
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
      },
    },
  );
  useEffect(() => {
    if (blogId === null && blog !== null) {
      setBlog(null);
      setDraft(fresh);
    }
  }, [blogId]);

  const dirty = blog ? Object.keys(patchOf(blog, draft)).length > 0 : !isBlank(draft, fresh);
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
  return { blog, setBlog, draft, setDraft, latestDraft, dirty, loadError, reload: loaded.reload };
}

import { useEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, ApiError, api, call, messageOf, send, type Workspace } from "../api.js";
import { type Draft, draftOf, EMPTY_DRAFT, inputOf, isBlank, patchOf } from "../blog-draft.js";
import { ConfirmDialog } from "../components/confirm.js";
import { ErrorMessage, Loading } from "../components/status.js";
import { useSubmit, useTitle } from "../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../router.js";
import { type Action, EditorHeader } from "./blog-editor-header.js";
import { BlogFields } from "./blog-form.js";

interface EditorProps {
  workspace: Workspace;
  /** null: a new blog, created on its first save. */
  blogId: string | null;
  /** A new blog's author, until changed: the signed-in user. */
  defaultAuthor: string;
}

export function BlogEditor({ workspace, blogId, defaultAuthor }: EditorProps) {
  const fresh: Draft = { ...EMPTY_DRAFT, authorName: defaultAuthor };
  const [blog, setBlog] = useState<AdminBlog | null>(null);
  const [draft, setDraftState] = useState<Draft>(fresh);
  const latestDraft = useRef(draft);
  const setDraft = (d: Draft) => {
    latestDraft.current = d;
    setDraftState(d);
  };
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const { busy, error, submit } = useSubmit();
  /** The action of the latest submit: while `busy`, the one running. */
  const [action, setAction] = useState<Action>("save");
  const [notice, setNotice] = useState("");
  const [confirmRemove, setConfirmRemove] = useState(false);
  useTitle(blog ? `${blog.title} · Blogs` : "New blog");

  const workspaceId = workspace.id;
  const load = async (id: string) => {
    setLoadError(null);
    try {
      const loaded = await call(
        api.GET("/workspaces/{workspaceId}/blogs/{blogId}", {
          params: { path: { workspaceId, blogId: id } },
        }),
      );
      setBlog(loaded);
      setDraft(draftOf(loaded));
    } catch (err) {
      setLoadError(err instanceof ApiError ? err : new ApiError(messageOf(err), 0));
    }
  };
  useEffect(() => {
    if (blogId !== null && blog?.id !== blogId) void load(blogId);
    if (blogId === null && blog !== null) {
      setBlog(null);
      setDraft(fresh);
    }
  }, [blogId]);

  const dirty = blog ? Object.keys(patchOf(blog, draft)).length > 0 : !isBlank(draft, fresh);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [dirty]);

  /** Saves pending changes (creating the blog if new); returns the saved blog. */
  const save = async (): Promise<AdminBlog> => {
    const sent = latestDraft.current;
    let saved: AdminBlog;
    if (blog === null) {
      saved = await call(
        api.POST("/workspaces/{workspaceId}/blogs", {
          params: { path: { workspaceId } },
          body: inputOf(sent),
        }),
      );
      setBlog(saved); // before the address changes, so the editor does not reload it
      navigate(hrefOf({ name: "blog", ws: workspaceId, blogId: saved.id }), { replace: true });
    } else {
      const patch = patchOf(blog, sent);
      if (Object.keys(patch).length === 0) return blog;
      saved = await call(
        api.PATCH("/workspaces/{workspaceId}/blogs/{blogId}", {
          params: { path: { workspaceId, blogId: blog.id } },
          body: patch,
        }),
      );
    }
    setBlog(saved);
    // Keep what was typed while the request was in flight.
    if (latestDraft.current === sent) setDraft(draftOf(saved));
    return saved;
  };

  const transition = async (to: "release" | "unrelease"): Promise<AdminBlog> => {
    const saved = await save();
    const path = { params: { path: { workspaceId, blogId: saved.id } } };
    const moved = await call(
      to === "release"
        ? api.POST("/workspaces/{workspaceId}/blogs/{blogId}/release", path)
        : api.POST("/workspaces/{workspaceId}/blogs/{blogId}/unrelease", path),
    );
    setBlog(moved);
    return moved;
  };

  const run = submit(async (event) => {
    const submitter = event instanceof SubmitEvent ? event.submitter : null;
    const chosen: Action =
      submitter instanceof HTMLButtonElement &&
      (submitter.value === "release" || submitter.value === "unrelease")
        ? submitter.value
        : "save";
    setAction(chosen);
    setNotice("");
    if (chosen === "save") await save();
    else await transition(chosen);
    setNotice(
      chosen === "release"
        ? "Released: consumers can read it now."
        : chosen === "unrelease"
          ? "Back to draft: consumers no longer see it."
          : "Saved.",
    );
  });

  const remove = async () => {
    if (!blog) return;
    await send(
      api.DELETE("/workspaces/{workspaceId}/blogs/{blogId}", {
        params: { path: { workspaceId, blogId: blog.id } },
      }),
    );
    navigate(hrefOf({ name: "blogs", ws: workspaceId, status: null }));
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
    return (
      <>
        {back}
        <h1 tabIndex={-1}>{loadError?.status === 404 ? "Blog not found" : "Edit blog"}</h1>
        {loadError === null && <Loading label="Loading the blog…" />}
        {loadError?.status === 404 && <p>It was removed, or it never existed in this workspace.</p>}
        {loadError && loadError.status !== 404 && (
          <ErrorMessage message={loadError.message} onRetry={() => load(blogId)} />
        )}
      </>
    );
  }

  return (
    <form class="editor" onSubmit={run} aria-busy={busy}>
      {back}
      <EditorHeader
        blog={blog}
        busy={busy ? action : null}
        dirty={dirty}
        onRemove={() => !busy && setConfirmRemove(true)}
      />
      <div class="editor-status">
        {error && <ErrorMessage message={error} />}
        <div role="status">{!error && notice && <p class="notice success">{notice}</p>}</div>
        {!error && notice === "" && (
          <p class="muted">{dirty ? "Unsaved changes." : "No unsaved changes."}</p>
        )}
      </div>
      <BlogFields
        workspaceId={workspaceId}
        draft={draft}
        onChange={(d) => {
          setDraft(d);
          setNotice("");
        }}
        saved={blog}
      />
      {confirmRemove && blog && (
        <ConfirmDialog
          title={`Remove “${blog.title}”?`}
          confirmLabel="Remove blog"
          onConfirm={remove}
          onClose={() => setConfirmRemove(false)}
        >
          <p>
            It disappears from the dashboard and, if released, from the consumer API at once. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}

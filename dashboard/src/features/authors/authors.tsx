import { useState } from "preact/hooks";
import { type Author, api, call, send, type Workspace } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { AuthorDialog } from "./author-form.js";
import { AuthorItem } from "./author-item.js";
import "./authors.css";

/** The authors screen's one open dialog, if any, with the author it is about. */
type AuthorsDialog =
  | { kind: "add" }
  | { kind: "edit"; author: Author }
  | { kind: "remove"; author: Author };

/**
 * The workspace's authors (admin.yaml, "Authors"; README.md, "Authors"): the people its blogs
 * are written by, for the author pages of the sites built on it. Any member adds, changes and
 * removes them.
 */
export function Authors({ workspace }: { workspace: Workspace }) {
  useTitle(`Authors · ${workspace.name}`);
  const workspaceId = workspace.id;
  const [dialog, setDialog] = useState<AuthorsDialog | null>(null);
  const [notice, setNotice] = useState("");

  const loaded = useLoad(
    async (signal) => {
      const list = await call(
        api.GET("/workspaces/{workspaceId}/authors", { params: { path: { workspaceId } }, signal }),
      );
      return list.data;
    },
    [workspaceId],
  );
  const authors = loaded.data;
  const error = loaded.error?.message ?? null;

  /** The list as changed first, then the notice that announces it. */
  const changed = async (message: string) => {
    setDialog(null);
    await loaded.reload();
    setNotice(message);
  };
  const remove = async (author: Author) => {
    await send(
      api.DELETE("/workspaces/{workspaceId}/authors/{authorId}", {
        params: { path: { workspaceId, authorId: author.id } },
      }),
    );
    await changed(`${author.name} removed.`);
  };
  const open = (next: AuthorsDialog) => {
    setNotice("");
    setDialog(next);
  };

  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Authors</h1>
          <p class="lead">
            The people the blogs of <strong>{workspace.name}</strong> are written by. Name them on a
            blog in the editor; sites show them on the blog and on author pages.
          </p>
        </div>
        <button type="button" class="button primary" onClick={() => open({ kind: "add" })}>
          Add author
        </button>
      </div>
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
      {error && (
        <ErrorMessage
          message={authors ? `Could not refresh: ${error}` : error}
          onRetry={loaded.reload}
        />
      )}
      {authors === null && !error && <Loading label="Loading authors…" />}
      {authors?.length === 0 && (
        <section class="empty" aria-labelledby="authors-empty-title">
          <h2 id="authors-empty-title">No authors yet</h2>
          <p>
            Add the people who write here — a name, a short bio, a picture and a website — and
            choose them on each blog they wrote: sites built on this workspace show them with the
            blog and on an author page. A blog without authors keeps its plain byline.
          </p>
          <p>
            <button type="button" class="button primary" onClick={() => open({ kind: "add" })}>
              Add your first author
            </button>
          </p>
        </section>
      )}
      {authors && authors.length > 0 && (
        <ul class="author-list" aria-label={`Authors of ${workspace.name}`}>
          {authors.map((a) => (
            <AuthorItem
              key={a.id}
              author={a}
              onEdit={() => open({ kind: "edit", author: a })}
              onRemove={() => open({ kind: "remove", author: a })}
            />
          ))}
        </ul>
      )}
      {dialog?.kind === "add" && (
        <AuthorDialog
          workspaceId={workspaceId}
          onSaved={(a) => void changed(`${a.name} added, as “${a.slug}”.`)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "edit" && (
        <AuthorDialog
          workspaceId={workspaceId}
          author={dialog.author}
          onSaved={(a) => void changed(`${a.name} saved.`)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "remove" && (
        <ConfirmDialog
          title={`Remove ${dialog.author.name}?`}
          confirmLabel="Remove author"
          onConfirm={() => remove(dialog.author)}
          onClose={() => setDialog(null)}
        >
          <p>
            Blogs that name them no longer list them; a blog left with no author shows its own
            byline again. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

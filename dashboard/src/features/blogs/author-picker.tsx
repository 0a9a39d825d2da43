import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { type Author, api, call } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { type Load, useLoad } from "../../use-load.js";
import { type AuthorMove, addAuthor, choosableAuthors, moveAuthor } from "./author-order.js";
import "./author-picker.css";
import type { AuthorRef } from "./blog-draft.js";

/** At most this many authors a blog names (admin.yaml, BlogAuthorIds). */
export const MAX_AUTHORS = adminLimits.createBlog.authors.maxItems;

/** The workspace's authors (admin.yaml, listAuthors), for the editor's picker and its history. */
export function useWorkspaceAuthors(workspaceId: string): Load<Author[]> {
  return useLoad(
    async (signal) =>
      (
        await call(
          api.GET("/workspaces/{workspaceId}/authors", {
            params: { path: { workspaceId } },
            signal,
          }),
        )
      ).data,
    [workspaceId],
  );
}

interface AuthorPickerProps {
  workspaceId: string;
  /** The authors the form names, in order. */
  chosen: AuthorRef[];
  onChange: (chosen: AuthorRef[]) => void;
  /** The workspace's authors to choose from. */
  available: Load<Author[]>;
  /** The field's problem (a server's 400 about `authors`). */
  error?: string | undefined;
}

/** Which control of which chosen author takes the focus after a move or a removal. */
type Focus = { id: string; control: "up" | "down" } | { id: null; control: "add" };

/**
 * The blog's authors (admin.yaml, BlogInput.authors): chosen from the workspace's, in order —
 * the first is the primary author — moved up and down, removed; at most `MAX_AUTHORS`. With
 * none, the Author field's byline is what readers see.
 */
export function AuthorPicker(props: AuthorPickerProps) {
  const { workspaceId, chosen, onChange, available, error } = props;
  const id = useId();
  const [choice, setChoice] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const addRef = useRef<HTMLSelectElement>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  // After a move the moved author's button keeps the focus; after a removal, the chooser has it.
  useLayoutEffect(() => {
    if (focus === null) return;
    if (focus.id === null) addRef.current?.focus();
    else {
      listRef.current
        ?.querySelector<HTMLElement>(
          `[data-author="${focus.id}"] [data-control="${focus.control}"]`,
        )
        ?.focus();
    }
    setFocus(null);
  }, [focus]);

  const authors = available.data;
  const choosable = authors ? choosableAuthors(authors, chosen) : [];
  const full = chosen.length >= MAX_AUTHORS;
  const move = (author: AuthorRef, where: AuthorMove) => {
    const moved = moveAuthor(chosen, author.id, where);
    if (moved === chosen) return;
    onChange(moved);
    if (where !== "remove") setFocus({ id: author.id, control: where });
    else setFocus({ id: null, control: "add" });
  };
  const add = () => {
    const picked = authors?.find((a) => a.id === choice);
    if (picked === undefined || full) return;
    onChange(addAuthor(chosen, picked));
    setChoice("");
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <fieldset
      class="field author-picker"
      aria-describedby={error ? `${errorId} ${hintId}` : hintId}
    >
      <legend class="label-like">Authors</legend>
      {chosen.length > 0 ? (
        <ol class="chosen-authors" ref={listRef}>
          {chosen.map((a, i) => (
            <li key={a.id} data-author={a.id} class="chosen-author">
              <span class="chosen-author-name">
                <span class="chosen-author-label">{a.name}</span>
                {i === 0 && <span class="badge primary-author">Primary</span>}
              </span>
              <span class="chosen-author-actions">
                <button
                  type="button"
                  class="button small"
                  data-control="up"
                  aria-disabled={i === 0 ? "true" : undefined}
                  onClick={() => move(a, "up")}
                >
                  Move up<span class="visually-hidden"> {a.name}</span>
                </button>
                <button
                  type="button"
                  class="button small"
                  data-control="down"
                  aria-disabled={i === chosen.length - 1 ? "true" : undefined}
                  onClick={() => move(a, "down")}
                >
                  Move down<span class="visually-hidden"> {a.name}</span>
                </button>
                <button
                  type="button"
                  class="button small danger-outline"
                  onClick={() => move(a, "remove")}
                >
                  Remove<span class="visually-hidden"> {a.name}</span>
                </button>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted chosen-none">None chosen: the byline in Author is shown.</p>
      )}
      {available.error && (
        <ErrorMessage
          message={`Could not load the workspace's authors: ${available.error.message}`}
          onRetry={available.reload}
        />
      )}
      {authors === null && !available.error && <Loading label="Loading authors…" />}
      {authors?.length === 0 && (
        <p class="hint">
          This workspace has no authors yet:{" "}
          <a href={hrefOf({ name: "authors", ws: workspaceId })} onClick={onLinkClick}>
            add them on the Authors screen
          </a>
          .
        </p>
      )}
      {authors && authors.length > 0 && (
        <div class="author-add">
          <label for={`${id}-add`}>Add an author</label>
          <div class="author-add-row">
            <select
              id={`${id}-add`}
              ref={addRef}
              value={choice}
              // The control a refusal about the authors focuses (focusFirstInvalid).
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              disabled={full || choosable.length === 0}
              onChange={(e) => setChoice(e.currentTarget.value)}
            >
              <option value="">
                {full
                  ? `${MAX_AUTHORS} chosen: the most a blog names`
                  : choosable.length === 0
                    ? "All chosen"
                    : "Choose an author…"}
              </option>
              {choosable.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.slug})
                </option>
              ))}
            </select>
            <button
              type="button"
              class="button small"
              aria-disabled={choice === "" || full ? "true" : undefined}
              onClick={add}
            >
              Add
            </button>
          </div>
        </div>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
      <p class="hint" id={hintId}>
        In order: the first is the primary author. Up to {MAX_AUTHORS}. With none, readers see the
        name in Author.
      </p>
    </fieldset>
  );
}

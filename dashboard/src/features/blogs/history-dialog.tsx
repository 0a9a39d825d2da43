import { useEffect, useRef, useState } from "preact/hooks";
import { type AdminBlog, type BlogRevisionSummary, messageOf } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { zonedTime } from "../../time.js";
import { loadRevision, loadRevisions } from "./blog-requests.js";
import { BodyDiff } from "./body-diff.js";
import { bodyRows, FIELD_LABELS } from "./conflict.js";
import {
  ACTION_LABELS,
  type AuthorNames,
  changedText,
  contentOf,
  differingFields,
  fieldText,
  type RevisionContent,
} from "./history.js";
import "./history.css";

interface HistoryDialogProps {
  workspaceId: string;
  /** The blog as the editor last had it: "Now" in comparisons, and what a restore is made on. */
  blog: AdminBlog;
  /** Unsaved changes in the form: a restore would replace them, so it waits for a save. */
  dirty: boolean;
  /** Authors' names by ID: a revision keeps only the IDs of the authors it names. */
  authorNames: AuthorNames;
  /** Restores the revision's content as a new save (the editor closes this dialog on success). */
  onRestore: (revision: BlogRevisionSummary) => Promise<void>;
  onClose: () => void;
}

/** What the selected revision is compared with: another revision, or the blog now. */
const NOW = "now";

const who = (r: BlogRevisionSummary) => r.actor?.name ?? "The operator (CLI)";

/**
 * The blog's history (admin.yaml, "History"): its revisions newest first, each with who did
 * what and when (in the viewer's time zone, with the offset); the selected one's content beside
 * the revision before it (or any other, or the blog now), fields and a body diff; and Restore,
 * which saves that content as a new version on top.
 */
export function HistoryDialog({
  workspaceId,
  blog,
  dirty,
  authorNames,
  onRestore,
  onClose,
}: HistoryDialogProps) {
  const [revisions, setRevisions] = useState<BlogRevisionSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  /** What the selected one is compared with; null: the revision just before it. */
  const [against, setAgainst] = useState<string | null>(null);
  const contents = useRef(new Map<string, RevisionContent>());
  const [loaded, setLoaded] = useState(0); // a content arrived: render again
  const [contentError, setContentError] = useState<string | null>(null);
  const restoring = useSubmit();

  const loadPage = async (cursor: string | null) => {
    setListError(null);
    try {
      const page = await loadRevisions(workspaceId, blog.id, cursor);
      setRevisions((shown) => [...(cursor === null ? [] : (shown ?? [])), ...page.data]);
      setNext(page.nextCursor);
      if (cursor === null) setSelected(page.data[0]?.id ?? null);
    } catch (err) {
      setListError(messageOf(err));
    }
  };
  useEffect(() => {
    void loadPage(null);
  }, [blog.version]);

  const list = revisions ?? [];
  const index = list.findIndex((r) => r.id === selected);
  const current = index === -1 ? null : (list[index] ?? null);
  const before = index === -1 ? null : (list[index + 1] ?? null);
  const compareId = against ?? before?.id ?? NOW;

  // The contents the comparison needs, each fetched once.
  useEffect(() => {
    for (const id of [selected, compareId]) {
      if (id === null || id === NOW || contents.current.has(id)) continue;
      loadRevision(workspaceId, blog.id, id).then(
        (r) => {
          contents.current.set(id, r.content);
          setLoaded((n) => n + 1);
        },
        (err: unknown) => setContentError(messageOf(err)),
      );
    }
  }, [selected, compareId]);

  const mine = selected === null ? undefined : contents.current.get(selected);
  const other = compareId === NOW ? contentOf(blog) : contents.current.get(compareId);
  const sameAsNow = mine !== undefined && differingFields(contentOf(blog), mine).length === 0;
  const otherLabel =
    compareId === NOW
      ? "Now"
      : zonedTime(list.find((r) => r.id === compareId)?.at ?? new Date().toISOString());

  return (
    <Modal
      title="History"
      onClose={onClose}
      wide
      description={
        <p>
          Every save and state change of this blog, newest first. Restore saves an earlier version
          as a new one; nothing is ever overwritten.
        </p>
      }
    >
      <div class="history" data-loaded={loaded}>
        <div class="history-list">
          {listError && <ErrorMessage message={listError} onRetry={() => loadPage(null)} />}
          {revisions === null && listError === null && <Loading label="Loading history…" />}
          <ol aria-label="Revisions, newest first">
            {list.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  class="history-item"
                  aria-pressed={r.id === selected}
                  onClick={() => {
                    setSelected(r.id);
                    setAgainst(null);
                    setContentError(null);
                  }}
                >
                  <span class="history-action">{ACTION_LABELS[r.action]}</span>
                  <span class="history-meta">
                    {who(r)} · <time dateTime={r.at}>{zonedTime(r.at)}</time>
                  </span>
                  {changedText(r) !== "" && (
                    <span class="history-changed">Changed: {changedText(r)}</span>
                  )}
                  {r.pendingChanges && <span class="badge pending">Pending</span>}
                </button>
              </li>
            ))}
          </ol>
          {next !== null && (
            <button type="button" class="button" onClick={() => loadPage(next)}>
              Show older
            </button>
          )}
        </div>
        <section class="history-detail" aria-label="The selected revision">
          {current !== null && (
            <>
              <h3 class="history-heading">
                {ACTION_LABELS[current.action]} by {who(current)},{" "}
                <time dateTime={current.at}>{zonedTime(current.at)}</time>
              </h3>
              <label class="history-against">
                Compare with{" "}
                <select value={compareId} onChange={(e) => setAgainst(e.currentTarget.value)}>
                  <option value={NOW}>Now (the blog as saved)</option>
                  {list
                    .filter((r) => r.id !== current.id)
                    .map((r) => (
                      <option key={r.id} value={r.id}>
                        {zonedTime(r.at)} — {ACTION_LABELS[r.action]}
                      </option>
                    ))}
                </select>
              </label>
              {contentError && <ErrorMessage message={contentError} />}
              {mine === undefined || other === undefined ? (
                contentError === null && <Loading label="Loading the revision…" />
              ) : (
                <Comparison
                  older={other}
                  newer={mine}
                  olderLabel={otherLabel}
                  names={authorNames}
                />
              )}
            </>
          )}
        </section>
      </div>
      {restoring.error && <ErrorMessage message={restoring.error} />}
      <div class="modal-actions modal-actions-sticky">
        {dirty && <p class="history-hint">Save or discard your unsaved changes to restore.</p>}
        {sameAsNow && !dirty && <p class="history-hint">This is what the blog says now.</p>}
        <button type="button" class="button" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          class="button primary"
          disabled={dirty || current === null || mine === undefined || sameAsNow || restoring.busy}
          onClick={restoring.submit(async () => {
            if (current !== null) await onRestore(current);
          })}
        >
          {restoring.busy ? "Restoring…" : "Restore this version"}
        </button>
      </div>
    </Modal>
  );
}

/** Two contents: the fields that differ side by side, then the body's line diff. */
function Comparison(props: {
  older: RevisionContent;
  newer: RevisionContent;
  olderLabel: string;
  names: AuthorNames;
}) {
  const { older, newer, olderLabel, names } = props;
  const differing = differingFields(older, newer);
  if (differing.length === 0) {
    return <p class="history-same">The content is the same in both.</p>;
  }
  const fields = differing.filter((f) => f !== "bodyMarkdown");
  return (
    <>
      {fields.length > 0 && (
        <table class="conflict-fields">
          <caption class="visually-hidden">The fields that differ</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">{olderLabel}</th>
              <th scope="col">This revision</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f}>
                <th scope="row">{FIELD_LABELS[f]}</th>
                <td>{fieldText(older, f, names) || <span class="conflict-empty">(empty)</span>}</td>
                <td>{fieldText(newer, f, names) || <span class="conflict-empty">(empty)</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {differing.includes("bodyMarkdown") && (
        <BodyDiff
          rows={bodyRows(older.bodyMarkdown, newer.bodyMarkdown)}
          sides={{
            left: olderLabel,
            right: "This revision",
            leftWho: olderLabel === "Now" ? "Now" : "Compared",
            rightWho: "This revision",
          }}
        />
      )}
    </>
  );
}

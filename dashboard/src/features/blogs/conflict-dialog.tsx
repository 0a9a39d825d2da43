import { useRef, useState } from "preact/hooks";
import { Modal } from "../../components/modal.js";
import { exactTime } from "../../time.js";
import { draftOf } from "./blog-draft.js";
import { BodyDiff, type DiffSides } from "./body-diff.js";
import {
  bodyRows,
  type Conflict,
  copyTextOf,
  type DraftField,
  FIELD_LABELS,
  valueText,
} from "./conflict.js";
import "./conflict.css";

/**
 * What the writer was doing when the blog turned out to have changed ("restore": bringing back
 * text kept in this browser, typed on an earlier version; "revert": restoring a revision from
 * the blog's history).
 */
export type RefusedAction =
  | "save"
  | "release"
  | "unrelease"
  | "remove"
  | "publish"
  | "discard"
  | "restore"
  | "revert"
  | "schedule";

const REFUSED: Record<RefusedAction, string> = {
  save: "Your changes were not saved",
  release: "It was not released",
  unrelease: "It was not unreleased",
  remove: "It was not removed",
  publish: "Nothing was published",
  discard: "Nothing was discarded",
  restore: "Your restored changes were typed on the version before it and are not saved",
  revert: "The earlier version was not restored",
  schedule: "Nothing was scheduled",
};

interface ConflictDialogProps {
  conflict: Conflict;
  refused: RefusedAction;
  /** Saves the writer's version on top of theirs, as a Save (it may meet a newer one again). */
  onKeepMine: () => void;
  /** Shows theirs in the form; the writer's changes are set aside. */
  onTakeTheirs: () => void;
}

const CONFLICT_SIDES: DiffSides = {
  left: "Theirs (saved)",
  right: "Yours (not saved)",
  leftWho: "Theirs",
  rightWho: "Yours",
};

const listOf = (fields: DraftField[]) => fields.map((f) => FIELD_LABELS[f]).join(", ");

/**
 * "Someone else changed this blog": both versions side by side (the fields that differ, and a
 * line diff of the body), and the three ways on: save mine on top, take theirs, or copy mine
 * to keep it elsewhere. Only its buttons close it (Escape does nothing): every way out is a
 * choice the writer made knowingly. The buttons stay at the foot of the dialog while the
 * comparison scrolls, so it opens at its top with "Keep mine" focused.
 */
export function ConflictDialog({
  conflict,
  refused,
  onKeepMine,
  onTakeTheirs,
}: ConflictDialogProps) {
  const { theirs, differing, theirsOnly } = conflict;
  const fields = differing.filter((f) => f !== "bodyMarkdown");
  const copying = useCopy(copyTextOf(conflict));
  const statusNote = theirs.status === "released" ? " It is released now." : " It is a draft now.";
  return (
    <Modal
      title="Someone else changed this blog"
      onClose={() => {}}
      dismissible={false}
      wide
      description={
        <p>
          It was changed after you opened it (last saved {exactTime(theirs.updatedAt)}).
          {statusNote} {REFUSED[refused]}: compare the two versions and choose which to keep.
          {theirsOnly.length > 0 &&
            ` Their changes to ${listOf(theirsOnly)} are kept whichever you choose.`}
        </p>
      }
    >
      {fields.length > 0 && (
        <table class="conflict-fields">
          <caption class="visually-hidden">The fields that differ</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Theirs (saved)</th>
              <th scope="col">Yours (not saved)</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f}>
                <th scope="row">{FIELD_LABELS[f]}</th>
                <td>{shown(valueText(draftOf(theirs), f))}</td>
                <td>{shown(valueText(conflict.mine, f))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {differing.includes("bodyMarkdown") && (
        <BodyDiff
          rows={bodyRows(theirs.bodyMarkdown, conflict.mine.bodyMarkdown)}
          sides={CONFLICT_SIDES}
        />
      )}
      {copying.shown}
      <div class="modal-actions modal-actions-sticky conflict-actions">
        <button type="button" class="button conflict-copy" onClick={copying.copy}>
          Copy mine
        </button>
        <button type="button" class="button" onClick={onTakeTheirs}>
          Take theirs
        </button>
        <button type="button" class="button primary" onClick={onKeepMine} autofocus>
          Keep mine (save on top)
        </button>
      </div>
    </Modal>
  );
}

const shown = (value: string) =>
  value.trim() === "" ? <span class="conflict-empty">(empty)</span> : value;

/**
 * Copies the writer's version to the clipboard. Where the browser refuses (no permission, not a
 * secure page), the text is shown selected in a box instead, for Ctrl+C (⌘C).
 */
function useCopy(text: string) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const box = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("manual");
      requestAnimationFrame(() => box.current?.select());
    }
  };
  const shown = (
    <>
      <p role="status" class="conflict-copy-state">
        {state === "copied"
          ? "Your version is on the clipboard."
          : state === "manual"
            ? "The browser did not allow copying: your version is selected below, copy it with Ctrl+C (⌘C on a Mac)."
            : ""}
      </p>
      {state === "manual" && (
        <textarea
          ref={box}
          class="conflict-copy-box"
          readOnly
          value={text}
          aria-label="Your version, to copy"
          rows={6}
        />
      )}
    </>
  );
  return { copy, shown };
}

import { useState } from "preact/hooks";
import type { AdminBlog, BlogSchedule } from "../../api.js";
import { Field } from "../../components/field.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import {
  isoOfLocalInput,
  isScheduled,
  localInputOf,
  offsetName,
  publishLabel,
  scheduleText,
} from "./schedule.js";

interface ScheduleDialogProps {
  /** The blog as the editor last had it: what is scheduled, and the version a change is made on. */
  blog: AdminBlog;
  /** Unsaved changes: a schedule applies to the saved blog, so it waits for a save. */
  dirty: boolean;
  /** Sets the times (the editor closes this dialog on success; a failure stays here). */
  onSchedule: (schedule: BlogSchedule) => Promise<void>;
  onClose: () => void;
}

type Problems = { publishAt?: string; unreleaseAt?: string };

/**
 * When the server should release the blog (a draft), publish its pending changes (a released
 * blog) and take it back to draft (admin.yaml, "Schedules"): times typed in the viewer's own
 * time zone, whose UTC offset the dialog names. Empty means nothing; **Cancel schedule** drops
 * both. Checked here first (a time in the past, an unrelease before the release), then by the
 * server, whose refusal names the field too.
 */
export function ScheduleDialog({ blog, dirty, onSchedule, onClose }: ScheduleDialogProps) {
  const publishAs = publishLabel(blog);
  const [publishAt, setPublishAt] = useState(localInputOf(blog.schedule.publishAt));
  const [unreleaseAt, setUnreleaseAt] = useState(localInputOf(blog.schedule.unreleaseAt));
  const [problems, setProblems] = useState<Problems>({});
  const { busy, error, submit } = useSubmit();

  const check = (): BlogSchedule | null => {
    const found: Problems = {};
    const publish = publishAs === null ? null : isoOfLocalInput(publishAt);
    const unrelease = isoOfLocalInput(unreleaseAt);
    const now = Date.now();
    if (publishAs !== null && publishAt.trim() !== "" && publish === null) {
      found.publishAt = "Enter a date and time.";
    } else if (publish !== null && Date.parse(publish) <= now) {
      found.publishAt = "Choose a time in the future.";
    }
    if (unreleaseAt.trim() !== "" && unrelease === null) {
      found.unreleaseAt = "Enter a date and time.";
    } else if (unrelease !== null && Date.parse(unrelease) <= now) {
      found.unreleaseAt = "Choose a time in the future.";
    } else if (
      unrelease !== null &&
      publish !== null &&
      Date.parse(unrelease) <= Date.parse(publish)
    ) {
      found.unreleaseAt = "Choose a time after the release.";
    } else if (unrelease !== null && blog.status === "draft" && publish === null) {
      found.unreleaseAt = "Schedule the release first: a draft is not out yet.";
    }
    setProblems(found);
    if (found.publishAt || found.unreleaseAt) return null;
    return {
      ...(publishAs === null ? {} : { publishAt: publish }),
      unreleaseAt: unrelease,
    };
  };

  const offset = offsetName();
  return (
    <Modal
      title="Schedule"
      onClose={onClose}
      description={
        <p>
          {scheduleText(blog) || "Nothing is scheduled."} Times are in your time zone ({offset}).
          The server does it at that time, as if you did it then.
        </p>
      }
    >
      <form
        noValidate
        onSubmit={submit(async () => {
          const schedule = check();
          if (schedule !== null) await onSchedule(schedule);
        })}
      >
        {publishAs !== null && (
          <Field label={`${publishAs} (${offset})`} error={problems.publishAt ?? null}>
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                value={publishAt}
                onInput={(e) => setPublishAt(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        <Field
          label={`Back to draft at (${offset})`}
          hint="Optional: consumers stop seeing it then."
          error={problems.unreleaseAt ?? null}
        >
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              value={unreleaseAt}
              onInput={(e) => setUnreleaseAt(e.currentTarget.value)}
            />
          )}
        </Field>
        {dirty && <p class="hint">Save or discard your unsaved changes to schedule.</p>}
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          {isScheduled(blog) && (
            <button
              type="button"
              class="button danger-outline schedule-cancel"
              disabled={dirty || busy}
              onClick={submit(() =>
                onSchedule({
                  ...(blog.schedule.publishAt === null ? {} : { publishAt: null }),
                  ...(blog.schedule.unreleaseAt === null ? {} : { unreleaseAt: null }),
                }),
              )}
            >
              Cancel schedule
            </button>
          )}
          <button type="button" class="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" class="button primary" disabled={dirty || busy}>
            {busy ? "Scheduling…" : "Schedule"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * What each change of a blog's state writes, derived from the blog as read (blog-writes.ts runs
 * them through its compare-and-set): a release, an unrelease, a removal, a publish or discard of
 * pending changes, and the schedule's own (blog-schedule.ts), by hand or when its time comes.
 */
import type {
  BlogDoc,
  BlogScheduleDoc,
  BlogStatus,
  StagedContent,
} from "../platform/db/collections.js";
import { newRevision } from "./blog-rules.js";
import { dueAction, type ScheduledAction, without } from "./blog-schedule.js";
import type { EditedBlog } from "./blog-staging.js";
import { searchFieldsOf } from "./search-terms.js";

/**
 * What a write changes: live fields, the pending changes (`staged`: new ones, or null to drop
 * them) and the schedule (`schedule`: a new one, or null to drop it). A write of `staged` or
 * `schedule` alone is invisible to consumers, the feed and webhooks.
 */
export type BlogEdit = Omit<Partial<BlogDoc>, "staged" | "schedule" | "dueAt"> & {
  staged?: StagedContent | null;
  schedule?: BlogScheduleDoc | null;
  /**
   * Live fields written with the change but kept out of its webhook event: an unrelease's
   * pending changes, which become the draft that nobody outside sees.
   */
  folded?: Partial<BlogDoc>;
};

/** The content fields of pending changes, without their version: what publishing makes live. */
export function liveContentOf({ revision: _r, updatedAt: _u, ...fields }: StagedContent) {
  return { ...fields, ...searchFieldsOf(fields) };
}

/** `{schedule}` without `actions` when that changes it; else nothing. */
const cancelling = (doc: EditedBlog, actions: readonly ScheduledAction[]) => {
  const schedule = without(doc.schedule, actions);
  return schedule === undefined ? {} : { schedule };
};

/**
 * draft ⇄ released, either → removed. A release cancels a scheduled publish (it happened), an
 * unrelease the whole schedule, a removal everything. `keepLiveSlug`: an unrelease whose pending
 * slug another blog took meanwhile keeps the released slug.
 */
export function moveEdit(
  doc: EditedBlog,
  status: BlogStatus,
  now: Date,
  keepLiveSlug: boolean,
): BlogEdit | null {
  if (doc.status === status) return null;
  const revision = newRevision();
  if (status === "released") {
    return { status, releasedAt: now, updatedAt: now, revision, ...cancelling(doc, ["publishAt"]) };
  }
  const dropped = doc.staged === undefined ? {} : { staged: null };
  const unscheduled = doc.schedule === undefined ? {} : { schedule: null };
  if (status === "removed") {
    return { status, removedAt: now, updatedAt: now, revision, ...dropped, ...unscheduled };
  }
  const back = { status, releasedAt: null, updatedAt: now, revision, ...unscheduled };
  // Back to draft: its pending changes, if any, are the draft from now on (kept out of the
  // event, which names the blog as consumers knew it).
  if (doc.staged === undefined) return back;
  // Pending changes whose content is missing: the draft is the released version.
  if (doc.pending === undefined) return { ...back, staged: null };
  const pending = { ...doc.pending, slug: keepLiveSlug ? doc.slug : doc.pending.slug };
  return { ...back, folded: liveContentOf(pending), staged: null };
}

/** A released blog's pending changes made live; cancels a scheduled publish. */
export function publishEdit(doc: EditedBlog, now: Date): BlogEdit | null {
  if (doc.staged === undefined || doc.status !== "released") return null;
  // Pending changes whose content is missing: nothing to publish, and none from now.
  if (doc.pending === undefined) return { staged: null, ...cancelling(doc, ["publishAt"]) };
  return {
    ...liveContentOf(doc.pending),
    updatedAt: now,
    revision: newRevision(),
    staged: null,
    ...cancelling(doc, ["publishAt"]),
  };
}

/** A released blog's pending changes dropped; a publish scheduled for them goes too. */
export const discardEdit = (doc: EditedBlog): BlogEdit | null =>
  doc.staged === undefined ? null : { staged: null, ...cancelling(doc, ["publishAt"]) };

/** What the schedule's due action is for the blog as it is. */
export type ScheduledOutcome = "released" | "published" | "unreleased" | "nothing";

/**
 * The scheduled action of `doc` due at `now` (the earliest), as a write: the release, publish
 * or unrelease it is, with that time taken off the schedule; or only the time taken off, when
 * the blog no longer has anything for it to do (`nothing`). Null when nothing is due.
 */
export function scheduledEdit(
  doc: EditedBlog,
  now: Date,
  keepLiveSlug: boolean,
): { edit: BlogEdit; outcome: ScheduledOutcome; action: ScheduledAction } | null {
  const action = dueAction(doc.schedule, now);
  if (action === null) return null;
  const rest = { schedule: without(doc.schedule, [action]) ?? null };
  if (action === "publishAt" && doc.status === "draft") {
    const moved = moveEdit(doc, "released", now, keepLiveSlug);
    if (moved !== null) return { edit: { ...moved, ...rest }, outcome: "released", action };
  }
  if (action === "publishAt" && doc.status === "released") {
    const published = publishEdit(doc, now);
    if (published !== null && doc.pending !== undefined) {
      return { edit: { ...published, ...rest }, outcome: "published", action };
    }
  }
  if (action === "unreleaseAt" && doc.status === "released") {
    const moved = moveEdit(doc, "draft", now, keepLiveSlug);
    if (moved !== null) return { edit: { ...moved, ...rest }, outcome: "unreleased", action };
  }
  return { edit: rest, outcome: "nothing", action };
}

/**
 * The rules of a blog's schedule (admin.yaml, "Schedules"; `BlogDoc.schedule`): which times may
 * be set, what a manual action cancels, and what is due. Pure: blog-writes.ts stores them, and
 * blog-scheduler.ts finds the due ones.
 */
import type { Filter } from "mongodb";
import type { BlogDoc, BlogScheduleDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import type { EditedBlog } from "./blog-staging.js";

/** How far ahead a time may be set. */
export const MAX_AHEAD_MS = 366 * 86_400_000;

export type ScheduledAction = "publishAt" | "unreleaseAt";

/** A writer's request (admin.yaml, `BlogSchedule`): a time sets, null cancels, absent keeps. */
export interface ScheduleInput {
  publishAt?: Date | null;
  unreleaseAt?: Date | null;
}

/** Matches the blog's schedule that was read, or its absence: part of every write's compare-and-set. */
export const scheduleFilter = (doc: Pick<BlogDoc, "schedule">): Filter<BlogDoc> =>
  doc.schedule === undefined
    ? { schedule: { $exists: false } }
    : { "schedule.rev": doc.schedule.rev };

/** The earliest time of a schedule (`BlogDoc.dueAt`). */
export function dueOf(schedule: BlogScheduleDoc): Date {
  const times = [schedule.publishAt, schedule.unreleaseAt].filter(
    (t): t is Date => t !== undefined,
  );
  return new Date(Math.min(...times.map((t) => t.getTime())));
}

/** `schedule` without `actions`: null when nothing is left, unchanged (undefined) if none was set. */
export function without(
  schedule: BlogScheduleDoc | undefined,
  actions: readonly ScheduledAction[],
): BlogScheduleDoc | null | undefined {
  if (schedule === undefined || actions.every((a) => schedule[a] === undefined)) return undefined;
  const rest: BlogScheduleDoc = { by: schedule.by, rev: schedule.rev };
  if (!actions.includes("publishAt") && schedule.publishAt) rest.publishAt = schedule.publishAt;
  if (!actions.includes("unreleaseAt") && schedule.unreleaseAt) {
    rest.unreleaseAt = schedule.unreleaseAt;
  }
  return rest.publishAt === undefined && rest.unreleaseAt === undefined ? null : rest;
}

/**
 * The schedule `input` makes of `doc`'s at `now`, set by `by`, or null when nothing is left; a
 * 400 naming the field for a time in the past or too far ahead, an unrelease not after the
 * publish, a publish with nothing to publish, or an unrelease of a draft without a release.
 */
export function scheduleOf(
  doc: EditedBlog,
  input: ScheduleInput,
  now: Date,
  by: string | null,
): BlogScheduleDoc | null {
  for (const field of ["publishAt", "unreleaseAt"] as const) {
    const at = input[field];
    if (at === undefined || at === null) continue;
    if (at.getTime() <= now.getTime()) throw invalid(`${field} must be in the future.`);
    if (at.getTime() - now.getTime() > MAX_AHEAD_MS) {
      throw invalid(`${field} must be at most 366 days ahead.`);
    }
  }
  const publishAt = input.publishAt === undefined ? doc.schedule?.publishAt : input.publishAt;
  const unreleaseAt =
    input.unreleaseAt === undefined ? doc.schedule?.unreleaseAt : input.unreleaseAt;
  if (publishAt && doc.status === "released" && doc.staged === undefined) {
    throw invalid("publishAt: this blog is released and has no pending changes to publish.");
  }
  if (unreleaseAt && doc.status !== "released" && !publishAt) {
    throw invalid(
      "unreleaseAt: a draft can be unreleased at a time once its release is scheduled.",
    );
  }
  if (publishAt && unreleaseAt && unreleaseAt.getTime() <= publishAt.getTime()) {
    throw invalid("unreleaseAt must be after publishAt.");
  }
  if (!publishAt && !unreleaseAt) return null;
  return {
    ...(publishAt ? { publishAt } : {}),
    ...(unreleaseAt ? { unreleaseAt } : {}),
    by,
    rev: randomBase62(8),
  };
}

/** The action of `schedule` due at `now`, the earliest first (the publish on a tie); none: null. */
export function dueAction(
  schedule: BlogScheduleDoc | undefined,
  now: Date,
): ScheduledAction | null {
  const due = (["publishAt", "unreleaseAt"] as const).filter((a) => {
    const at = schedule?.[a];
    return at !== undefined && at.getTime() <= now.getTime();
  });
  if (due.length === 2 && schedule?.publishAt && schedule.unreleaseAt) {
    return schedule.unreleaseAt.getTime() < schedule.publishAt.getTime()
      ? "unreleaseAt"
      : "publishAt";
  }
  return due[0] ?? null;
}

/**
 * The schedule an import leaves a blog with (transfer/import-apply.ts): the source's release
 * time (`publishAt`, a draft's), and an unrelease set here kept while it still makes sense (the
 * blog released and nothing to publish, or a release before it). The stored schedule itself when
 * the times are the same.
 */
export function importedSchedule(
  stored: BlogScheduleDoc | undefined,
  status: BlogDoc["status"],
  publishAt: Date | null,
): BlogScheduleDoc | null {
  const unreleaseAt = stored?.unreleaseAt;
  const keep =
    unreleaseAt !== undefined &&
    (status === "released"
      ? publishAt === null
      : publishAt !== null && unreleaseAt.getTime() > publishAt.getTime());
  if (publishAt === null && !keep) return null;
  if (
    stored !== undefined &&
    stored.publishAt?.getTime() === publishAt?.getTime() &&
    (keep || stored.unreleaseAt === undefined)
  ) {
    return stored;
  }
  return {
    ...(publishAt === null ? {} : { publishAt }),
    ...(keep && unreleaseAt !== undefined ? { unreleaseAt } : {}),
    by: null,
    rev: randomBase62(8),
  };
}

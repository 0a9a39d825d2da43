import type { AdminBlog } from "../../api.js";
import { zonedTime } from "../../time.js";

// A blog's schedule in the editor (admin.yaml, "Schedules"): what each time is called for the
// blog as it is, and the form's times, which `<input type="datetime-local">` holds in the
// viewer's own time zone without an offset.

/** What "publish" is for this blog: a draft's release, or a released blog's pending changes. */
export function publishLabel(blog: AdminBlog): string | null {
  if (blog.status === "draft") return "Release at";
  return blog.pendingChanges ? "Publish changes at" : null;
}

/** "2026-12-01T09:00" (local, the input's form) for an ISO time; "" for none. */
export function localInputOf(iso: string | null): string {
  if (iso === null) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The input's local time as an ISO time; null when empty or not a time. */
export function isoOfLocalInput(value: string): string | null {
  if (value.trim() === "") return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The viewer's offset from UTC at `iso` (or now), as the times are shown: "GMT+1". */
export function offsetName(iso?: string): string {
  const part = new Intl.DateTimeFormat(undefined, { timeZoneName: "shortOffset" })
    .formatToParts(iso === undefined ? new Date() : new Date(iso))
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? "UTC";
}

/** What is scheduled, in a sentence: "Releases Dec 1, 2026, 09:00 GMT+1." ("" when nothing). */
export function scheduleText(blog: AdminBlog): string {
  const { publishAt, unreleaseAt } = blog.schedule;
  const parts: string[] = [];
  if (publishAt !== null) {
    parts.push(
      `${blog.status === "draft" ? "Releases" : "Publishes the pending changes"} ${zonedTime(publishAt)}`,
    );
  }
  if (unreleaseAt !== null) parts.push(`goes back to draft ${zonedTime(unreleaseAt)}`);
  if (parts.length === 0) return "";
  const text = parts.join("; then ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export const isScheduled = (blog: AdminBlog): boolean =>
  blog.schedule.publishAt !== null || blog.schedule.unreleaseAt !== null;

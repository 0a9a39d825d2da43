import type { UpdateFilter } from "mongodb";
import type {
  BlogDoc,
  BlogStatus,
  OutboxEventDoc,
  WebhookEventType,
} from "../platform/db/collections.js";
import { newId } from "../platform/ids.js";

/**
 * The webhook event a blog write makes, from the status before it (null: the blog is being
 * created) and after it; null when consumers see nothing of the write. The rule is the changes
 * feed's (`feedPending`): drafts never make events, whatever happens to them.
 * - created released, draft → released: `blog.released`;
 * - released, edited: `blog.updated`;
 * - released → draft: `blog.unreleased`; released → removed: `blog.removed`.
 */
export function blogEventType(
  before: BlogStatus | null,
  after: BlogStatus,
): WebhookEventType | null {
  if (before !== "released")
    return after === "released" && before !== "removed" ? "blog.released" : null;
  if (after === "released") return "blog.updated";
  return after === "draft" ? "blog.unreleased" : "blog.removed";
}

/** What a write adds to the blog's document besides its own changes. */
export interface OutboxPart {
  readonly set: Pick<BlogDoc, "webhookPending" | "eventSeq">;
  readonly event: OutboxEventDoc;
}

/**
 * The event of a write as parts of the write's own update (`$set` these, `$push` the event to
 * `webhookOutbox`): the event lives in the blog's document from the moment the change does, so
 * a crash can lose both or neither. `seq` is the blog's previous number + 1; the write's
 * compare-and-set on the blog's revision makes it exact (two writes of one version: one wins).
 */
export function outboxPart(
  before: Pick<BlogDoc, "status" | "eventSeq"> | null,
  after: Pick<BlogDoc, "status" | "slug">,
  at: Date,
): OutboxPart | null {
  const type = blogEventType(before?.status ?? null, after.status);
  if (type === null) return null;
  const seq = (before?.eventSeq ?? 0) + 1;
  return {
    set: { webhookPending: true, eventSeq: seq },
    event: { id: newId("evt"), type, at, seq, slug: after.slug },
  };
}

/**
 * A write of `doc` (a version read) storing `changes`, as one update: the changes, and with
 * them the event the write makes, if any (`queued`). The event's time is `at`: by default the
 * write's `updatedAt`; an import, which keeps the source's times, passes the moment it writes
 * (the relay sends an event to the endpoints that existed at its time).
 */
export function updateWithEvent(
  doc: BlogDoc,
  changes: Partial<BlogDoc>,
  at: Date = changes.updatedAt ?? new Date(),
): { update: UpdateFilter<BlogDoc>; changes: Partial<BlogDoc>; queued: boolean } {
  const after = { status: changes.status ?? doc.status, slug: changes.slug ?? doc.slug };
  const outbox = outboxPart(doc, after, at);
  if (outbox === null) return { update: { $set: changes }, changes, queued: false };
  const all = { ...changes, ...outbox.set };
  return {
    update: { $set: all, $push: { webhookOutbox: outbox.event } },
    changes: all,
    queued: true,
  };
}

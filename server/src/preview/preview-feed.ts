import type { BlogReads } from "../blogs/blog-reads.js";
import { blogStaging } from "../blogs/blog-staging.js";
import type { BlogWrites } from "../blogs/blog-writes.js";
import { NO_FILTER } from "../blogs/list-filter.js";
import { aheadLeases } from "../changes/ahead-leases.js";
import type { ChangeLog } from "../changes/change-log.js";
import { changeRecorder } from "../changes/change-recorder.js";
import type { ChangeTokens } from "../changes/change-token.js";
import { type ChangesFeed, changesFeed, type FeedSet } from "../changes/changes-feed.js";
import type { Collections } from "../platform/db/collections.js";
import { type PreviewReads, previewDocOf } from "./preview-reads.js";

/**
 * The preview feed's key of a workspace: its log entries are `<workspaceId>~preview/<number>`,
 * a range of their own in the `changes` collection (change-log.ts: "~" sorts after every
 * character of an id, so no live range holds them), and its tokens carry this key, so a live
 * token is refused by the preview feed and the other way round.
 */
export const previewScope = (workspaceId: string): string => `${workspaceId}~preview`;

/** The change log under the preview scope: the same numbering, proofs and purge. */
const scopedLog = (log: ChangeLog): ChangeLog => ({
  last: (w) => log.last(previewScope(w)),
  appendMany: (w, ids) => log.appendMany(previewScope(w), ids),
  read: (w, after, upTo, limit) => log.read(previewScope(w), after, upTo, limit),
  entriesOf: (w, ids) => log.entriesOf(previewScope(w), ids),
  purgeBefore: (w, cutoff) => log.purgeBefore(previewScope(w), cutoff),
});

/**
 * The changes feed in the preview perspective (openapi.yaml, "Preview"): the live feed's
 * machinery (change-recorder.ts, changes-feed.ts; README, "How the changes feed stays exact
 * without transactions") over another set and other marks. The set is every blog not removed,
 * as the preview shows it; a blog leaves it only when removed. Every write of a blog marks it
 * (`previewPending`, blogs/preview-mark.ts), in the same update as the write, so the same proof
 * holds: no write is missed, whatever the instances and the timing.
 */
export function previewChangesFeed(deps: {
  readonly collections: Pick<Collections, "blogs" | "blogStaged" | "markers">;
  readonly log: ChangeLog;
  readonly tokens: ChangeTokens;
  readonly reads: PreviewReads;
  readonly blogs: Pick<BlogReads, "getMany" | "listPreviewPending"> &
    Pick<BlogWrites, "clearPreviewPending">;
  readonly retentionMs: number;
  readonly keepEntriesMs: number;
  readonly now: () => number;
}): ChangesFeed {
  const staging = blogStaging(deps.collections);
  const log = scopedLog(deps.log);
  const set: FeedSet = {
    page: (workspaceId, limit, after) => deps.reads.page(workspaceId, limit, after, NO_FILTER),
    async current(workspaceId, ids) {
      const docs = await staging.withPending(await deps.blogs.getMany(workspaceId, ids));
      return new Map(
        docs.map((doc) => [
          doc._id,
          doc.status === "removed" ? (doc.removedAt ?? doc.updatedAt) : previewDocOf(doc),
        ]),
      );
    },
  };
  const recorder = changeRecorder({
    log,
    marks: { list: deps.blogs.listPreviewPending, clear: deps.blogs.clearPreviewPending },
    keepEntriesMs: deps.keepEntriesMs,
    now: deps.now,
    leases: aheadLeases(deps.collections.markers, "record-ahead-preview/", deps.now),
  });
  return changesFeed({
    log,
    recorder,
    tokens: deps.tokens,
    set,
    scope: previewScope,
    retentionMs: deps.retentionMs,
    now: deps.now,
  });
}

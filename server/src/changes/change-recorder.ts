import { keyedQueue } from "../platform/timers/keyed-queue.js";
import type { ChangeLog } from "./change-log.js";

/**
 * Marked blogs one call records at most, in one batch (a read, an ordered insert, three clears): a
 * consumer request waits for this much recording, not for a whole import's (the rest is recorded
 * by the calls that follow, which the feed's `hasMore` asks for). Clearing a mark rewrites its
 * blog, most of a mark's cost on the embedded database: with 45,000 blogs waiting, 500 made the
 * first changes page take 0.85–1.12 s, 250 took 0.46 s, and 0.28 s once the database cleared
 * marks in SQL (BENCHMARKS.md, "Bulk paths after an import"; the target is 1 s).
 */
export const MAX_RECORDED_PER_CALL = 250;
/** How often (at most) one instance deletes a workspace's expired entries, in ms. */
const PURGE_EVERY_MS = 3_600_000;

/**
 * Where a feed's marks are: the live feed's `feedPending` (blog-reads.ts `listFeedPending`,
 * blog-writes.ts `clearFeedPending`), or the preview feed's `previewPending` (the same, with
 * `previewMark` as the version). `M` is what a mark is cleared by.
 */
export interface FeedMarks<M extends { readonly _id: string }> {
  /** The workspace's marked blogs, the first `limit` by `_id`. */
  list(workspaceId: string, limit: number): Promise<M[]>;
  /** A compare-and-set on each mark recorded: a blog written since keeps its mark. */
  clear(workspaceId: string, marked: readonly M[]): Promise<number>;
  /** The version of the blog a mark was listed at, which its entry keeps (change-log.ts). */
  versionOf?(mark: M): string | undefined;
}

export interface RecorderDeps<M extends { readonly _id: string }> {
  readonly log: ChangeLog;
  readonly marks: FeedMarks<M>;
  /** Entries older than this are deleted (tokens older than the retention are refused first). */
  readonly keepEntriesMs: number;
  readonly now: () => number;
  /**
   * Called between taking an entry's number and clearing the blog's mark: tests hold a
   * recording there to make the races they check happen.
   */
  readonly afterAppend?: (blogId: string) => Promise<void>;
}

/** What one recording did: the log's last number after it, and whether it recorded every mark. */
export interface Recorded {
  readonly last: number;
  /** False when marks were left for the next call (the call's bound). */
  readonly complete: boolean;
  /** Entries this recording appended (one per marked blog it found). */
  readonly recorded: number;
}

/** Turns a feed's marks into log entries, so no write of a blog is missed by the feed. */
export interface ChangeRecorder {
  /**
   * Records the workspace's marked blogs, at most `bound` of them (MAX_RECORDED_PER_CALL unless
   * told fewer: `/tags`' version check, tag-counts-cache.ts, records fewer).
   */
  record(workspaceId: string, bound?: number): Promise<Recorded>;
}

/**
 * A write of a blog sets its mark in the same update as the change (blog-writes.ts); `record`
 * reads up to its bound of marked blogs, appends one entry for each (one ordered
 * insert), then clears each mark if its blog was not written again meanwhile (else the mark stays
 * for the next round; a compare-and-set per blog, a hundred per update), and returns the
 * log's last number, read after all that. When it found a full batch it says so
 * (`complete: false`), so that no request waits for a whole import's recording.
 *
 * Why no change is ever missed: when `record` returns `complete`, a write finished before it
 * began left its blog marked, or the mark was cleared by a recording that appended its entry
 * before clearing. Either way the write has an entry numbered at most the number `record`
 * returns, made after the write, so reading the blog at that entry reads the write (or a later
 * one). When it returns incomplete, it appended at least one entry (a batch's entries come
 * before its clears), so the number moved: the feed says `hasMore` and the calls that follow
 * record the rest. A crash between append and clear leaves the mark: the blog is recorded twice,
 * which a mirror applies twice, harmlessly.
 *
 * Across instances (and the CLI) the log's numbering and the clearing's compare-and-set keep
 * recordings exact, on MongoDB and on the embedded database alike (each update is atomic on both).
 * Recordings of one workspace still take turns in this process, so that its concurrent feed
 * requests do not append entries for the same marks twice.
 */
export function changeRecorder<M extends { readonly _id: string }>(
  deps: RecorderDeps<M>,
): ChangeRecorder {
  const oneAtATime = keyedQueue();
  const lastPurge = new Map<string, number>();

  const purgeIfDue = async (workspaceId: string): Promise<void> => {
    const now = deps.now();
    if (now - (lastPurge.get(workspaceId) ?? 0) < PURGE_EVERY_MS) return;
    lastPurge.set(workspaceId, now);
    await deps.log.purgeBefore(workspaceId, new Date(now - deps.keepEntriesMs));
  };

  return {
    record(workspaceId: string, bound = MAX_RECORDED_PER_CALL): Promise<Recorded> {
      return oneAtATime(workspaceId, async () => {
        const marked = await deps.marks.list(workspaceId, bound);
        if (marked.length > 0) {
          await deps.log.appendMany(
            workspaceId,
            marked.map((blog) => {
              const version = deps.marks.versionOf?.(blog);
              return version === undefined ? { blogId: blog._id } : { blogId: blog._id, version };
            }),
          );
          for (const blog of marked) await deps.afterAppend?.(blog._id);
          await deps.marks.clear(workspaceId, marked);
        }
        // A full batch may have left marks: say so (the next call finds none if it did not).
        const complete = marked.length < bound;
        await purgeIfDue(workspaceId);
        return { last: await deps.log.last(workspaceId), complete, recorded: marked.length };
      });
    },
  };
}

/**
 * Records a workspace's marked blogs batch after batch, as the feed's calls would one batch at a
 * time, until a recording finds fewer than a full batch: `pressroom import` runs it before it
 * exits, so that a site's first changes call or sync after an import has nothing left to record.
 * `onBatch` is told how many entries were appended so far. Returns that number.
 */
export async function recordEveryMark(
  recorder: ChangeRecorder,
  workspaceId: string,
  onBatch: (recorded: number) => void = () => {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const { complete, recorded } = await recorder.record(workspaceId);
    total += recorded;
    onBatch(total);
    if (complete) return total;
  }
}

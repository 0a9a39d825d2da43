import type { BlogReads } from "../blogs/blog-reads.js";
import type { BlogDoc } from "../platform/db/collections.js";
import { keyedQueue } from "../platform/timers/keyed-queue.js";
import type { ChangeLog } from "./change-log.js";

/** Marked blogs read per query while recording. */
const BATCH = 100;
/** How often (at most) one instance deletes a workspace's expired entries, in ms. */
const PURGE_EVERY_MS = 3_600_000;

export interface RecorderDeps {
  readonly log: ChangeLog;
  readonly blogs: Pick<BlogReads, "listFeedPending">;
  /** blog-writes.ts `clearFeedPending`: a compare-and-set on the version recorded. */
  readonly clearFeedPending: (
    workspaceId: string,
    version: Pick<BlogDoc, "_id" | "updatedAt" | "revision">,
  ) => Promise<boolean>;
  /** Entries older than this are deleted (tokens older than the retention are refused first). */
  readonly keepEntriesMs: number;
  readonly now: () => number;
  /**
   * Called between taking an entry's number and clearing the blog's mark: tests hold a
   * recording there to make the races they check happen.
   */
  readonly afterAppend?: (blogId: string) => Promise<void>;
}

/** Turns `feedPending` marks into log entries, so no write of a blog is missed by the feed. */
export interface ChangeRecorder {
  /** Records every marked blog of the workspace; returns the log's last number after it. */
  record(workspaceId: string): Promise<number>;
}

/**
 * A write of a blog sets its mark in the same update as the change (blog-writes.ts); `record`
 * appends one entry for every marked blog, then clears the mark if the blog was not written again
 * meanwhile (else the mark stays for the next round), and returns the log's last number, read
 * after all that.
 *
 * Why no change is ever missed: a write finished before `record` began left its blog marked,
 * or the mark was cleared by a recording that appended its entry before clearing. Either way the
 * write has an entry numbered at most the number `record` returns, made after the write, so
 * reading the blog at that entry reads the write (or a later one). A crash between append and
 * clear leaves the mark: the blog is recorded twice, which a mirror applies twice, harmlessly.
 *
 * Across instances (and the CLI) the log's numbering and the clearing's compare-and-set keep
 * recordings exact, on MongoDB and on the embedded database alike (each update is atomic on both).
 * Recordings of one workspace still take turns in this process, so that its concurrent feed
 * requests do not append entries for the same marks twice.
 */
export function changeRecorder(deps: RecorderDeps): ChangeRecorder {
  const oneAtATime = keyedQueue();
  const lastPurge = new Map<string, number>();

  const purgeIfDue = async (workspaceId: string): Promise<void> => {
    const now = deps.now();
    if (now - (lastPurge.get(workspaceId) ?? 0) < PURGE_EVERY_MS) return;
    lastPurge.set(workspaceId, now);
    await deps.log.purgeBefore(workspaceId, new Date(now - deps.keepEntriesMs));
  };

  return {
    record(workspaceId: string): Promise<number> {
      return oneAtATime(workspaceId, async () => {
        let afterId = "";
        let last: number | undefined;
        for (;;) {
          const marked = await deps.blogs.listFeedPending(workspaceId, afterId, BATCH);
          for (const blog of marked) {
            last = await deps.log.append(workspaceId, blog._id, last);
            await deps.afterAppend?.(blog._id);
            await deps.clearFeedPending(workspaceId, blog);
          }
          const end = marked.at(-1);
          if (marked.length < BATCH || end === undefined) break;
          afterId = end._id;
        }
        await purgeIfDue(workspaceId);
        return deps.log.last(workspaceId);
      });
    },
  };
}

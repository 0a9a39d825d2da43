import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import type { Logger } from "../platform/logger.js";
import type { BlogWrites } from "./blog-writes.js";

/** How often an idle scheduler looks for schedules set elsewhere: one query each time. */
export const SCHEDULE_POLL_MS = 5_000;
/** Due blogs read per query (after progress, the next query follows at once). */
const BATCH = 100;
/** Scheduled actions under way at once (their reads and writes overlap at the database). */
const CONCURRENCY = 4;

export interface BlogScheduler {
  /** A schedule was just set, its earliest time `at`: wake then if that is sooner. */
  nudge(at: Date): void;
  /** Looks now (after a look under way) and does what is due; resolves when done. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for the work under way; nothing starts afterwards. */
  close(): Promise<void>;
}

export interface BlogSchedulerOptions {
  readonly collections: Pick<Collections, "blogs">;
  /** Does a blog's due action (blog-writes.ts `fireSchedule`). */
  readonly fire: BlogWrites["fireSchedule"];
  readonly log: Logger;
  /** Epoch ms; tests pass their own. */
  readonly now?: () => number;
  readonly pollMs?: number;
}

type Due = Pick<BlogDoc, "_id" | "workspaceId" | "dueAt">;

/**
 * `due`, taking each workspace's blogs in turn (one of each, then the next of each…), so that a
 * workspace with a thousand blogs due at 9:00 does not hold back another's one.
 */
export function fairOrder(due: readonly Due[]): Due[] {
  const queues = new Map<string, Due[]>();
  for (const blog of due) {
    const queue = queues.get(blog.workspaceId) ?? [];
    queue.push(blog);
    queues.set(blog.workspaceId, queue);
  }
  const out: Due[] = [];
  for (let round = 0; out.length < due.length; round++) {
    for (const queue of queues.values()) {
      const next = queue[round];
      if (next !== undefined) out.push(next);
    }
  }
  return out;
}

/**
 * Does scheduled work when it falls due (admin.yaml, "Schedules"). Each look is one query, the
 * blogs due up to `pollMs` ahead by the index `schedule_due`, earliest first: what is due is done,
 * and the timer is set for the earliest that is not, else for `pollMs` on (an idle instance:
 * one query every 5 s). A schedule set through this instance nudges it to that time; one set
 * through another is seen at its next look. Several instances may look at once: each action is
 * a compare-and-set that takes its time off the schedule (`fireSchedule`), so it is done once,
 * and the others find nothing due. Work that fell due while no server ran is found by the first
 * look after a start (at once), in time order. Looks never overlap; failures are logged and the
 * next look is the retry.
 */
export function startBlogScheduler(options: BlogSchedulerOptions): BlogScheduler {
  const { collections, fire, log } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? SCHEDULE_POLL_MS;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const arm = (at: number) => {
    if (closed || (timer !== undefined && at >= wakeAt)) return;
    clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(
      () => {
        // Fired: no timer is set any more, so the end of this look arms the next one.
        timer = undefined;
        wakeAt = Number.POSITIVE_INFINITY;
        void start();
      },
      Math.max(0, at - now()),
    );
    timer.unref();
  };

  /**
   * Does one blog's due action; whether that moved its next time (progress: worth looking again
   * at once). A blog removed meanwhile has nothing left to do.
   */
  const fireOne = async (blog: Due, at: Date): Promise<boolean> => {
    try {
      const after = await fire(blog.workspaceId, blog._id, at);
      return after.dueAt?.getTime() !== blog.dueAt?.getTime();
    } catch (err) {
      if (!(err instanceof DomainError && err.code === "not_found")) {
        log.error({ err, blogId: blog._id }, "a scheduled blog action failed; will retry");
      }
      return false;
    }
  };

  /** One look: does what is due; returns when to look next. */
  const look = async (): Promise<number> => {
    const t = now();
    const batch = await collections.blogs
      .find<Due>(
        { dueAt: { $lte: new Date(t + pollMs) } },
        { projection: { _id: 1, workspaceId: 1, dueAt: 1 } },
      )
      .sort({ dueAt: 1, _id: 1 })
      .limit(BATCH)
      .toArray();
    const due = fairOrder(batch.filter((b) => (b.dueAt?.getTime() ?? 0) <= t));
    let done = 0;
    for (let i = 0; i < due.length; i += CONCURRENCY) {
      const slice = due.slice(i, i + CONCURRENCY);
      const results = await Promise.all(slice.map((blog) => fireOne(blog, new Date(now()))));
      done += results.filter(Boolean).length;
    }
    // Something was done: its next time (or more due) is read again at once.
    if (done > 0) return now();
    const next = batch.find((b) => (b.dueAt?.getTime() ?? 0) > t)?.dueAt?.getTime();
    return Math.min(next ?? Number.POSITIVE_INFINITY, t + pollMs);
  };

  const start = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    timer = undefined;
    wakeAt = Number.POSITIVE_INFINITY;
    running = (async () => {
      let next = now() + pollMs;
      try {
        do {
          again = false;
          next = await look();
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, "looking for scheduled blog actions failed; will retry");
        next = now() + pollMs;
      }
      running = undefined;
      arm(next);
    })();
    return running;
  };
  arm(now());

  return {
    nudge(at) {
      arm(at.getTime());
    },
    async runNow() {
      while (running !== undefined) await running;
      if (!closed) await start();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      while (running !== undefined) await running;
    },
  };
}

import { keyedQueue } from "../platform/timers/keyed-queue.js";
import type { AheadLeases } from "./ahead-leases.js";
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
/** Workspaces one process records ahead at once; the others' calls record as before. */
export const MAX_WORKSPACES_AHEAD = 2;

/**
 * Where a feed's marks are: the live feed's `feedPending` (blog-reads.ts `listFeedPending`,
 * blog-writes.ts `clearFeedPending`), or the preview feed's `previewPending` (the same, with
 * `previewMark` as the version). `M` is what a mark is cleared by.
 */
export interface FeedMarks<M extends { readonly _id: string }> {
  /**
   * The workspace's marked blogs, the first `limit` by `_id` (`order` 1), or the last (-1: the
   * recording ahead, so that it and another process's calls meet only at the end).
   */
  list(workspaceId: string, limit: number, order: 1 | -1): Promise<M[]>;
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
  /**
   * False: a call that leaves marks leaves them to the calls that follow, never recording ahead
   * (tests that race recordings by hand, where a recording of its own would change the race).
   */
  readonly recordAhead?: boolean;
  /** Who records ahead across processes (ahead-leases.ts): one at a time per workspace. */
  readonly leases: AheadLeases;
}

/** What one recording did: the log's last number after it, and whether it recorded every mark. */
export interface Recorded {
  readonly last: number;
  /** False when marks were left for the next call (the call's bound). */
  readonly complete: boolean;
  /** Entries this recording appended (one per marked blog it found). */
  readonly recorded: number;
}

/** How one `record` call records (ChangeRecorder). */
export interface RecordOptions {
  /**
   * Marks recorded at most (MAX_RECORDED_PER_CALL): `/tags`' version check, tag-counts-cache.ts,
   * records fewer.
   */
  readonly bound?: number;
  /**
   * The log's number the caller has read up to. While the workspace is recorded ahead, a call
   * answers at once unless the log ends there (the caller has read it all): then once the
   * batches in flight have moved the number.
   */
  readonly after?: number;
  /**
   * True: this call records its own batch and nothing more, even while the workspace is recorded
   * ahead, and never starts recording ahead: `/tags`' version, whose number must move if marks
   * were waiting (tag-counts-cache.ts), and which leaves the rest to the feed's calls;
   * `recordEveryMark`, a loop of its own.
   */
  readonly own?: boolean;
}

/** Turns a feed's marks into log entries, so no write of a blog is missed by the feed. */
export interface ChangeRecorder {
  /** Records the workspace's marked blogs, at most a bound of them (RecordOptions). */
  record(workspaceId: string, options?: RecordOptions): Promise<Recorded>;
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
 * A call that leaves marks also starts recording the rest ahead, in this process: batch after
 * batch, each a turn of the workspace's queue, until a batch finds fewer than a full one (or clears
 * none, or fails: the calls that follow record, and report, it then). Only the process holding the
 * workspace's lease does (ahead-leases.ts), from the last marks by `_id`, so that the calls of
 * other processes, which list the first, do not record the same blogs. A sync pages through what is
 * recorded meanwhile, so the recording and the serving of pages overlap instead of taking turns.
 * While it runs, a call records nothing itself: it answers with the log's last number and
 * `complete: false` (so the feed says `hasMore`) as soon as that number is not the caller's
 * position (at once, or after the batches in flight), and records its own batch if the recording
 * ahead ends first. Only a call's own batch can say `complete`, so the reasoning above holds as it
 * is; and a call that says `hasMore` has moved the number past its caller's position, so a sync's
 * pages never repeat a token.
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

  // One batch: a read of up to `bound` marks, one ordered insert of their entries, the clears
  // (`cleared`: how many marks they cleared; a blog written since keeps its mark).
  const batch = (
    workspaceId: string,
    bound: number,
    order: 1 | -1,
  ): Promise<Recorded & { cleared: number }> =>
    oneAtATime(workspaceId, async () => {
      const marked = await deps.marks.list(workspaceId, bound, order);
      let cleared = 0;
      if (marked.length > 0) {
        await deps.log.appendMany(
          workspaceId,
          marked.map((blog) => {
            const version = deps.marks.versionOf?.(blog);
            return version === undefined ? { blogId: blog._id } : { blogId: blog._id, version };
          }),
        );
        for (const blog of marked) await deps.afterAppend?.(blog._id);
        cleared = await deps.marks.clear(workspaceId, marked);
      }
      // A full batch may have left marks: say so (the next call finds none if it did not).
      const complete = marked.length < bound;
      await purgeIfDue(workspaceId);
      const last = await deps.log.last(workspaceId);
      return { last, complete, recorded: marked.length, cleared };
    });

  /** Each workspace this process records ahead, and its batch in flight (or its lease's keep). */
  const ahead = new Map<string, { inFlight: Promise<unknown> }>();
  /** Workspaces whose lease this process is asking for: their calls record as before meanwhile. */
  const taking = new Set<string>();
  const { leases } = deps;
  // Once this process holds the workspace's lease: batch after batch, the last marks by `_id`
  // first (a call of another process lists the first), until one finds fewer than a full batch
  // or clears none of its marks (every blog written again meanwhile: the calls that follow go
  // on, as they would without this).
  const recordAhead = async (workspaceId: string): Promise<void> => {
    if (ahead.has(workspaceId) || taking.has(workspaceId)) return;
    if (ahead.size + taking.size >= MAX_WORKSPACES_AHEAD) return;
    taking.add(workspaceId);
    const taken = await leases.take(workspaceId).finally(() => taking.delete(workspaceId));
    if (!taken) return;
    const run: { inFlight: Promise<unknown> } = { inFlight: Promise.resolve() };
    const step = <T>(work: Promise<T>): Promise<T> => {
      run.inFlight = work;
      return work;
    };
    ahead.set(workspaceId, run);
    try {
      for (;;) {
        const done = await step(batch(workspaceId, MAX_RECORDED_PER_CALL, -1));
        if (done.complete || done.cleared === 0) return;
        if (!(await step(leases.keep(workspaceId)))) return;
      }
    } finally {
      ahead.delete(workspaceId);
      await leases.give(workspaceId);
    }
  };

  return {
    async record(workspaceId, options = {}) {
      // Recorded ahead: answer once the number is not the caller's position (a full batch
      // always moves it; one past the log's end is the feed's to refuse); when the recording
      // ahead has ended, record as any call does.
      for (;;) {
        const running = options.own === true ? undefined : ahead.get(workspaceId);
        if (running === undefined) break;
        const last = await deps.log.last(workspaceId);
        if (options.after === undefined || last !== options.after) {
          return { last, complete: false, recorded: 0 };
        }
        await running.inFlight.catch(() => {});
      }
      const { cleared: _, ...recorded } = await batch(
        workspaceId,
        options.bound ?? MAX_RECORDED_PER_CALL,
        1,
      );
      if (!recorded.complete && options.own !== true && deps.recordAhead !== false) {
        // Left to the calls that follow if it fails: they record the marks again, and report it.
        recordAhead(workspaceId).catch(() => {});
      }
      return recorded;
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
    const { complete, recorded } = await recorder.record(workspaceId, { own: true });
    total += recorded;
    onBatch(total);
    if (complete) return total;
  }
}

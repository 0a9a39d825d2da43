import type { UsageOutcome } from "../platform/db/collections.js";
import type { Logger } from "../platform/logger.js";
import { type BufferMonitor, CoalescingBuffer } from "../platform/timers/coalescing-buffer.js";
import { addCounts, floorTo, HOUR_MS, type UsageCounts, zeroCounts } from "./usage-buckets.js";

/** Counts of one key in one hour, as recorded in memory. */
export interface UsageEntry {
  readonly keyId: string;
  readonly workspaceId: string;
  /** Start of the hour, epoch ms. */
  readonly hour: number;
  readonly counts: UsageCounts;
}

type Flush = (entries: readonly UsageEntry[]) => Promise<void>;

/**
 * Coalesces usage counts as `LastUsedRecorder` does `lastUsedAt` (platform/timers/coalescing-buffer.ts):
 * requests count in memory, and one batched write per window adds them to the stored buckets
 * (usage-store.ts), whatever the load. A failed flush keeps its counts for the next one;
 * `close` flushes the rest.
 */
export class UsageRecorder {
  private readonly buffer: CoalescingBuffer<UsageEntry>;

  constructor(write: Flush, windowMs: number, log: Logger, monitor?: BufferMonitor) {
    this.buffer = new CoalescingBuffer({
      write: (batch) => write([...batch.values()]),
      // The older entry is the buffer's own (a failed batch's come back once `write` is done).
      merge: (older, newer) => {
        addCounts(older.counts, newer.counts);
        return older;
      },
      windowMs,
      log,
      name: "usage",
      monitor,
    });
  }

  record(keyId: string, workspaceId: string, outcome: UsageOutcome, at: number = Date.now()): void {
    const hour = floorTo(at, HOUR_MS);
    const counts = zeroCounts();
    counts[outcome] = 1;
    this.buffer.add(`${keyId}/${hour}`, { keyId, workspaceId, hour, counts });
  }

  /** Writes everything pending now. Safe to call at any time; never rejects. */
  flush(): Promise<void> {
    return this.buffer.flush();
  }

  /** Stops the timer and flushes what is pending, once. */
  close(): Promise<void> {
    return this.buffer.close();
  }
}

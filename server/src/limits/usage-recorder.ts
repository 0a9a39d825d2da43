import type { UsageOutcome } from "../db/collections.js";
import type { Logger } from "../logger.js";
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
 * Coalesces usage counts as `LastUsedRecorder` does `lastUsedAt`: requests count in memory, and
 * one batched write per window adds them to the stored buckets (usage-store.ts), whatever the
 * load. A failed flush keeps its counts for the next one; `close` flushes the rest.
 */
export class UsageRecorder {
  private pending = new Map<string, UsageEntry>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly write: Flush,
    private readonly windowMs: number,
    private readonly log: Logger,
  ) {}

  record(keyId: string, workspaceId: string, outcome: UsageOutcome, at: number = Date.now()): void {
    this.entryOf(keyId, workspaceId, floorTo(at, HOUR_MS)).counts[outcome] += 1;
    this.schedule();
  }

  /** Writes everything pending now. Safe to call at any time; never rejects. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.write(batch)
      .catch((err: unknown) => {
        for (const entry of batch) {
          addCounts(this.entryOf(entry.keyId, entry.workspaceId, entry.hour).counts, entry.counts);
        }
        this.schedule();
        this.log.warn({ err, keys: batch.length }, "usage flush failed; will retry");
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** Stops the timer and flushes what is pending, once. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private entryOf(keyId: string, workspaceId: string, hour: number): UsageEntry {
    const id = `${keyId}/${hour}`;
    let entry = this.pending.get(id);
    if (entry === undefined) {
      entry = { keyId, workspaceId, hour, counts: zeroCounts() };
      this.pending.set(id, entry);
    }
    return entry;
  }

  private schedule(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().then(() => {
        if (this.pending.size > 0) this.schedule();
      });
    }, this.windowMs);
    this.timer.unref();
  }
}

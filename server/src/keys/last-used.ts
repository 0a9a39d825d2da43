import type { Logger } from "../logger.js";

type Flush = (entries: ReadonlyMap<string, Date>) => Promise<void>;

/**
 * Coalesces `lastUsedAt` updates: requests record in memory, and one batched write per window
 * stores the newest time of each key used in it — at most one write per key per window,
 * whatever the load. A failed flush keeps its values for the next one; `close` flushes the rest.
 */
export class LastUsedRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly write: Flush,
    private readonly windowMs: number,
    private readonly log: Logger,
  ) {}

  record(keyHash: string, at: Date = new Date()): void {
    const previous = this.pending.get(keyHash);
    if (previous === undefined || previous < at) this.pending.set(keyHash, at);
    this.schedule();
  }

  /** Writes everything pending now. Safe to call at any time; never rejects. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.write(batch)
      .catch((err: unknown) => {
        for (const [hash, at] of batch) this.record(hash, at);
        this.log.warn({ err, keys: batch.size }, "lastUsedAt flush failed; will retry");
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

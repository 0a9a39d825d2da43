import type { Logger } from "./logger.js";

export interface CoalescingBufferOptions<V> {
  /** One batched write of everything pending; a rejection keeps the batch for the next flush. */
  readonly write: (batch: ReadonlyMap<string, V>) => Promise<void>;
  /** Two values of one key, as one (the newer time, the sum of counts). */
  readonly merge: (older: V, newer: V) => V;
  readonly windowMs: number;
  readonly log: Logger;
  /** Names the buffer in the warning of a failed flush ("lastUsedAt", "usage"). */
  readonly name: string;
}

/**
 * Values recorded per request and written in one batch per window, whatever the load: at most
 * one write per key per window (keys/last-used.ts, limits/usage-recorder.ts). A failed flush
 * merges its batch back for the next one; `close` flushes the rest.
 */
export class CoalescingBuffer<V> {
  private pending = new Map<string, V>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: CoalescingBufferOptions<V>) {}

  add(key: string, value: V): void {
    const previous = this.pending.get(key);
    this.pending.set(key, previous === undefined ? value : this.options.merge(previous, value));
    this.schedule();
  }

  /** Writes everything pending now. Safe to call at any time; never rejects. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.options
      .write(batch)
      .catch((err: unknown) => {
        for (const [key, value] of batch) this.add(key, value);
        this.options.log.warn(
          { err, keys: batch.size },
          `${this.options.name} flush failed; will retry`,
        );
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
    }, this.options.windowMs);
    this.timer.unref();
  }
}

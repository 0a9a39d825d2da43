import type { Logger } from "../logger.js";

export interface CoalescingBufferOptions<V> {
  /** One batched write of everything pending; a rejection keeps the batch for the next flush. */
  readonly write: (batch: ReadonlyMap<string, V>) => Promise<void>;
  /** Two values of one key, as one (the newer time, the sum of counts). */
  readonly merge: (older: V, newer: V) => V;
  readonly windowMs: number;
  readonly log: Logger;
  /** Names the buffer in the warning of a failed flush ("lastUsedAt", "usage"). */
  readonly name: string;
  /** Told of every flush, and given the buffer's state to read when it likes (metrics). */
  readonly monitor?: BufferMonitor;
}

/** What a buffer holds now: entries waiting, and how long the oldest of them has waited. */
export interface BufferState {
  readonly pending: number;
  /** Seconds since the oldest waiting entry was recorded; 0 when none waits. */
  readonly oldestAgeSeconds: number;
}

/** Watches a buffer from outside (platform/metrics/metrics.ts, `bufferMonitor`) without reaching into it. */
export interface BufferMonitor {
  /** Called once, at construction: reads the buffer's state at any later time. */
  watch(state: () => BufferState): void;
  /** Called after each batched write: how long it took, and whether it failed. */
  flushed(seconds: number, ok: boolean): void;
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
  /** When the oldest pending entry was recorded (performance.now()); undefined when none. */
  private oldestAt: number | undefined;

  constructor(private readonly options: CoalescingBufferOptions<V>) {
    options.monitor?.watch(() => ({
      pending: this.pending.size,
      oldestAgeSeconds:
        this.oldestAt === undefined ? 0 : (performance.now() - this.oldestAt) / 1000,
    }));
  }

  add(key: string, value: V): void {
    this.oldestAt ??= performance.now();
    const previous = this.pending.get(key);
    this.pending.set(key, previous === undefined ? value : this.options.merge(previous, value));
    this.schedule();
  }

  /** Writes everything pending now. Safe to call at any time; never rejects. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    const batchSince = this.oldestAt ?? performance.now();
    this.pending = new Map();
    this.oldestAt = undefined;
    const started = performance.now();
    this.flushing = this.options
      .write(batch)
      .then(
        () => true,
        (err: unknown) => {
          for (const [key, value] of batch) this.add(key, value);
          // The batch's entries wait again, and have waited since before anything added meanwhile.
          this.oldestAt = batchSince;
          this.options.log.warn(
            { err, keys: batch.size },
            `${this.options.name} flush failed; will retry`,
          );
          return false;
        },
      )
      .then((ok) => this.options.monitor?.flushed((performance.now() - started) / 1000, ok))
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

import type { Logger } from "../platform/logger.js";
import { type BufferMonitor, CoalescingBuffer } from "../platform/timers/coalescing-buffer.js";

type Flush = (entries: ReadonlyMap<string, Date>) => Promise<void>;

/**
 * Coalesces `lastUsedAt` updates: requests record in memory, and one batched write per window
 * stores the newest time of each key used in it — at most one write per key per window,
 * whatever the load. A failed flush keeps its values for the next one; `close` flushes the rest.
 */
export class LastUsedRecorder {
  private readonly buffer: CoalescingBuffer<Date>;

  constructor(write: Flush, windowMs: number, log: Logger, monitor?: BufferMonitor) {
    this.buffer = new CoalescingBuffer({
      write,
      merge: (older, newer) => (newer > older ? newer : older),
      windowMs,
      log,
      name: "lastUsedAt",
      monitor,
    });
  }

  record(keyHash: string, at: Date = new Date()): void {
    this.buffer.add(keyHash, at);
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

import { describe, expect, it } from "vitest";
import { UsageRecorder } from "../../server/src/limits/usage-recorder.js";
import { createLogger } from "../../server/src/platform/logger.js";
import { CoalescingBuffer } from "../../server/src/platform/timers/coalescing-buffer.js";

// The write-behind of lastUsedAt and usage counts (server/src/platform/timers/coalescing-buffer.ts): values
// recorded per request are written in one batch per window, and a failed write loses nothing.

const quiet = createLogger("silent");
const sum = (a: number, b: number) => a + b;

describe("coalescing buffer: happy path", () => {
  it("merges the values of one key and writes every key once per window, in one batch", async () => {
    const batches: Map<string, number>[] = [];
    const buffer = new CoalescingBuffer<number>({
      write: async (batch) => {
        batches.push(new Map(batch));
      },
      merge: sum,
      windowMs: 20,
      log: quiet,
      name: "test",
    });
    for (let i = 0; i < 100; i++) buffer.add(i % 2 === 0 ? "a" : "b", 1);
    await new Promise((r) => setTimeout(r, 80));
    expect(batches).toEqual([
      new Map([
        ["a", 50],
        ["b", 50],
      ]),
    ]);
    await buffer.close();
  });

  it("close writes what is pending at once, without waiting for the window", async () => {
    const written: Map<string, number>[] = [];
    const buffer = new CoalescingBuffer<number>({
      write: async (batch) => {
        written.push(new Map(batch));
      },
      merge: sum,
      windowMs: 60_000,
      log: quiet,
      name: "test",
    });
    buffer.add("a", 3);
    await buffer.close();
    expect(written).toEqual([new Map([["a", 3]])]);
  });
});

describe("coalescing buffer: errors", () => {
  it("a failed write keeps its batch, merged with what came since, for the next write", async () => {
    const written: Map<string, number>[] = [];
    let fail = true;
    const buffer = new CoalescingBuffer<number>({
      write: async (batch) => {
        if (fail) throw new Error("database down");
        written.push(new Map(batch));
      },
      merge: sum,
      windowMs: 60_000,
      log: quiet,
      name: "test",
    });
    buffer.add("a", 2);
    await buffer.flush();
    buffer.add("a", 5);
    buffer.add("b", 1);
    fail = false;
    await buffer.close();
    expect(written).toEqual([
      new Map([
        ["a", 7],
        ["b", 1],
      ]),
    ]);
  });

  it("usage counts of a failed write are added to the next one, per key and hour", async () => {
    const written: { keyId: string; hour: number; ok: number; rateLimited: number }[][] = [];
    let fail = true;
    const usage = new UsageRecorder(
      async (entries) => {
        if (fail) throw new Error("database down");
        written.push(entries.map((e) => ({ keyId: e.keyId, hour: e.hour, ...e.counts })));
      },
      60_000,
      quiet,
    );
    const at = Date.UTC(2026, 10, 25, 7, 30);
    usage.record("key_a", "ws_a", "ok", at);
    usage.record("key_a", "ws_a", "rateLimited", at);
    await usage.flush();
    usage.record("key_a", "ws_a", "ok", at + 60_000);
    usage.record("key_a", "ws_a", "ok", at + 3_600_000);
    fail = false;
    await usage.close();
    const hour = Date.UTC(2026, 10, 25, 7);
    expect(written).toEqual([
      [
        expect.objectContaining({ keyId: "key_a", hour, ok: 2, rateLimited: 1 }),
        expect.objectContaining({ keyId: "key_a", hour: hour + 3_600_000, ok: 1, rateLimited: 0 }),
      ],
    ]);
  });
});

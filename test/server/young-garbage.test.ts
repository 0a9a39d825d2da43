/**
 * An upload's garbage is collected as it goes (server/src/platform/young-garbage.ts;
 * BENCHMARKS.md "Media: an upload's peak memory"): a young-generation collection frees the
 * ArrayBuffers a burst left behind, a budget asks for one every so many bytes and at the end,
 * and getting V8's collector leaves no `gc` global behind, in the app's context or a new one.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  collectYoungGarbage,
  youngGarbageBudget,
} from "../../server/src/platform/young-garbage.js";

const MB = 1024 * 1024;

/** Bytes of every ArrayBuffer alive or awaiting collection. */
const arrayBuffers = () => process.memoryUsage().arrayBuffers;

/**
 * V8 frees a collection's dead ArrayBuffers on a thread of its own, a few milliseconds later:
 * whether what is left over `base` drops under `limit` within 2 s.
 */
async function dropsUnder(base: number, limit: number): Promise<boolean> {
  const until = Date.now() + 2000;
  while (arrayBuffers() - base >= limit) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}

/** Collects, and answers the ArrayBuffers' bytes once that collection's frees are done. */
async function collected(): Promise<number> {
  collectYoungGarbage();
  let last = arrayBuffers();
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const now = arrayBuffers();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Turns `bytes` into garbage, as a request's chunks once written: 256 KB buffers, filled. */
function litter(bytes: number): void {
  for (let made = 0; made < bytes; made += 256 * 1024) Buffer.allocUnsafe(256 * 1024).fill(7);
}

describe("collecting the young generation", () => {
  it("frees the ArrayBuffers that a burst left behind", async () => {
    const base = await collected();
    // 24 MB: under the ~32 MB of young backing stores at which V8 collects on its own.
    litter(24 * MB);
    expect(arrayBuffers() - base).toBeGreaterThanOrEqual(20 * MB);
    collectYoungGarbage();
    expect(await dropsUnder(base, 2 * MB)).toBe(true);
  });

  it("asks for a collection every `every` bytes, and at the end for the rest", async () => {
    const base = await collected();
    const budget = youngGarbageBudget(8 * MB);
    for (let i = 0; i < 3; i++) {
      litter(2 * MB);
      budget.add(2 * MB);
    }
    expect(arrayBuffers() - base).toBeGreaterThanOrEqual(5 * MB);
    litter(2 * MB);
    budget.add(2 * MB);
    expect(await dropsUnder(base, 2 * MB)).toBe(true);
    litter(6 * MB);
    budget.add(6 * MB);
    expect(arrayBuffers() - base).toBeGreaterThanOrEqual(5 * MB);
    budget.end();
    expect(await dropsUnder(base, 2 * MB)).toBe(true);
  });

  it("leaves no gc function in the app's context or in a context made later", () => {
    collectYoungGarbage();
    expect("gc" in globalThis).toBe(false);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});

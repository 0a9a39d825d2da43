// The render pool's time limit counts the rendering thread's CPU time, and renders run below the
// request thread's CPU priority (README, "Fair sharing between tenants": renders;
// server/src/blogs/render-time-limit.ts, render-pool.ts).
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type BodyRenderer, renderPool } from "../../server/src/blogs/render-pool.js";
import { watchRenderTime } from "../../server/src/blogs/render-time-limit.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watches a render whose thread's CPU clock is `cpuMs()`; resolves with when it expired. */
function watched(options: { limitMs: number; wallCapMs: number; cpuMs?: () => number }) {
  const started = performance.now();
  let expiredAt: number | undefined;
  let onExpire: () => void = () => {};
  const expired = new Promise<number>((resolve) => {
    onExpire = () => resolve(performance.now() - started);
  });
  const { cpuMs } = options;
  const watch = watchRenderTime({
    limitMs: options.limitMs,
    wallCapMs: options.wallCapMs,
    ...(cpuMs === undefined ? {} : { cpu: { clock: async () => cpuMs(), startMs: cpuMs() } }),
    expire: () => {
      expiredAt = performance.now() - started;
      onExpire();
    },
  });
  return { watch, expired, expiredAt: () => expiredAt };
}

describe("render time limit: counted in the rendering thread's CPU time", () => {
  it("a render its thread got no CPU for is not cut at the limit, only at the wall-clock cap", async () => {
    const idle = watched({ limitMs: 50, wallCapMs: 2000, cpuMs: () => 0 });
    await sleep(250);
    // Five times the limit has passed on the clock, none of it rendering (the cap is far off,
    // so a stalled event loop here cannot reach it first).
    expect(idle.expiredAt()).toBeUndefined();
    expect(await idle.expired).toBeGreaterThanOrEqual(1990);
  });

  it("a render that has used the limit in CPU time is cut, however long it took to get it", async () => {
    const t0 = performance.now();
    // Gets a fifth of a core: 50 ms of CPU after 250 ms.
    const slow = watched({
      limitMs: 50,
      wallCapMs: 5000,
      cpuMs: () => (performance.now() - t0) / 5,
    });
    const at = await slow.expired;
    expect(at).toBeGreaterThanOrEqual(240);
    expect(at).toBeLessThan(5000);
  });

  it("where the thread's CPU time cannot be read, the limit is wall-clock time", async () => {
    const plain = watched({ limitMs: 50, wallCapMs: 5000 });
    const at = await plain.expired;
    expect(at).toBeGreaterThanOrEqual(45);
    expect(at).toBeLessThan(5000);
  });

  it("a render that ended is never cut afterwards", async () => {
    const ended = watched({ limitMs: 30, wallCapMs: 60, cpuMs: () => 0 });
    ended.watch.stop();
    await sleep(150);
    expect(ended.expiredAt()).toBeUndefined();
  });
});

/** Threads of this process and their nice values (Linux). */
function threadNices(): { tid: number; nice: number }[] {
  return readdirSync("/proc/self/task").flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Field 19 is the nice value; the name (field 2) may hold spaces, so count after it.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return [{ tid: Number(tid), nice: Number(fields[16]) }];
    } catch {
      return [];
    }
  });
}

describe("render pool: renders yield the CPU", () => {
  let pools: BodyRenderer[] = [];
  const pool = (timeoutMs: number, nice: number) => {
    const made = renderPool({
      timeoutMs,
      threads: 1,
      nice,
      workspacePending: 8,
      previewPerUser: 2,
    });
    pools.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.close()));
    pools = [];
  });
  const tag = { workspaceId: "ws_test" };

  it.runIf(process.platform === "linux")(
    "render threads run RENDER_NICE below the request thread's priority",
    async () => {
      const before = threadNices().filter((t) => t.nice === 10).length;
      const renderer = pool(5000, 10);
      await renderer.render("Warm *up*.", tag);
      const main = threadNices().find((t) => t.tid === process.pid);
      expect(main?.nice).toBe(0);
      expect(threadNices().filter((t) => t.nice === 10).length).toBeGreaterThan(before);
    },
  );
});

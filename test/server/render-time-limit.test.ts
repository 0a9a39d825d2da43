// The render pool's time limit counts the rendering thread's CPU time, and a long render goes on
// below the request thread's CPU priority while ordinary ones keep it (README, "Fair sharing
// between tenants": renders; server/src/blogs/render-time-limit.ts, render-pool.ts).
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type BodyRenderer, renderPool } from "../../server/src/blogs/render-pool.js";
import { watchRenderTime } from "../../server/src/blogs/render-time-limit.js";
import { fill } from "../support/pathological-markdown.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watches a render whose thread's CPU clock is `cpuMs()`; resolves with when it expired. */
function watched(options: {
  limitMs: number;
  wallCapMs: number;
  cpuMs?: () => number;
  demote?: { afterMs: number; action: () => void };
}) {
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
    ...(options.demote === undefined ? {} : { demote: options.demote }),
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

  it("a render is demoted once, when it has used the demotion's CPU time, and not before", async () => {
    let cpu = 0;
    const demotions: number[] = [];
    const render = watched({
      limitMs: 1000,
      wallCapMs: 5000,
      cpuMs: () => cpu,
      demote: { afterMs: 40, action: () => demotions.push(cpu) },
    });
    await sleep(120);
    cpu = 39;
    await sleep(120);
    expect(demotions).toEqual([]);
    cpu = 45;
    await sleep(120);
    cpu = 200;
    await sleep(120);
    expect(demotions).toEqual([45]);
    expect(render.expiredAt()).toBeUndefined();
    render.watch.stop();
  });

  it("without the thread's CPU clock a render is never demoted", async () => {
    const demotions: number[] = [];
    const plain = watched({
      limitMs: 200,
      wallCapMs: 5000,
      demote: { afterMs: 10, action: () => demotions.push(1) },
    });
    await plain.expired;
    expect(demotions).toEqual([]);
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

/** Nice values of this process's threads, by thread id. */
const nicesNow = () => new Map(threadNices().map((t) => [t.tid, t.nice]));

/** Threads at `nice` now that were not before. */
const newAt = (nice: number, before: Map<number, number>) =>
  threadNices().filter((t) => t.nice === nice && !before.has(t.tid));

describe("render pool: long renders yield the CPU, ordinary ones keep it", () => {
  let pools: BodyRenderer[] = [];
  const pool = (options: { timeoutMs: number; nice: number; niceAfterMs: number }) => {
    const made = renderPool({ ...options, threads: 1, workspacePending: 8, previewPerUser: 2 });
    pools.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.close()));
    pools = [];
  });
  const tag = { workspaceId: "ws_test" };
  const linux = process.platform === "linux" && typeof process.threadCpuUsage === "function";

  it.runIf(linux)(
    "an ordinary render runs at the request thread's priority, however many there are",
    async () => {
      const before = nicesNow();
      const renderer = pool({ timeoutMs: 5000, nice: 10, niceAfterMs: 1000 });
      for (let i = 0; i < 20; i++) {
        const out = await renderer.render(`Body *${i}*.`, tag);
        expect(out.bodyHtml).toContain(`<em>${i}</em>`);
      }
      expect(nicesNow().get(process.pid)).toBe(0);
      expect(newAt(10, before)).toEqual([]);
    },
  );

  it.runIf(linux)(
    "a render past RENDER_NICE_AFTER_MS of CPU goes on RENDER_NICE lower, and its thread is replaced once it ends",
    async () => {
      const before = nicesNow();
      const renderer = pool({ timeoutMs: 20_000, nice: 10, niceAfterMs: 20 });
      await renderer.render("Warm *up*.", tag);
      // Quadratic in marked: hundreds of ms of CPU, well under the limit.
      const slow = renderer.render(fill("_a", 25_000), tag);
      const lowered = new Set<number>();
      let done = false;
      const settled = slow.finally(() => {
        done = true;
      });
      while (!done) {
        for (const t of newAt(10, before)) lowered.add(t.tid);
        await sleep(5);
      }
      const out = await settled;
      expect(out.bodyHtml.length).toBeGreaterThan(0);
      expect(lowered.size).toBe(1);
      // The lowered thread is gone by the time the render answers, its replacement ready at the
      // request thread's priority: the next render (of any workspace) is not held back by it.
      const [tid] = [...lowered];
      expect(nicesNow().has(tid ?? 0)).toBe(false);
      expect(newAt(10, before)).toEqual([]);
      const next = await renderer.render("After *it*.", { workspaceId: "ws_other" });
      expect(next.bodyHtml).toContain("<em>it</em>");
      expect(newAt(10, before)).toEqual([]);
    },
  );

  it.runIf(linux)("with RENDER_NICE=0 no render is lowered", async () => {
    const before = nicesNow();
    const renderer = pool({ timeoutMs: 20_000, nice: 0, niceAfterMs: 1 });
    await renderer.render(fill("_a", 20_000), tag);
    expect([...nicesNow()].filter(([tid, n]) => !before.has(tid) && n !== 0)).toEqual([]);
  });
});

// The render pool's turns and limits (README, "Production": renders are admitted per workspace;
// server/src/blogs/fair-render-queue.ts), with renders that end when the test says so.
import { describe, expect, it } from "vitest";
import { fairRenderQueue, type RenderTag } from "../../server/src/blogs/fair-render-queue.js";
import { heldJobs, refusal } from "../support/held-jobs.js";

const LIMITS = {
  running: 2,
  workspaceRunning: 1,
  workspacePending: 3,
  previewPerUser: 2,
  maxPending: 6,
  retryAfterSeconds: 2,
};

/** A queue whose renders record their start and wait to be finished by the test. */
function harness(limits = LIMITS) {
  const queue = fairRenderQueue(limits);
  const held = heldJobs();
  const submit = (name: string, tag: RenderTag) => queue.run(tag, held.job(name));
  return { queue, started: held.started, submit, end: held.end };
}

describe("fair render queue: turns", () => {
  it("a workspace runs at most workspaceRunning renders; the free thread goes to the next workspace", async () => {
    const h = harness();
    const a = ["a1", "a2", "a3"].map((n) => h.submit(n, { workspaceId: "A" }));
    const b = h.submit("b1", { workspaceId: "B" });
    expect(h.started).toEqual(["a1", "b1"]);
    await h.end("b1");
    // B has nothing waiting: A may not take the second thread (its own cap).
    expect(h.started).toEqual(["a1", "b1"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "b1", "a2"]);
    await h.end("a2");
    await h.end("a3");
    await expect(Promise.all([...a, b])).resolves.toEqual(["a1", "a2", "a3", "b1"]);
    expect(h.queue.counts()).toEqual({ running: 0, heavyRunning: 0, pending: 0, workspaces: 0 });
  });

  it("workspaces waiting are served round-robin, whoever queued more", async () => {
    const h = harness({ ...LIMITS, running: 1, workspacePending: 5, maxPending: 20 });
    for (const n of ["a1", "a2", "a3"]) void h.submit(n, { workspaceId: "A" });
    for (const n of ["b1", "b2"]) void h.submit(n, { workspaceId: "B" });
    void h.submit("c1", { workspaceId: "C" });
    // A's second render was waiting before B's first came: then one of each, in turn, however
    // many A has queued.
    for (const n of ["a1", "a2", "b1", "c1", "a3", "b2"]) {
      expect(h.started.at(-1)).toBe(n);
      await h.end(n);
    }
  });
});

describe("fair render queue: heavy jobs", () => {
  const heavyHarness = () => {
    const queue = fairRenderQueue({ ...LIMITS, running: 2, heavyRunning: 1, maxPending: 20 });
    const held = heldJobs();
    const submit = (name: string, workspaceId: string, heavy = false) =>
      queue.run({ workspaceId }, held.job(name), heavy);
    return { queue, started: held.started, submit, end: held.end };
  };

  it("runs at most heavyRunning heavy jobs at once; a light one takes the other thread", async () => {
    const h = heavyHarness();
    void h.submit("a1", "A", true);
    void h.submit("b1", "B", true);
    void h.submit("c1", "C");
    // B's heavy job waits for A's; C's light one, queued after it, starts beside A's.
    expect(h.started).toEqual(["a1", "c1"]);
    expect(h.queue.counts()).toMatchObject({ running: 2, heavyRunning: 1 });
    await h.end("c1");
    expect(h.started).toEqual(["a1", "c1"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "c1", "b1"]);
    await h.end("b1");
    expect(h.queue.counts()).toEqual({ running: 0, heavyRunning: 0, pending: 0, workspaces: 0 });
  });

  it("a heavy job passed over keeps its turn: it starts before heavy jobs queued after it", async () => {
    const h = heavyHarness();
    void h.submit("a1", "A", true);
    void h.submit("b1", "B", true);
    void h.submit("c1", "C", true);
    void h.submit("d1", "D");
    void h.submit("d2", "D");
    expect(h.started).toEqual(["a1", "d1"]);
    await h.end("d1");
    expect(h.started).toEqual(["a1", "d1", "d2"]);
    await h.end("a1");
    expect(h.started.at(-1)).toBe("b1");
    await h.end("d2");
    expect(h.started).toEqual(["a1", "d1", "d2", "b1"]);
    await h.end("b1");
    expect(h.started.at(-1)).toBe("c1");
  });

  it("a workspace passed over keeps its place: its heavy job starts before a later workspace's", async () => {
    const h = heavyHarness();
    void h.submit("a1", "A", true);
    void h.submit("b1", "B", true);
    void h.submit("c1", "C");
    expect(h.started).toEqual(["a1", "c1"]);
    // C's heavy job comes after B's, while B is passed over.
    void h.submit("c2", "C", true);
    await h.end("c1");
    expect(h.started).toEqual(["a1", "c1"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "c1", "b1"]);
    await h.end("b1");
    expect(h.started.at(-1)).toBe("c2");
  });

  it("a workspace's light job starts while its own heavy one waits for the cap", async () => {
    const h = heavyHarness();
    void h.submit("a1", "A", true);
    void h.submit("b1", "B", true);
    void h.submit("b2", "B");
    expect(h.started).toEqual(["a1", "b2"]);
    await h.end("a1");
    // B runs one job at a time (workspaceRunning): its heavy one waits for its light one.
    expect(h.started).toEqual(["a1", "b2"]);
    await h.end("b2");
    expect(h.started).toEqual(["a1", "b2", "b1"]);
  });

  it("work that throws at once is a rejection, and frees its thread and its heavy place", async () => {
    const h = heavyHarness();
    const throwing = h.queue.run(
      { workspaceId: "A" },
      () => {
        throw new Error("thrown at once");
      },
      true,
    );
    await expect(throwing).rejects.toThrow("thrown at once");
    expect(h.queue.counts()).toEqual({ running: 0, heavyRunning: 0, pending: 0, workspaces: 0 });
    void h.submit("b1", "B", true);
    expect(h.started).toEqual(["b1"]);
  });

  it("refuses a heavyRunning below 1 or above running", () => {
    expect(() => fairRenderQueue({ ...LIMITS, heavyRunning: 0 })).toThrow(
      "heavyRunning must be 1 to running (2), not 0",
    );
    expect(() => fairRenderQueue({ ...LIMITS, heavyRunning: 3 })).toThrow(/not 3/);
  });

  it("a failed heavy job frees its place for the next", async () => {
    const h = heavyHarness();
    const failing = h.queue.run(
      { workspaceId: "A" },
      async () => {
        throw new Error("decoder failed");
      },
      true,
    );
    void h.submit("b1", "B", true);
    await expect(failing).rejects.toThrow("decoder failed");
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.started).toEqual(["b1"]);
  });

  it("without heavyRunning, heavy jobs take every thread as light ones do", () => {
    const h = harness();
    void h.queue.run({ workspaceId: "A" }, async () => "a1", true);
    void h.queue.run({ workspaceId: "B" }, async () => "b1", true);
    expect(h.queue.counts()).toMatchObject({ running: 2, heavyRunning: 2 });
  });
});

describe("fair render queue: limits", () => {
  it("past workspacePending the workspace is refused, naming the limit; another is not", () => {
    const h = harness();
    for (const n of ["a1", "a2", "a3"]) void h.submit(n, { workspaceId: "A" });
    const err = refusal(() => h.submit("a4", { workspaceId: "A" }));
    expect(err.code).toBe("unavailable");
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.message).toBe(
      "This workspace already has 3 blog bodies rendering or waiting to render, the most one workspace may have at once; retry shortly.",
    );
    expect(() => h.submit("b1", { workspaceId: "B" })).not.toThrow();
  });

  it("past previewPerUser a person's previews are refused; their saves and others' previews are not", () => {
    const h = harness({ ...LIMITS, workspacePending: 5, maxPending: 20 });
    void h.submit("p1", { workspaceId: "A", previewBy: "u1" });
    void h.submit("p2", { workspaceId: "A", previewBy: "u1" });
    const err = refusal(() => h.submit("p3", { workspaceId: "A", previewBy: "u1" }));
    expect(err.message).toBe(
      "You already have 2 previews rendering or waiting to render, the most one person may have at once; retry shortly.",
    );
    expect(() => h.submit("s1", { workspaceId: "A" })).not.toThrow();
    expect(() => h.submit("q1", { workspaceId: "A", previewBy: "u2" })).not.toThrow();
  });

  it("past maxPending in all, everyone is refused as the server's backstop", () => {
    const h = harness();
    for (const ws of ["A", "B"]) {
      for (const n of [1, 2, 3]) void h.submit(`${ws}${n}`, { workspaceId: ws });
    }
    const err = refusal(() => h.submit("c1", { workspaceId: "C" }));
    expect(err.message).toBe("The server is busy rendering other blogs; retry shortly.");
  });

  it("a refused or failed render frees its place", async () => {
    const h = harness({ ...LIMITS, workspacePending: 1 });
    const failing = h.queue.run({ workspaceId: "A" }, async () => {
      throw new Error("render failed");
    });
    await expect(failing).rejects.toThrow("render failed");
    expect(h.queue.counts()).toEqual({ running: 0, heavyRunning: 0, pending: 0, workspaces: 0 });
    expect(() => h.submit("a2", { workspaceId: "A" })).not.toThrow();
  });
});

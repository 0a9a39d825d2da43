/**
 * Image work is admitted per workspace (README "Copies are made once"; admin.yaml `MediaBusy`;
 * server/src/media/media-pool.ts): one image of a workspace at a time and two in all, of which
 * one heavy (an AVIF decoded or encoded whole: image-memory.ts), so another workspace's image
 * starts at once beside a busy one; past 32 of one workspace waiting or running, that workspace
 * alone is refused with 503 and `Retry-After: 1`.
 */
import { describe, expect, it } from "vitest";
import { mediaPool } from "../../server/src/media/media-pool.js";
import { heldJobs, refusal } from "../support/held-jobs.js";

/** A pool whose jobs run until `end(name)`; `started` lists them in the order they began. */
function harness() {
  const pool = mediaPool();
  const held = heldJobs();
  const submit = (name: string, workspaceId: string, heavy = false) =>
    pool.run(workspaceId, held.job(name), heavy);
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { submit, started: held.started, end: held.end, settle };
}

describe("the media pool", () => {
  it("runs one image of a workspace at a time, and another workspace's beside it at once", async () => {
    const h = harness();
    const a = ["a1", "a2", "a3"].map((n) => h.submit(n, "A"));
    const b = h.submit("b1", "B");
    await h.settle();
    expect(h.started).toEqual(["a1", "b1"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "b1", "a2"]);
    await h.end("b1");
    await h.end("a2");
    await h.end("a3");
    await expect(Promise.all([...a, b])).resolves.toEqual(["a1", "a2", "a3", "b1"]);
  });

  it("runs one heavy image at a time (image-memory.ts); a light one of a third workspace beside it", async () => {
    const h = harness();
    const a = h.submit("a1", "A", true);
    const b = h.submit("b1", "B", true);
    const c = h.submit("c1", "C");
    await h.settle();
    expect(h.started).toEqual(["a1", "c1"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "c1", "b1"]);
    await h.end("b1");
    await h.end("c1");
    await expect(Promise.all([a, b, c])).resolves.toEqual(["a1", "b1", "c1"]);
  });

  it("refuses a workspace's 33rd image with 503 and Retry-After 1; another workspace's is taken", async () => {
    const h = harness();
    const a = Array.from({ length: 32 }, (_, i) => h.submit(`a${i + 1}`, "A"));
    expect(refusal(() => h.submit("a33", "A"))).toMatchObject({
      code: "unavailable",
      retryAfterSeconds: 1,
      message: "Too many images of this workspace are being processed: try again in 1 second.",
    });
    const b = h.submit("b1", "B");
    await h.settle();
    expect(h.started).toEqual(["a1", "b1"]);
    await h.end("b1");
    for (let i = 1; i <= 32; i++) await h.end(`a${i}`);
    await expect(Promise.all([...a, b])).resolves.toHaveLength(33);
    expect(h.started).not.toContain("a33");
  });
});

// Due schedules take turns by workspace (README, "Schedules"; blogs/blog-scheduler.ts): one blog
// of each workspace, then the next of each, so a workspace with a thousand releases due at once
// does not hold back another's one; within a workspace the earliest stays first.
import { describe, expect, it } from "vitest";
import { fairOrder } from "../../server/src/blogs/blog-scheduler.js";

const due = (workspaceId: string, id: string, ms: number) => ({
  _id: id,
  workspaceId,
  dueAt: new Date(ms),
});

describe("due schedules take turns by workspace", () => {
  it("a busy workspace's thousand do not come before another's one", () => {
    const busy = Array.from({ length: 1000 }, (_, i) => due("ws_busy", `b_busy${i}`, i));
    const order = fairOrder([...busy, due("ws_quiet", "b_quiet", 5000)]);
    expect(order).toHaveLength(1001);
    expect(order.findIndex((b) => b._id === "b_quiet")).toBe(1);
    expect(order.filter((b) => b.workspaceId === "ws_busy").map((b) => b._id)).toEqual(
      busy.map((b) => b._id),
    );
  });

  it("takes one of each workspace per round, each workspace's in the order given", () => {
    const order = fairOrder([
      due("ws_a", "a1", 1),
      due("ws_a", "a2", 2),
      due("ws_a", "a3", 3),
      due("ws_b", "b1", 4),
      due("ws_c", "c1", 5),
      due("ws_b", "b2", 6),
    ]);
    expect(order.map((b) => b._id)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });
});

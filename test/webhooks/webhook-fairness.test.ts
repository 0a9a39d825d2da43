// Each workspace gets a fair share of the delivery pool (README, "Webhooks": fair share and
// limits): one workspace's endpoints that never answer, and its backlog of due deliveries, hold
// at most WEBHOOK_WORKSPACE_IN_FLIGHT attempts of an instance, so another workspace's events go
// out at once.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  WebhookDeliveryDoc,
  WebhookEventDoc,
} from "../../server/src/platform/db/collections.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { FairShare } from "../../server/src/webhooks/fair-share.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { onFileEnd } from "../support/cleanup.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";
import { startReceiver, waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi, endpointsOf, newWorkspace } from "./support.js";

/** Connections open now to any of the silent servers, and the most there were at once. */
const load = { open: 0, mostAtOnce: 0 };

/** A TCP server on loopback that accepts connections and never says a word. */
async function silentServer() {
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    load.open++;
    load.mostAtOnce = Math.max(load.mostAtOnce, load.open);
    socket.on("error", () => {});
    socket.on("close", () => {
      open.delete(socket);
      load.open--;
    });
    socket.resume(); // read the request, answer nothing
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = async () => {
    for (const s of open) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onFileEnd(close);
  return { url: `http://127.0.0.1:${port}/hook`, close };
}

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});
let silent: Awaited<ReturnType<typeof silentServer>>[] = [];
afterAll(async () => {
  // Their attempts end at once (connection closed) rather than at WEBHOOK_TIMEOUT_MS.
  await Promise.all(silent.map((s) => s.close()));
});

describe("happy: a workspace's stalled endpoints hold back no other workspace (README, Webhooks: fair share)", () => {
  it("workspace B's five endpoints that never answer, with 150 test events due, take at most its share (4) of the pool, and workspace A's release reaches its receiver within 5 s (it waited for B's 10 s timeouts before)", async () => {
    const c = collections(t.db);
    const endpoints = endpointsOf(t.db);
    // Workspace B: five endpoints that accept connections and never answer.
    const wsB = "ws_FairShareStalled01";
    silent = await Promise.all(Array.from({ length: 5 }, () => silentServer()));
    const stalled = [];
    for (const s of silent) {
      const { endpoint } = await endpoints.create(wsB, { url: s.url, events: ALL_EVENTS }, null);
      stalled.push(endpoint);
    }
    // 150 test events, 30 per endpoint, all due before anything of workspace A.
    const now = Date.now();
    const events: WebhookEventDoc[] = [];
    const deliveries: WebhookDeliveryDoc[] = [];
    for (let i = 0; i < 150; i++) {
      const endpoint = stalled[i % 5];
      if (endpoint === undefined) throw new Error("no endpoint");
      const n = String(i).padStart(4, "0");
      const at = new Date(now - 60_000 + i);
      events.push({
        _id: `evt_FairTest${n}`,
        workspaceId: wsB,
        type: "webhook.test",
        occurredAt: at,
        blogId: null,
        slug: null,
        seq: 0,
        endpointId: endpoint._id,
      });
      deliveries.push({
        _id: `dlv_FairTest${n}`,
        eventId: `evt_FairTest${n}`,
        endpointId: endpoint._id,
        workspaceId: wsB,
        eventType: "webhook.test",
        blogId: null,
        seq: 0,
        state: "pending",
        attempts: 0,
        nextAttemptAt: at,
        redeliveryOf: null,
        manual: true,
        createdAt: at,
        settledAt: null,
      });
    }
    await c.webhookEvents.insertMany(events);
    await c.webhookDeliveries.insertMany(deliveries);

    // The default WEBHOOK_TIMEOUT_MS (10 s): a stalled attempt holds its slot that long.
    const server = await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
    const admin = new AdminClient(server.url);
    expect((await admin.post("/setup", OWNER)).status).toBe(201);
    // B's attempts are under way, stalled.
    await waitFor("workspace B's attempts to connect", () => load.open >= 4, 10_000);

    // Workspace A: a healthy receiver, and a release.
    const wsA = await newWorkspace(admin, "Fair share A");
    const receiver = await startReceiver();
    await endpoints.create(wsA, { url: receiver.url, events: ["blog.released"] }, null);
    const released = Date.now();
    const blogId = await blogApi(admin, wsA).create("Fair share", true);
    // Generous on a busy 2-core machine; far below the 10 s that B's stalled attempts hold a slot.
    await waitFor("workspace A's delivery", () => receiver.received.length > 0, 5_000);
    const tookMs = Date.now() - released;
    expect(tookMs).toBeLessThan(5_000);
    expect(JSON.parse(receiver.received[0]?.body ?? "{}").data.blogId).toBe(blogId);

    // B never had more than its share in flight (WEBHOOK_WORKSPACE_IN_FLIGHT, default 4).
    expect(load.mostAtOnce).toBe(4);
  }, 60_000);
});

describe("happy: free slots go round-robin across workspaces (README, Webhooks: fair share)", () => {
  const due = (id: string, workspaceId: string, endpointId: string): WebhookDeliveryDoc => ({
    _id: id,
    eventId: `evt_${id}`,
    endpointId,
    workspaceId,
    eventType: "webhook.test",
    blogId: null,
    seq: 0,
    state: "pending",
    attempts: 0,
    nextAttemptAt: new Date(0),
    redeliveryOf: null,
    createdAt: new Date(0),
    settledAt: null,
  });

  it("with one slot free per poll and workspace A's deliveries oldest, the slots go to A, B, C, A in turn, not A, A, A (the worker's FairShare)", () => {
    const inFlight = new Map<string, readonly [string, string]>();
    // A pool of 4 with 3 slots held by another workspace: one free slot per poll.
    for (const id of ["x1", "x2", "x3"]) inFlight.set(id, ["ws_X", "we_X"]);
    const share = new FairShare({ total: 4, perEndpoint: 4, perWorkspace: 4 }, inFlight);
    // Due deliveries, oldest first, as the worker's pages list them.
    const pages = [
      due("a1", "ws_A", "we_A"),
      due("a2", "ws_A", "we_A"),
      due("a3", "ws_A", "we_A"),
      due("b1", "ws_B", "we_B"),
      due("c1", "ws_C", "we_C"),
    ];
    const served: string[] = [];
    for (let poll = 0; poll < 4; poll++) {
      share.reset();
      for (const d of pages) if (!served.includes(d._id) && share.fits(d)) share.add(d);
      const chosen = share.choose();
      expect(chosen).toHaveLength(1);
      served.push(chosen[0]?._id ?? "");
      // Each attempt ends before the next poll: the slot is free again.
    }
    expect(served).toEqual(["a1", "b1", "c1", "a2"]);
  });

  it("a workspace at its share is left out of the due pages, and its candidates stop at the share", () => {
    const inFlight = new Map<string, readonly [string, string]>([["b0", ["ws_B", "we_B1"]]]);
    const share = new FairShare({ total: 16, perEndpoint: 4, perWorkspace: 2 }, inFlight);
    share.reset();
    const b1 = due("b1", "ws_B", "we_B2");
    const b2 = due("b2", "ws_B", "we_B3");
    expect(share.fits(b1)).toBe(true);
    share.add(b1);
    expect(share.fits(b2)).toBe(false);
    expect(share.saturated().workspaces).toEqual(["ws_B"]);
    expect(share.choose().map((d) => d._id)).toEqual(["b1"]);
  });
});

// A webhook attempt that cannot connect gives up after WEBHOOK_CONNECT_TIMEOUT_MS, not after the
// whole attempt's WEBHOOK_TIMEOUT_MS (README, "Webhooks": fair share and limits; "Configuration").
import { spawn } from "node:child_process";
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { type Resolve, safeSender } from "../../server/src/webhooks/safe-send.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { onFileEnd } from "../support/cleanup.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";
import { waitFor } from "../support/webhook-receiver.js";
import { newWorkspace } from "./support.js";

/**
 * A loopback port where a TCP handshake never completes: a process listens with a backlog of 1
 * and then blocks its event loop (so it never accepts), and the accept queue is filled; Linux
 * then drops further SYNs, and a client's connect waits as for a host that does not answer.
 */
async function portThatNeverConnects(): Promise<number> {
  const script = `
    const net = require("node:net");
    const server = net.createServer();
    server.listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
      process.stdout.write(server.address().port + "\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  onFileEnd(() => {
    child.kill("SIGKILL");
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  const fillers: net.Socket[] = [];
  onFileEnd(() => {
    for (const s of fillers) s.destroy();
  });
  let connected = 0;
  for (let i = 0; i < 4; i++) {
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => {});
    s.on("connect", () => connected++);
    fillers.push(s);
  }
  // The queue is full once two have connected (backlog 1 holds two); the others wait too.
  await waitFor("the accept queue to fill", () => connected >= 2, 5_000);
  // And a probe of our own confirms that a connection now hangs.
  const probe = net.connect(port, "127.0.0.1");
  probe.on("error", () => {});
  fillers.push(probe);
  await new Promise((r) => setTimeout(r, 300));
  expect(probe.connecting).toBe(true);
  return port;
}

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

describe("unhappy: a receiver that never completes a connection (README, Webhooks)", () => {
  it("with WEBHOOK_CONNECT_TIMEOUT_MS=1000 and WEBHOOK_TIMEOUT_MS=10000, the attempt fails after about 1 s as 'could not connect within 1 s', not after 10 s", async () => {
    const port = await portThatNeverConnects();
    const server = await startTestServer(t.db, {
      WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
      WEBHOOK_TIMEOUT_MS: "10000",
      WEBHOOK_CONNECT_TIMEOUT_MS: "1000",
    });
    const admin = new AdminClient(server.url);
    expect((await admin.post("/setup", OWNER)).status).toBe(201);
    const ws = await newWorkspace(admin, "Connect timeout");
    const created = await admin.post<{ endpoint: { id: string } }>(`/workspaces/${ws}/webhooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      events: ["blog.released"],
    });
    expect(created.status).toBe(201);
    const endpointId = created.body.endpoint.id;
    const sent = await admin.post(`/workspaces/${ws}/webhooks/${endpointId}/test`);
    expect(sent.status).toBe(202);

    const attempts = collections(t.db).webhookAttempts;
    // Well before the 10 s of the whole attempt (which is what it took without a connect timeout).
    await waitFor(
      "the attempt to be recorded",
      async () => (await attempts.countDocuments({ endpointId, finishedAt: { $ne: null } })) > 0,
      7_000,
    );
    const [attempt] = await attempts.find({ endpointId }).toArray();
    expect(attempt?.error).toBe("could not connect within 1 s");
    expect(attempt?.statusCode).toBeNull();
    expect(attempt?.latencyMs).toBeGreaterThanOrEqual(900);
    expect(attempt?.latencyMs).toBeLessThan(7_000);
  }, 60_000);

  it("a name whose lookup never ends gives up at the connect timeout too (the sender itself, WEBHOOK_CONNECT_TIMEOUT_MS=500 within 5 s)", async () => {
    const hang: Resolve = () => new Promise(() => {});
    const started = Date.now();
    const outcome = await safeSender(
      { allowHttpLoopback: false },
      { resolve: hang },
    )({
      url: "https://hooks.never-resolves.example.com/hook",
      headers: { "webhook-id": "evt_1" },
      body: "{}",
      timeoutMs: 5000,
      connectTimeoutMs: 500,
    });
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: null,
      error: "could not connect within 0.5 s",
    });
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("refuses to start with a connect timeout longer than the attempt's", async () => {
    const { loadConfig } = await import("../../server/src/platform/config.js");
    expect(() =>
      loadConfig({ WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_CONNECT_TIMEOUT_MS: "3000" }),
    ).toThrow(/WEBHOOK_CONNECT_TIMEOUT_MS \(3000\) must not exceed WEBHOOK_TIMEOUT_MS \(2000\)/);
    expect(loadConfig({}).webhookLimits.connectTimeoutMs).toBe(3000);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: "2000" }).webhookLimits.connectTimeoutMs).toBe(2000);
  });
});

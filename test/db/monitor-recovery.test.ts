import net from "node:net";
import type { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { connectMongo } from "../../server/src/platform/db/mongo.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { firstHost, proxiedUri, TcpProxy } from "../support/tcp-proxy.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The driver's monitor polls (one `hello` every 10 s) only servers without a topologyVersion,
// such as the embedded FerretDB; MongoDB streams its heartbeats instead, and resets a stuck
// monitor on its own. With MONGODB_URI the heartbeat this test stalls may never be sent.
const external = (process.env.MONGODB_URI ?? "") !== "";
const SKIP_REASON =
  "MONGODB_URI is set: this test stalls a polled heartbeat, which only the embedded database's " +
  "monitor sends";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Makes the next polled heartbeat (`{hello: 1}` without handshake metadata) to `port` hang as
 * driver 7.9's do after a dropped connection: `socket.write` returns false and writes nothing, so no `drain`
 * ever comes; the driver's socket timeout then destroys the socket without an error, and the
 * heartbeat waits for `drain` for good. (In the wild: a heartbeat written to a socket Node has
 * destroyed but not yet reported closed — see server/src/platform/db/mongo.ts.)
 */
function stallNextHeartbeat(port: number): { stalled: Promise<void>; restore: () => void } {
  const original = net.Socket.prototype.write;
  let stalled: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    stalled = resolve;
  });
  let done = false;
  const restore = () => {
    net.Socket.prototype.write = original;
  };
  net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]): boolean {
    const [chunk] = args;
    const heartbeat =
      !done &&
      this.remotePort === port &&
      chunk instanceof Uint8Array &&
      Buffer.from(chunk).includes("hello\0") &&
      !Buffer.from(chunk).includes("client\0");
    if (heartbeat) {
      done = true;
      restore();
      stalled();
      return false;
    }
    return (original as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof original;
  return { stalled: promise, restore };
}

let t: TestDb;
let proxy: TcpProxy;
let client: MongoClient;
let server: TestServer;
let a: SeededWorkspace;
const monitorResets: string[] = [];

beforeAll(async () => {
  if (external) return;
  t = await useTestDb();
  a = await seedWorkspace(t.db, "Monitor");
  const { host, port } = firstHost(t.uri);
  proxy = new TcpProxy(host, port);
  await proxy.start();
  client = await connectMongo(proxiedUri(t.uri, proxy.port), 1000, (m) => monitorResets.push(m));
  const db = client.db(t.name);
  await ensureIndexes(db);
  server = await startTestServer(db, { DB_TIMEOUT_MS: "1000" });
});
afterAll(async () => {
  if (external) return;
  await server.stop();
  await client.close();
  await proxy.stop();
});

describe("a driver heartbeat that never ends", () => {
  it("does not leave the server unable to recover: the client reconnects itself, and a later outage ends in 200s again within 5 s", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const url = `${server.url}/api/consumer/blogs`;
    expect((await get(url, { "x-api-key": a.key })).status).toBe(200);

    // The monitor polls every 10 s: its next heartbeat hangs.
    const stall = stallNextHeartbeat(proxy.port);
    try {
      await Promise.race([
        stall.stalled,
        sleep(15_000).then(() => {
          throw new Error("no heartbeat within 15 s");
        }),
      ]);
    } finally {
      stall.restore();
    }
    // Within its bound (2 × 1 s + 1 s) and the watchdog's period, the client reconnects.
    const stalledAt = Date.now();
    while (monitorResets.length === 0 && Date.now() - stalledAt < 10_000) await sleep(100);
    expect(monitorResets).toHaveLength(1);
    expect(monitorResets[0]).toMatch(/heartbeat to 127\.0\.0\.1:\d+ has been running/);

    // An outage that marks the server unknown (an operation in flight when the connections
    // drop): without a working monitor it would never be marked reachable again.
    proxy.hold();
    const inFlight = get(url, { "x-api-key": a.key });
    await sleep(200);
    await proxy.stop();
    proxy.release();
    expect((await inFlight).status).toBe(500);
    await proxy.start();
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 5000) {
      status = (await get(url, { "x-api-key": a.key })).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
  }, 60_000);
});

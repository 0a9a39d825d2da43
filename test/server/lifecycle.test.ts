import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashKey } from "../../server/src/keys/key-format.js";
import { CLI_PATH, runCli, type ServerProcess, startServerProcess } from "../support/cli.js";
import { get, seedWorkspace } from "../support/fixtures.js";
import { unthrottle } from "../support/rate-limits.js";
import { pipeliningClient } from "../support/raw-http.js";
import { firstHost, proxiedUri, TcpProxy } from "../support/tcp-proxy.js";
import { useTestDb } from "../support/test-db.js";

/**
 * The product as an operator runs it: `pressroom start` (what `npm start` runs) as its own
 * process with no MONGODB_URI, so it starts the embedded database in DATA_DIR.
 */
type Started = ServerProcess;
const startServer = (env: Record<string, string>) => startServerProcess(env);

let dataDir: string;
let env: Record<string, string>;
const running: Started[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-lifecycle-"));
  // lastUsedAt is flushed only at shutdown in this file: proves the shutdown flush.
  env = { DATA_DIR: dataDir, LAST_USED_FLUSH_MS: "3600000", LOG_LEVEL: "info" };
});
afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm start with the embedded database, and a graceful SIGTERM", () => {
  it("serves health, readiness and docs; the CLI finds the running embedded database", async () => {
    const server = await startServer(env);
    running.push(server);
    expect((await get(`${server.url}/healthz`)).body).toEqual({ status: "ok" });
    expect((await get(`${server.url}/readyz`)).body).toEqual({ status: "ok" });
    expect((await get(`${server.url}/docs`)).status).toBe(200);

    const seeded = JSON.parse((await runCli(["demo", "--json"], env)).stdout) as {
      workspaceId: string;
      released: string[];
    };
    const minted = JSON.parse(
      (
        await runCli(
          ["key", "mint", "--workspace", seeded.workspaceId, "--name", "Site", "--json"],
          env,
        )
      ).stdout,
    ) as { key: string; id: string };
    const key = { "x-api-key": minted.key };
    expect((await get(`${server.url}/api/consumer/blogs`, key)).status).toBe(200);

    // SIGTERM: stop accepting, flush lastUsedAt (the window here is an hour), exit 0.
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    expect(server.output.join("")).toContain('"msg":"stopped"');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    // The pending lastUsedAt was flushed on the way out, and the data survived the stop.
    const keys = JSON.parse(
      (await runCli(["key", "list", "--workspace", seeded.workspaceId, "--json"], env)).stdout,
    ) as { keys: { id: string; lastUsedAt: string | null }[] };
    expect(keys.keys.find((k) => k.id === minted.id)?.lastUsedAt).toEqual(expect.any(String));

    const again = await startServer(env);
    running.push(again);
    const list = await get(`${again.url}/api/consumer/blogs`, key);
    expect(list.status).toBe(200);
    expect((list.body as { data: unknown[] }).data).toHaveLength(seeded.released.length);
    again.child.kill("SIGTERM");
    expect(await again.exit).toBe(0);
  });

  it("refuses to start on an invalid configuration, with a clear message", async () => {
    const r = await runCli(["start"], { ...env, PORT: "eighty" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("PORT must be an integer");
  });

  it("pressroom db runs the embedded database in the foreground and prints its URI", async () => {
    const dir = path.join(dataDir, "foreground");
    const child = spawn(
      process.execPath,
      [CLI_PATH, "db", "--port", "0", "--data-dir", dir, "--json"],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exit = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
      });
      void exit.then((code) => reject(new Error(`exited ${code}`)));
    });
    const { uri } = JSON.parse(line) as { uri: string };
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 5000 }).connect();
    expect(await client.db("admin").command({ ping: 1 })).toMatchObject({ ok: 1 });
    await client.close();
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("SIGTERM lets in-flight requests finish, refuses new connections, flushes lastUsedAt, exits 0", async () => {
    const t = await useTestDb();
    const seeded = await seedWorkspace(t.db, "Drain");
    const { host, port } = firstHost(t.uri);
    const proxy = new TcpProxy(host, port);
    await proxy.start();
    const server = await startServer({
      ...env,
      LOG_LEVEL: "debug",
      MONGODB_URI: proxiedUri(t.uri, proxy.port),
      MONGODB_DB: t.name,
    });
    running.push(server);
    expect((await get(`${server.url}/readyz`)).status).toBe(200);

    // The database stalls, so these requests are surely in flight when SIGTERM arrives.
    proxy.hold();
    const inFlight = Array.from({ length: 10 }, () =>
      plainGet(`${server.url}/api/consumer/blogs`, seeded.key),
    );
    // Signal once the server has taken all ten (its debug log says so), not after a guess.
    const started = () => server.output.join("").split('"msg":"request started"').length - 1 >= 10;
    while (!started()) await new Promise((r) => setTimeout(r, 20));
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    // A new connection is not served: refused, or reset if it raced the listener closing.
    await expect(plainGet(`${server.url}/healthz`, "")).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
    proxy.release();

    expect(await Promise.all(inFlight)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await server.exit).toBe(0);
    const key = await t.db.collection("apiKeys").findOne({ _id: hashKey(seeded.key) as never });
    expect(key?.lastUsedAt).toBeInstanceOf(Date);
    await proxy.stop();
  });
});

describe("SIGTERM under load", () => {
  it("every request the server took is answered 200, new connections are refused, lastUsedAt is flushed, exit 0 without the timeout", async () => {
    const t = await useTestDb();
    const workspaces = [
      await seedWorkspace(t.db, "Load A", 4),
      await seedWorkspace(t.db, "Load B", 4),
    ];
    // autocannon alone sends thousands of requests a minute with one key, over the default
    // limit (README, "Rate limits"): this test is about draining, not limits.
    for (const w of workspaces) await unthrottle(t.db, w.keyId);
    const server = await startServer({
      ...env,
      MONGODB_URI: t.uri,
      MONGODB_DB: t.name,
      // A drain that needed its timeout would log a warning and cut requests off.
      SHUTDOWN_TIMEOUT_MS: "10000",
    });
    running.push(server);
    const paths = (w: (typeof workspaces)[number]) => [
      "/api/consumer/blogs?limit=3",
      ...w.released.map((id) => `/api/consumer/blogs/${id}`),
    ];

    // Three kinds of load at once. autocannon: 8 connections that send the next request the
    // moment a response arrives (the clients that kept a draining server busy forever).
    const [wa, wb] = workspaces as [(typeof workspaces)[number], (typeof workspaces)[number]];
    let next = 0;
    const cannonPaths = paths(wa);
    const cannon = autocannon({
      url: server.url,
      connections: 8,
      duration: 60,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: cannonPaths[next++ % cannonPaths.length],
            headers: { ...req.headers, "x-api-key": wa.key },
          }),
        },
      ],
    });
    let cannonResponses = 0;
    const cannonStatuses = new Map<number, number>();
    cannon.on("response", (_client, status) => {
      cannonResponses += 1;
      cannonStatuses.set(status, (cannonStatuses.get(status) ?? 0) + 1);
    });

    // And 8 keep-alive clients, like any HTTP library, each sending requests back to back
    // until the server refuses its connection; every outcome is recorded.
    const CLIENTS = 8;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    let signalled = false;
    type Outcome = { afterSignal: boolean; status?: number; connection?: string; error?: string };
    const outcomes: Outcome[] = [];
    const client = async (n: number) => {
      const w = n % 2 === 0 ? wa : wb;
      const list = paths(w);
      for (let i = 0; ; i++) {
        const afterSignal = signalled;
        try {
          const res = await agentGet(`${server.url}${list[i % list.length]}`, w.key, agent);
          outcomes.push({ afterSignal, status: res.status, connection: res.connection });
        } catch (err) {
          const error = (err as NodeJS.ErrnoException).code ?? String(err);
          outcomes.push({ afterSignal, error });
          if (error === "ECONNREFUSED") return;
        }
      }
    };
    const load = Array.from({ length: CLIENTS }, (_, n) => client(n));
    // And 4 connections that always have a request queued (pipelining): never idle.
    const pipelined = Array.from({ length: 4 }, (_, n) =>
      pipeliningClient(
        `${server.url}${cannonPaths[n % cannonPaths.length]}`,
        { "x-api-key": wa.key },
        3,
      ),
    );
    while (outcomes.length < 200 || cannonResponses < 200) {
      await new Promise((r) => setTimeout(r, 20));
    }
    signalled = true;
    server.child.kill("SIGTERM");
    await Promise.all(load);
    agent.destroy();
    // The server closed each pipelining connection after its first answer of the drain.
    const pipelinedResponses = await Promise.all(pipelined.map((p) => p.done));
    expect(await server.exit).toBe(0);
    cannon.stop();
    await cannon;

    const answered = outcomes.filter((o) => o.status !== undefined);
    // Every answer was a 200: nothing cut off by the database closing under a request.
    expect(answered.filter((o) => o.status !== 200)).toEqual([]);
    expect([...cannonStatuses.keys()]).toEqual([200]);
    // Each pipelining connection was closed by the server (`done` resolved) without the
    // timeout, every answer on it a 200, and none after one that said "close".
    for (const responses of pipelinedResponses) {
      expect(responses.length).toBeGreaterThan(0);
      expect(responses.filter((r) => r.status !== 200)).toEqual([]);
      expect(responses.slice(0, -1).filter((r) => r.connection === "close")).toEqual([]);
    }
    // Requests sent after the signal on open connections were still answered, each telling
    // its client to close the connection.
    const late = answered.filter((o) => o.afterSignal);
    expect(late.filter((o) => o.connection !== "close")).toEqual([]);
    // The only failures: the refused connection that ended each client once the listener
    // closed, and connections closed while idle — never a request the server took (below).
    const failed = outcomes.filter((o) => o.error !== undefined);
    expect(failed.filter((o) => o.error === "ECONNREFUSED")).toHaveLength(CLIENTS);
    expect(failed.filter((o) => o.error !== "ECONNREFUSED" && o.error !== "ECONNRESET")).toEqual(
      [],
    );

    // The server's log: one access line per response it finished, each received by a client
    // and each a 200; no warning (the drain needed no timeout) or error; "stopped" last.
    const lines = server.output
      .join("")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg: string; status?: number; level: number });
    const served = lines.filter((l) => l.msg === "request");
    const received = answered.length + cannonResponses + pipelinedResponses.flat().length;
    // Node's own server.close() closes connections it deems idle. A pipelining connection
    // between two answers looks idle to it, and closing it with a request unread resets it,
    // which can lose the answer just written: at most one per pipelining connection. Every
    // other finished response reached its client.
    expect(served.length).toBeGreaterThanOrEqual(received);
    expect(served.length - received).toBeLessThanOrEqual(pipelined.length);
    expect(served.filter((l) => l.status !== 200)).toEqual([]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.at(-1)?.msg).toBe("stopped");

    // lastUsedAt is flushed only at shutdown in this file (an hour's window): both keys.
    for (const w of workspaces) {
      const key = await t.db.collection("apiKeys").findOne({ _id: hashKey(w.key) as never });
      expect(key?.lastUsedAt).toBeInstanceOf(Date);
    }
  });
});

/** A GET through `agent` (keep-alive), resolving once the body is read. */
function agentGet(
  url: string,
  key: string,
  agent: http.Agent,
): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { "x-api-key": key } }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** A GET on a connection of its own (no keep-alive reuse), resolving to the status. */
function plainGet(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { "x-api-key": key } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

/** The exit code of `pressroom start` with `env`, and what it printed; null if still running a minute later. */
async function startExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI_PATH, "start"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null); // still running a minute later: the failed start kept the process alive
    }, 60_000);
    child.once("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, output };
}

describe("error: a start that cannot prepare its database stops the whole process", () => {
  it("an index of the app's name with other keys: exits non-zero, naming the index, with nothing left running (README, Upgrades)", async () => {
    // Any failure while the indexes or migrations run (this one is an operator's own index)
    // must end the process for a process manager to see, not leave the driver holding it open.
    const uri = inject("mongoUri");
    const name = `test_conflict_${process.pid}_${Date.now()}`;
    const client = await MongoClient.connect(uri);
    try {
      await client
        .db(name)
        .collection("blogs")
        .createIndex({ title: 1 }, { name: "released_list" });
      const { code, output } = await startExit({ MONGODB_URI: uri, MONGODB_DB: name, PORT: "0" });
      expect(code, output).not.toBe(null);
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/released_list/);
      expect(output).not.toMatch(/Pressroom listening/);
    } finally {
      await client
        .db(name)
        .dropDatabase()
        .catch(() => {});
      await client.close();
    }
  }, 120_000);
});

describe("error: a start that cannot listen stops the whole process", () => {
  it.each([
    ["PORT", "the API's port"],
    ["METRICS_PORT", "the metrics port (README, Configuration)"],
  ])(
    "%s already taken (%s): exits non-zero, naming the address, with nothing left running",
    async (variable) => {
      const taken = http.createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const { port } = taken.address() as { port: number };
      const ownDir = await mkdtemp(path.join(tmpdir(), "pressroom-lifecycle-taken-"));
      try {
        const { code, output } = await startExit({
          DATA_DIR: ownDir,
          PORT: "0",
          [variable]: String(port),
        });
        expect(code, output).not.toBe(null);
        expect(code, output).not.toBe(0);
        expect(output).toMatch(/EADDRINUSE/);
        expect(output).not.toMatch(/Pressroom listening/);
      } finally {
        taken.close();
        await rm(ownDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

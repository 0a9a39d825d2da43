// The embedded database's launcher is supervised by the process that started it (README,
// "Embedded database supervision"): killed, it comes back on the same port within seconds, with
// every acknowledged write; failing over and over, its owner exits 1. Real processes throughout:
// `pressroom start` and `pressroom db` on their own DATA_DIR, the launcher killed with SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { isProcessAlive } from "../../server/src/platform/embedded-db/process-alive.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { CLI_PATH, type ServerProcess, startServerProcess } from "../support/cli.js";
import { get } from "../support/fixtures.js";
import { recordLogs } from "../support/secret-scan.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type MintedKey = components["schemas"]["MintedKey"];

// These tests start embedded databases of their own; with MONGODB_URI the product starts none.
const external = (process.env.MONGODB_URI ?? "") !== "";
const SKIP_REASON = "MONGODB_URI is set: the product starts no embedded database to supervise";

/** The bound: from the kill to requests succeeding again. */
const RECOVERY_BOUND_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "pressroom-supervise-"));
  dirs.push(dir);
  return dir;
}

interface State {
  uri: string;
  pid: number;
  launcherPid: number;
}
const stateOf = async (dataDir: string): Promise<State> =>
  JSON.parse(await readFile(path.join(dataDir, "embedded-db.json"), "utf8")) as State;
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Polls `check` every 50 ms until it holds; false after `ms`. */
async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/** kill -9 of `pid`, then waits until it is gone (reaped); returns when it was killed. */
async function kill9(pid: number): Promise<number> {
  const killedAt = Date.now();
  process.kill(pid, "SIGKILL");
  expect(await within(5000, () => !isProcessAlive(pid))).toBe(true);
  return killedAt;
}

interface Outcome {
  startedAt: number;
  endedAt: number;
  ok: boolean;
}

/** Requests in a loop until stopped, each one's outcome recorded. */
function loop(step: () => Promise<boolean>, pauseMs: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  let inFlight = false;
  const done = (async () => {
    while (running) {
      const startedAt = Date.now();
      inFlight = true;
      const ok = await step().catch(() => false);
      inFlight = false;
      outcomes.push({ startedAt, endedAt: Date.now(), ok });
      await sleep(pauseMs);
    }
  })();
  return {
    outcomes,
    inFlight: () => inFlight,
    /** The first success of a request started at `since` or later. */
    firstOkSince: (since: number) => outcomes.find((o) => o.ok && o.startedAt >= since),
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    LOG_LEVEL: "info",
    DB_TIMEOUT_MS: "1000",
    CONSUMER_RATE_LIMIT: "off", // the load here is about the outage, not limits
    ...env,
  });
  children.push(server.child);
  return server;
}

/** The server's log records, parsed (it logs JSON lines when not on a terminal). */
const logOf = (server: ServerProcess) =>
  server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("npm start supervises the embedded database it started (README, Embedded database supervision)", () => {
  it("a launcher killed with kill -9 under consumer and admin load comes back on the same port: requests succeed again within 5 s, no acknowledged write is lost, and the log says why it restarted", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const dataDir = await tempDataDir();
    const server = await startServer({ DATA_DIR: dataDir });
    const admin = new AdminClient(server.url);
    const ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
    const minted = await admin.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site" });
    expect(minted.status).toBe(201);
    const key = { "x-api-key": minted.body.secret };
    const before = await stateOf(dataDir);
    expect(before.pid).toBe(server.child.pid);
    expect(isProcessAlive(before.launcherPid)).toBe(true);

    // Admin writes, one after the other: a draft created, then released. Each step's success
    // (2xx) is an acknowledged write; a write failing mid-outage may have happened or not.
    const created: { id: string; title: string }[] = [];
    const released: string[] = [];
    let n = 0;
    const writer = loop(async () => {
      const title = `Supervised ${++n}`;
      const res = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
        title,
        bodyMarkdown: `Written while the launcher may be down (${n}).`,
      });
      if (res.status !== 201) return false;
      created.push({ id: res.body.id, title });
      const release = await admin.post<AdminBlog>(
        `/workspaces/${ws}/blogs/${res.body.id}/release`,
        undefined,
        ANY_VERSION,
      );
      if (release.status !== 200) return false;
      released.push(res.body.id);
      return true;
    }, 10);
    const readers = [0, 1].map(() =>
      loop(async () => (await get(`${server.url}/api/consumer/blogs`, key)).status === 200, 20),
    );
    const all = [writer, ...readers];

    expect(await within(20_000, () => released.length >= 5)).toBe(true);
    // Mid-write: while the writer waits for an answer.
    while (!writer.inFlight()) await sleep(1);
    const killedAt = await kill9(before.launcherPid);
    const back = await within(RECOVERY_BOUND_MS + 5000, () =>
      all.every((l) => l.firstOkSince(killedAt) !== undefined),
    );
    await sleep(1000); // and it keeps serving
    for (const l of all) await l.stop();

    // For the record: how long each loop took to succeed again, and what the outage cost.
    const each = (f: (l: (typeof all)[number]) => number) => all.map(f).join(", ");
    console.log(
      `writer, readers: first success ${each((l) => (l.firstOkSince(killedAt)?.endedAt ?? Infinity) - killedAt)} ms ` +
        `after the kill; failed requests ${each((l) => l.outcomes.filter((o) => !o.ok).length)}; ` +
        `${created.length} blogs created, ${released.length} released`,
    );
    expect(back, "no success after the kill").toBe(true);
    for (const l of all) {
      const first = l.firstOkSince(killedAt);
      expect((first?.endedAt ?? Infinity) - killedAt).toBeLessThan(RECOVERY_BOUND_MS);
      // Once back, every request succeeds.
      expect(l.outcomes.filter((o) => o.startedAt > (first?.endedAt ?? 0)).every((o) => o.ok)).toBe(
        true,
      );
    }
    expect(released.length).toBeGreaterThan(5); // writes were acknowledged after the kill too

    // Every acknowledged write is there: each blog created, and each release.
    for (const { id, title } of created) {
      const res = await admin.get<AdminBlog>(`/workspaces/${ws}/blogs/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.title).toBe(title);
    }
    for (const id of released) {
      expect((await get(`${server.url}/api/consumer/blogs/${id}`, key)).status).toBe(200);
    }
    expect((await get(`${server.url}/readyz`)).status).toBe(200);

    // Same URI, a new launcher, recorded for the CLI and other processes.
    const after = await stateOf(dataDir);
    expect(after.uri).toBe(before.uri);
    expect(after.pid).toBe(before.pid);
    expect(after.launcherPid).not.toBe(before.launcherPid);
    expect(isProcessAlive(after.launcherPid)).toBe(true);

    // Logged: the death with its cause, then the restart.
    const log = logOf(server);
    const died = log.find((r) => String(r.msg).startsWith("embedded database died"));
    expect(died).toMatchObject({
      level: 50,
      launcherPid: before.launcherPid,
      signal: "SIGKILL",
      exitCode: null,
    });
    expect(died?.msg).toContain("killed by SIGKILL");
    expect(died?.msg).toContain("restarting it in 0.1 s");
    const restarted = log.find((r) => String(r.msg).startsWith("embedded database restarted"));
    expect(restarted).toMatchObject({ level: 30, launcherPid: after.launcherPid });

    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    // A stop is no death: nothing restarted it, and the record is gone.
    expect(log.filter((r) => String(r.msg).startsWith("embedded database died"))).toHaveLength(1);
    expect(await within(5000, () => !isProcessAlive(after.launcherPid))).toBe(true);
    expect(await exists(path.join(dataDir, "embedded-db.json"))).toBe(false);
    recordLogs(server.output.join("").split("\n"));
  }, 120_000);

  it("a launcher that cannot be restarted is given up after 6 failures within 60 s: the server logs why, drains and exits 1 for a process manager to take over", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const dataDir = await tempDataDir();
    const server = await startServer({ DATA_DIR: dataDir });
    const { launcherPid } = await stateOf(dataDir);
    // The running launcher keeps its open files; a new one finds a file where its directory was.
    await rename(path.join(dataDir, "ferretdb"), path.join(dataDir, "ferretdb-moved"));
    await writeFile(path.join(dataDir, "ferretdb"), "not a directory\n");
    const killedAt = await kill9(launcherPid);

    expect(await server.exit).toBe(1);
    const tookMs = Date.now() - killedAt;
    // Pauses of 0.1 + 0.2 + 0.5 + 1 + 2 s between the six failures, then the drain.
    expect(tookMs).toBeGreaterThan(3800);
    expect(tookMs).toBeLessThan(30_000);
    const log = logOf(server);
    const failures = log.filter((r) =>
      String(r.msg).startsWith("embedded database restart failed"),
    );
    expect(failures).toHaveLength(5);
    expect(failures[0]?.msg).toContain("not a directory");
    expect(failures[4]?.msg).toContain("too many failures");
    expect(failures.map((r) => /restarting it in ([\d.]+) s/.exec(String(r.msg))?.[1])).toEqual([
      "0.2",
      "0.5",
      "1",
      "2",
      undefined,
    ]);
    const gaveUp = log.find((r) => r.level === 60);
    expect(gaveUp?.msg).toMatch(
      /^The embedded database failed 6 times within 60 s \(last: a restart failed: .+ not a directory\); it is not restarted again\. Pressroom stops with exit code 1/,
    );
    expect(log.at(-1)?.msg).toBe("stopped");
    expect(log.find((r) => r.msg === "shutting down")?.reason).toBe(
      "the embedded database could not be restarted",
    );
    expect(await exists(path.join(dataDir, "embedded-db.json"))).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    recordLogs(server.output.join("").split("\n"));
  }, 60_000);
});

/** Listens on 127.0.0.1:`port` as soon as it is free, trying for `ms`; undefined if never. */
async function grab(port: number, ms: number): Promise<net.Server | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const server = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen({ port, host: "127.0.0.1", exclusive: true }, () => resolve(true));
    });
    if (ok) return server;
    await sleep(2);
  }
  return undefined;
}

/** `pressroom db` as its own process; resolves once it printed its URI (--json). */
async function startDbCommand(dataDir: string) {
  const child = spawn(process.execPath, [CLI_PATH, "db", "--json", "--data-dir", dataDir], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const stderr: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const uri = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) resolve((JSON.parse(line) as State).uri);
    });
    void exit.then((code) => reject(new Error(`exited ${code}:\n${stderr.join("")}`)));
  });
  return { child, uri, exit, stderr: () => stderr.join("") };
}

describe("pressroom db supervises its launcher (README, Embedded database supervision)", () => {
  it("kill -9 of its launcher: it restarts it on the same URI with the data, says why on stderr, and still stops cleanly on SIGTERM", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const dataDir = await tempDataDir();
    const db = await startDbCommand(dataDir);
    const before = await stateOf(dataDir);
    expect(before.pid).toBe(db.child.pid);
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 1000 });
    try {
      const docs = client.db("supervised").collection<{ _id: number }>("docs");
      await docs.insertMany([{ _id: 1 }, { _id: 2 }]);
      const killedAt = await kill9(before.launcherPid);
      expect(
        await within(RECOVERY_BOUND_MS, async () => {
          try {
            return (await docs.countDocuments()) === 2;
          } catch {
            return false; // still down
          }
        }),
      ).toBe(true);
      expect(Date.now() - killedAt).toBeLessThan(RECOVERY_BOUND_MS);
    } finally {
      await client.close();
    }
    // The record and the message follow the restart: the supervisor reports it once the new
    // launcher answers, and the record is written after that (platform/db/database.ts), so a
    // client may be answered a moment before either.
    const recorded = async () => {
      try {
        return (await stateOf(dataDir)).launcherPid !== before.launcherPid;
      } catch {
        return false; // being written
      }
    };
    expect(await within(5000, recorded)).toBe(true);
    const after = await stateOf(dataDir);
    expect(after).toMatchObject({ uri: before.uri, pid: before.pid });
    expect(after.launcherPid).not.toBe(before.launcherPid);
    // stderr reaches this process through a pipe, after the record may be on disk.
    const died = `embedded database died (launcher ${before.launcherPid} killed by SIGKILL`;
    const restarted = `embedded database restarted (launcher ${after.launcherPid}`;
    expect(await within(5000, () => db.stderr().includes(restarted))).toBe(true);
    expect(db.stderr()).toContain(died);

    db.child.kill("SIGTERM");
    expect(await db.exit).toBe(0);
    expect(await within(5000, () => !isProcessAlive(after.launcherPid))).toBe(true);
    expect(await exists(path.join(dataDir, "embedded-db.json"))).toBe(false);
  }, 60_000);

  it("a restart waits while another process holds the port for a moment, then comes back on that same port", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const dataDir = await tempDataDir();
    const db = await startDbCommand(dataDir);
    const port = Number(new URL(db.uri).port);
    // Take the port in the moment between the kill and the restart (0.1 s, then 0.2 s, 0.5 s
    // after the next kills: a busy machine may need another try).
    let holder: net.Server | undefined;
    let pid = (await stateOf(dataDir)).launcherPid;
    for (let attempt = 1; holder === undefined && attempt <= 3; attempt++) {
      await kill9(pid);
      holder = await grab(port, 80);
      if (holder === undefined) {
        expect(await within(5000, async () => (await stateOf(dataDir)).launcherPid !== pid)).toBe(
          true,
        );
        pid = (await stateOf(dataDir)).launcherPid;
      }
    }
    expect(holder, "the port was never free between a kill and its restart").toBeDefined();
    await sleep(1500);
    expect((await stateOf(dataDir)).launcherPid).toBe(pid); // still waiting for the port
    const releasedAt = Date.now();
    await new Promise((resolve) => holder?.close(resolve));
    expect(await within(5000, async () => (await stateOf(dataDir)).launcherPid !== pid)).toBe(true);
    expect(Date.now() - releasedAt).toBeLessThan(2000);
    expect((await stateOf(dataDir)).uri).toBe(db.uri);
    // Waiting for the port is no failure: the launcher was not started onto a taken port.
    expect(db.stderr()).not.toContain("restart failed");
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      expect((await client.db("supervised").command({ ping: 1 })).ok).toBe(1);
    } finally {
      await client.close();
    }
    db.child.kill("SIGTERM");
    expect(await db.exit).toBe(0);
  }, 60_000);

  it("a launcher that cannot be restarted: pressroom db gives up after 6 failures within 60 s and exits 1, naming the cause", async ({
    skip,
  }) => {
    skip(external, SKIP_REASON);
    const dataDir = await tempDataDir();
    const db = await startDbCommand(dataDir);
    const { launcherPid } = await stateOf(dataDir);
    await rename(path.join(dataDir, "ferretdb"), path.join(dataDir, "ferretdb-moved"));
    await writeFile(path.join(dataDir, "ferretdb"), "not a directory\n");
    await kill9(launcherPid);
    expect(await db.exit).toBe(1);
    expect(db.stderr()).toContain("not a directory");
    expect(db.stderr()).toContain("The embedded database failed 6 times within 60 s");
    expect(await exists(path.join(dataDir, "embedded-db.json"))).toBe(false);
  }, 60_000);
});

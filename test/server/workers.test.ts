// `pressroom start --workers N` (README, "Workers"): N server processes on one port and one
// database, a crashed worker replaced, /readyz 503 until every worker serves, a graceful stop of
// all of them. Real processes, real HTTP, the embedded database as `npm start` runs it.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { onFileEnd } from "../support/cleanup.js";
import { runCli } from "../support/cli.js";
import { seedWorkspace } from "../support/fixtures.js";
import { useTestDb } from "../support/test-db.js";
import { type LogLine, startWorkersServer } from "../support/workers-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];

/** A data directory of the test's own, removed at the end of the file. */
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  onFileEnd(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const isProcessAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A GET on a connection of its own (a new connection is handed to a worker in turn). */
const freshGet = (url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("timed out")));
    req.on("error", reject);
  });

const workerLine = (l: LogLine) => l.role === "worker" && typeof l.url === "string";

describe('workers share one port and one embedded database (README, "Workers")', () => {
  it("two workers listen on the one URL from two processes; the primary started the embedded database once; SIGTERM stops them all, exit 0", async () => {
    const dataDir = await tempDir("pressroom-workers-");
    const server = await startWorkersServer("2", { DATA_DIR: dataDir });
    // Each process writes its own log lines to the one pipe: a worker's "listening" line can
    // come after the primary's line that all serve, which is what the start waits for.
    await expect.poll(() => server.lines.filter(workerLine).length).toBeGreaterThanOrEqual(2);
    const listening = server.lines.filter(workerLine);
    expect(listening).toHaveLength(2);
    expect(new Set(listening.map((l) => l.url))).toEqual(new Set([server.url]));
    const pids = listening.map((l) => Number(l.pid));
    expect(new Set(pids).size).toBe(2);
    expect(server.serving().sort()).toEqual([...pids].sort());
    // The workers attached to the database the primary started and recorded.
    const recorded = JSON.parse(await readFile(path.join(dataDir, "embedded-db.json"), "utf8")) as {
      pid: number;
    };
    expect(recorded.pid).toBe(server.child.pid);
    expect(
      server.lines.filter((l) => String(l.msg).startsWith("Embedded database (")),
    ).toHaveLength(1);

    // New connections are handed to the workers in turn: both serve.
    for (let i = 0; i < 6; i++) expect((await freshGet(`${server.url}/readyz`)).status).toBe(200);
    // Their access log lines may come after the answers.
    const readyzServed = () => server.lines.filter((l) => l.path === "/readyz" && l.status === 200);
    await expect.poll(() => readyzServed().length).toBeGreaterThanOrEqual(6);
    expect(new Set(readyzServed().map((l) => l.pid))).toEqual(new Set(pids));

    // SIGTERM to one worker alone: it stops as a server stops and is replaced, not as a crash.
    const [first] = pids as [number, number];
    process.kill(first, "SIGTERM");
    const stoppedOne = await server.logged((l) => l.workerPid === first && l.code === 0);
    expect(stoppedOne.msg).toMatch(/stopped with code 0; starting a replacement in 100 ms/);
    await server.logged(
      (l) =>
        String(l.msg).includes("serving (2 of 2)") &&
        l.workerPid !== first &&
        !pids.includes(Number(l.workerPid)),
    );
    expect((await freshGet(`${server.url}/readyz`)).status).toBe(200);
    pids.push(...server.serving().filter((p) => !pids.includes(p)));

    expect(await server.stop()).toBe(0);
    const stopped = server.lines.filter((l) => l.msg === "stopped");
    expect(stopped.map((l) => l.role).sort()).toEqual(["primary", "worker", "worker", "worker"]);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    await expect(readFile(path.join(dataDir, "embedded-db.json"))).rejects.toThrow(/ENOENT/);
  });

  it("a worker killed with SIGKILL mid-write loses no acknowledged write; /readyz is 503 until its replacement serves; writes go on", async () => {
    const dataDir = await tempDir("pressroom-workers-kill-");
    const server = await startWorkersServer("2", { DATA_DIR: dataDir, LOG_LEVEL: "info" });
    const admin = new AdminClient(server.url);
    const ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";

    // Four writers create blogs back to back; an answered 201 is an acknowledged write.
    const acknowledged: string[] = [];
    const refused: number[] = [];
    let failed = 0;
    const until = async (done: () => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!done()) {
        if (refused.length > 0 || Date.now() > deadline) {
          throw new Error(
            `${what}: ${acknowledged.length} acknowledged, refused ${refused}, ${failed} failed`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        try {
          const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/blogs`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              cookie: admin.cookie ?? "",
              origin: server.url,
            },
            body: JSON.stringify({ title: `w${w} n${i}`, bodyMarkdown: "Body." }),
            // A request whose connection went to the killed worker may never be answered.
            signal: AbortSignal.timeout(10_000),
          });
          const body = (await res.json()) as AdminBlog;
          if (res.status === 201) acknowledged.push(body.id);
          else refused.push(res.status);
        } catch {
          failed++; // not acknowledged: reset by the kill, or cut short
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await until(() => acknowledged.length >= 20, "writes before the kill");

    const [victim, survivor] = server.serving();
    if (victim === undefined || survivor === undefined) throw new Error("two workers expected");
    process.kill(victim, "SIGKILL");
    const exited = await server.logged((l) => l.workerPid === victim && l.signal === "SIGKILL");
    expect(exited.msg).toMatch(/starting a replacement in \d+ ms/);
    // Until the replacement serves, the survivor answers that not every worker serves.
    const notReady = await freshGet(`${server.url}/readyz`);
    expect(notReady).toEqual({
      status: 503,
      body: JSON.stringify({ message: "Not every server process serves yet (1 of 2)." }),
    });
    const replaced = await server.logged(
      (l) =>
        typeof l.msg === "string" &&
        l.msg.includes("serving (2 of 2)") &&
        l.workerPid !== victim &&
        l.workerPid !== survivor,
    );
    // Ready again, and new connections reach the replacement as well.
    for (let i = 0; i < 4; i++) expect((await freshGet(`${server.url}/readyz`)).status).toBe(200);
    expect(
      server.lines.some(
        (l) => l.pid === replaced.workerPid && l.path === "/readyz" && l.status === 200,
      ),
    ).toBe(true);
    const afterReplacement = acknowledged.length;
    await until(() => acknowledged.length >= afterReplacement + 20, "writes after the replacement");
    writing = false;
    await Promise.all(writers);

    // Every acknowledged write is stored, through a graceful stop and a start without workers.
    expect(await server.stop()).toBe(0);
    const listed = await runCli(["blog", "list", "--workspace", ws, "--json"], {
      DATA_DIR: dataDir,
    });
    expect(listed.code, listed.stderr).toBe(0);
    const stored = new Set(
      (JSON.parse(listed.stdout) as { blogs: { id: string }[] }).blogs.map((b) => b.id),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    console.log(
      `workers kill: ${acknowledged.length} acknowledged writes, all stored; ${failed} not acknowledged`,
    );
  }, 120_000);
});

describe('workers with MONGODB_URI, and their metrics (README, "Workers" and "Metrics")', () => {
  it("two workers on MONGODB_URI serve one port; the primary's METRICS_PORT sums both workers' counts", async () => {
    const t = await useTestDb();
    const seeded = await seedWorkspace(t.db, "Workers on MongoDB");
    const server = await startWorkersServer("2", {
      MONGODB_URI: t.uri,
      MONGODB_DB: t.name,
      METRICS_PORT: "0",
    });
    const metricsLine = await server.logged((l) => typeof l.metricsUrl === "string");
    expect(metricsLine.role).toBe("primary");
    // No worker opened a metrics listener of its own.
    expect(server.lines.filter((l) => l.metricsUrl !== undefined)).toHaveLength(1);

    const key = { "x-api-key": seeded.key };
    for (let i = 0; i < 6; i++) {
      // A connection of its own each: handed to the workers in turn.
      const res = await fetch(`${server.url}/api/consumer/blogs`, {
        headers: { ...key, connection: "close" },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // Their access log lines may come after the answers.
    const listServed = () =>
      server.lines.filter((l) => l.path === "/api/consumer/blogs" && l.status === 200);
    await expect.poll(() => listServed().length).toBeGreaterThanOrEqual(6);
    expect(new Set(listServed().map((l) => l.pid)).size).toBe(2);

    const scrape = await fetch(String(metricsLine.metricsUrl));
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(
      /^pressroom_http_requests_total\{operation="listBlogs",status="200"\} 6$/m,
    );
    expect(await server.stop()).toBe(0);
  });
});

describe('refusals and failures of a start with workers (README, "Workers")', () => {
  it.each([
    [
      ["start", "--workers", "0"],
      {},
      '--workers must be a whole number of server processes from 1 to 64, or "auto" for one per core (got "0")',
    ],
    [
      ["start", "--workers", "many"],
      {},
      '--workers must be a whole number of server processes from 1 to 64, or "auto" for one per core (got "many")',
    ],
    [["start"], { WORKERS: "-2" }, "WORKERS must be a whole number"],
  ])(
    "pressroom %j %j is refused before anything starts: exit 1, naming the setting",
    async (args, env, message) => {
      const dataDir = await tempDir("pressroom-workers-refused-");
      const r = await runCli(args, { DATA_DIR: dataDir, ...env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      await expect(readFile(path.join(dataDir, "embedded-db.json"))).rejects.toThrow(/ENOENT/);
    },
  );

  it("a worker that cannot start (PORT taken) stops the start: exit 1 naming it, nothing left running", async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    onFileEnd(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const dataDir = await tempDir("pressroom-workers-taken-");
    const r = await runCli(["start", "--workers", "2"], {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_FORMAT: "json",
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/EADDRINUSE/);
    expect(r.stderr).toMatch(/Error: worker \d+ \(pid \d+\) exited with code 1 while starting/);
    expect(r.stdout).not.toMatch(/Pressroom listening/);
    // The primary stopped the embedded database it had started (its record goes with it).
    await expect(readFile(path.join(dataDir, "embedded-db.json"))).rejects.toThrow(/ENOENT/);
  });

  it("five crashes within a minute: the primary gives up, stops the others and the database, exit 1", async () => {
    const dataDir = await tempDir("pressroom-workers-crashes-");
    const server = await startWorkersServer("2", { DATA_DIR: dataDir });
    const killed = new Set<number>();
    while (killed.size < 5 && server.child.exitCode === null) {
      const pid = server.serving().find((p) => !killed.has(p));
      if (pid === undefined) {
        // Wait for the next replacement to serve (or for the primary to give up).
        await Promise.race([
          server.logged(
            (l) =>
              l.workerPid !== undefined &&
              !killed.has(Number(l.workerPid)) &&
              String(l.msg).includes(" serving "),
          ),
          server.exit,
        ]);
        continue;
      }
      killed.add(pid);
      process.kill(pid, "SIGKILL");
      await server.logged((l) => l.workerPid === pid && l.signal === "SIGKILL");
    }
    expect(await server.exit).toBe(1);
    const gaveUp = await server.logged((l) => String(l.msg).includes("giving up"));
    expect(gaveUp.msg).toMatch(
      /exited with signal SIGKILL: 5 worker crashes within 60 s, giving up/,
    );
    for (const pid of server.serving()) expect(isProcessAlive(pid)).toBe(false);
    await expect(readFile(path.join(dataDir, "embedded-db.json"))).rejects.toThrow(/ENOENT/);
    // Four replacements each start a worker (a cold Node start each): 21 s on a quiet 2-core
    // machine, over the default 30 s under the CI's load.
  }, 90_000);
});

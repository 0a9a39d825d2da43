/**
 * `npm run bench:workers` (`npx tsx bench/workers.ts [--seconds S] [--rounds R]
 * [--connections N] [--workers W] [--no-build]`; `--help` lists them): what `pressroom start
 * --workers` buys on this machine (README, "Workers").
 *
 * Builds server/dist (unless --no-build), starts the embedded database the way `npm start` does
 * (recorded in a throwaway DATA_DIR), makes the app's indexes and seeds it (bench/seed.ts
 * `COUNTS`: 10,000 released blogs per workspace, with drafts and removed ones), then runs two
 * servers on it as production does (`pressroom start`, the node flags of `npm start`,
 * NODE_ENV=production, CONSUMER_RATE_LIMIT=off): one with one worker (the
 * baseline: one process, no cluster) and one with W workers (default 2). Both attach to the same
 * database, so they differ only in the worker count. Three consumer requests are measured in
 * interleaved windows of S seconds (R rounds; each round measures every scenario on both, the
 * first server alternating): a blog by id, the first list page with a matching If-None-Match
 * (304) and the list page itself (200), and as the control `GET /healthz`, which needs no
 * database. N closed-loop keep-alive connections (default 16).
 * Prints requests per second per scenario, the ratio W workers ÷ 1, p50/p99 latency, and where
 * the machine's cores went during the windows (bench/process-cpu.ts: the measured server's
 * processes, the database, this load generator, and anything else running on the machine), with
 * the load average before and after: on a machine the load generator and the database share with
 * the servers, that says what more workers could have used.
 *
 * Longer than ~250 lines on purpose: one program read top to bottom (servers, scenarios, a
 * window, the report), as the other bench entry points are.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { MongoClient } from "mongodb";
import { startRecordedEmbeddedDb } from "../server/src/platform/db/database.js";
import { ensureIndexes } from "../server/src/platform/db/indexes.js";
import { freePort } from "./http-server-child.js";
import { optionsOrExit } from "./options.js";
import { childrenOf, machineBusyMs, procAvailable, treeCpuMs } from "./process-cpu.js";
import { COUNTS, seed } from "./seed.js";
import { NODE_FLAGS } from "./start-flags.js";

const options = optionsOrExit({
  usage: "npm run bench:workers -- [options]  (npx tsx bench/workers.ts [options])",
  summary:
    "Consumer get, 304 and list requests per second with 1 worker and with W workers, in\n" +
    "interleaved windows of one run on one database; prints both and their ratios.",
  options: {
    seconds: { kind: "number", arg: "S", min: 1, help: "length of each window (5)" },
    rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "interleaved rounds (6)" },
    connections: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "closed-loop keep-alive connections (16)",
    },
    workers: { kind: "number", arg: "W", min: 2, integer: true, help: "workers to compare (2)" },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
  },
});
const seconds = options.seconds ?? 5;
const rounds = options.rounds ?? 6;
const connections = options.connections ?? 16;
const workers = options.workers ?? 2;
const log = (line: string) => process.stderr.write(`${line}\n`);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Server {
  readonly workers: number;
  readonly url: string;
  /** The `pressroom start` process (the primary, with workers). */
  readonly pid: number;
  stop(): Promise<void>;
}

async function startServer(dataDir: string, count: number): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      path.join(ROOT, "server/bin/pressroom.js"),
      "start",
      "--workers",
      String(count),
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        CONSUMER_RATE_LIMIT: "off",
      },
      // One JSON line per request, as in production; it goes nowhere.
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  let gone = false;
  const exited = new Promise((resolve) => child.once("exit", resolve)).then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  // Ready once every worker serves (`/readyz` is 503 until then); a server that exits or never
  // gets there is stopped, not left running.
  for (let i = 0; (await fetch(`${url}/readyz`).catch(() => null))?.status !== 200; i++) {
    if (gone || i > 600) {
      child.kill("SIGKILL");
      await exited;
      throw new Error(`the server with ${count} workers did not become ready (its stderr above)`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    workers: count,
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

interface Request {
  path: string;
  headers: Record<string, string>;
}

interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly expect: number;
  requests(server: Server): Promise<Request[]>;
}

interface Totals {
  responses: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
  /** CPU ms during the windows: the measured server's processes, the database, this process, the machine. */
  cpu: { server: number; db: number; loadgen: number; machine: number };
}

const emptyTotals = (): Totals => ({
  responses: 0,
  seconds: 0,
  latencies: [],
  statuses: new Map(),
  cpu: { server: 0, db: 0, loadgen: 0, machine: 0 },
});

async function window(
  server: Server,
  dbPid: number,
  requests: Request[],
  into: Totals,
): Promise<void> {
  let next = 0;
  const snapshot = () => ({
    server: treeCpuMs(server.pid),
    db: treeCpuMs(dbPid),
    loadgen: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    machine: machineBusyMs(),
  });
  const before = snapshot();
  const started = performance.now();
  const instance = autocannon({
    url: server.url,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const r = requests[next++ % requests.length] as Request;
          return { ...req, method: "GET", path: r.path, headers: { ...req.headers, ...r.headers } };
        },
      },
    ],
  });
  instance.on("response", (_client, status, _bytes, ms) => {
    into.responses++;
    into.latencies.push(ms);
    into.statuses.set(status, (into.statuses.get(status) ?? 0) + 1);
  });
  await instance;
  into.seconds += (performance.now() - started) / 1000;
  const after = snapshot();
  for (const k of ["server", "db", "loadgen", "machine"] as const)
    into.cpu[k] += after[k] - before[k];
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function main() {
  if (!options["no-build"]) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    log("tsc -p server…");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: "inherit" });
  }
  const load = loadavg();
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-workers-"));
  const db = await startRecordedEmbeddedDb(dataDir, 0, log);
  const servers: Server[] = [];
  try {
    const client = await MongoClient.connect(db.uri);
    // The indexes first, as a server's first start makes them on an empty database: the
    // launcher's keeper then builds its own on empty tables, and the seed's inserts keep them.
    // Made after the seed, the keeper's pass over 32,000 blogs would build every index while the
    // servers start, and their writes would wait for each of its statements (before its statements
    // took FerretDB's write turns they failed with SQLITE_BUSY: server/embedded-db/README.md,
    // "The keeper's writes take turns with FerretDB's").
    await ensureIndexes(client.db("pressroom"));
    log(
      `seeding 2 × ${COUNTS.released + COUNTS.draft + COUNTS.removed} blogs (${COUNTS.released} released)…`,
    );
    const [workspace] = await seed(client.db("pressroom"));
    await client.close();
    if (workspace === undefined) throw new Error("nothing seeded");
    const key = (i: number) => ({ "x-api-key": workspace.keys[i % workspace.keys.length] ?? "" });
    const sample = workspace.released.filter((_, i) => i % 10 === 0);
    const list = "/api/consumer/blogs?limit=20";
    const scenarios: Scenario[] = [
      {
        id: "get",
        title: "get one blog by id",
        expect: 200,
        requests: async () =>
          sample.map((id, i) => ({ path: `/api/consumer/blogs/${id}`, headers: key(i) })),
      },
      {
        id: "list304",
        title: "list page, matching If-None-Match (304)",
        expect: 304,
        requests: async (server) => {
          const res = await fetch(`${server.url}${list}`, { headers: key(0) });
          await res.arrayBuffer();
          const etag = res.headers.get("etag") ?? "";
          return workspace.keys.map((_, i) => ({
            path: list,
            headers: { ...key(i), "if-none-match": etag },
          }));
        },
      },
      {
        id: "list",
        title: "list page (20 blogs)",
        expect: 200,
        requests: async () => workspace.keys.map((_, i) => ({ path: list, headers: key(i) })),
      },
      {
        // The control: no database work at all, so what workers buy where only the server's
        // own processes need the cores.
        id: "healthz",
        title: "liveness, `/healthz` (no database: the control)",
        expect: 200,
        requests: async () => [{ path: "/healthz", headers: {} }],
      },
    ];

    log(`starting servers: 1 worker and ${workers} workers on one embedded database…`);
    servers.push(await startServer(dataDir, 1), await startServer(dataDir, workers));
    // The database is this process's child that is neither server.
    const dbPid = childrenOf(process.pid).find((pid) => !servers.some((s) => s.pid === pid)) ?? 0;
    const totals = new Map<string, Totals>();
    const totalsOf = (s: Scenario, server: Server) => {
      const k = `${s.id}/${server.workers}`;
      let t = totals.get(k);
      if (t === undefined) {
        t = emptyTotals();
        totals.set(k, t);
      }
      return t;
    };
    const planned = new Map<string, Request[]>();
    for (const s of scenarios) {
      for (const server of servers) {
        const requests = await s.requests(server);
        planned.set(`${s.id}/${server.workers}`, requests);
        // Warm-up: both servers' code paths compiled and the database's pages cached.
        await window(server, dbPid, requests, emptyTotals());
      }
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const s of scenarios) {
        for (const server of order) {
          await window(
            server,
            dbPid,
            planned.get(`${s.id}/${server.workers}`) ?? [],
            totalsOf(s, server),
          );
        }
      }
      log(`round ${round + 1} of ${rounds} done`);
    }
    const loadAfter = loadavg();

    const lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, ${cpus().length} cores, embedded database; ` +
        `load average ${load.map((l) => l.toFixed(1)).join(" / ")} before and ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} after (1 / 5 / 15 min).`,
      `${connections} keep-alive connections, ${rounds} rounds × ${seconds} s per scenario and server, interleaved.`,
      "",
      `| scenario | 1 worker req/s | ${workers} workers req/s | × 1 worker | p50 / p99 ms, 1 | p50 / p99 ms, ${workers} |`,
      "|---|---:|---:|---:|---|---|",
    ];
    const cores = [
      "",
      procAvailable()
        ? "Cores used during the windows (CPU seconds per second): the measured server's processes, the database, the load generator (this process), and everything else on the machine:"
        : "No /proc here: CPU use per process not measured.",
      "",
      "| scenario, workers | server | database | load generator | other | machine |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    for (const s of scenarios) {
      const [one, many] = servers.map((server) => totalsOf(s, server)) as [Totals, Totals];
      const rate = (t: Totals) => t.responses / t.seconds;
      const lat = (t: Totals) => {
        const sorted = [...t.latencies].sort((a, b) => a - b);
        return `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)}`;
      };
      const unexpected = [...one.statuses, ...many.statuses].filter(([st]) => st !== s.expect);
      if (unexpected.length > 0) log(`${s.id}: unexpected answers ${JSON.stringify(unexpected)}`);
      lines.push(
        `| ${s.title} | ${rate(one).toFixed(0)} | ${rate(many).toFixed(0)} | ${(rate(many) / rate(one)).toFixed(2)} | ${lat(one)} | ${lat(many)} |`,
      );
      for (const [n, t] of [
        [1, one],
        [workers, many],
      ] as const) {
        const c = (ms: number) => (ms / 1000 / t.seconds).toFixed(2);
        const other = t.cpu.machine - t.cpu.server - t.cpu.db - t.cpu.loadgen;
        cores.push(
          `| ${s.id}, ${n} | ${c(t.cpu.server)} | ${c(t.cpu.db)} | ${c(t.cpu.loadgen)} | ${c(other)} | ${c(t.cpu.machine)} |`,
        );
      }
    }
    process.stdout.write(`${[...lines, ...cores].join("\n")}\n`);
  } finally {
    for (const server of servers) await server.stop();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

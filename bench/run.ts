/**
 * `npm run bench` (`npx tsx bench/run.ts [--quick] [--duration S] [--connections N] [--no-write]`)
 *
 * Seeds a throwaway embedded database (FerretDB/SQLite), starts Pressroom in production mode
 * and a bare `node:http` baseline (bench/baseline-server.ts), each in its own child process,
 * drives both with autocannon on loopback, runs the SDK's sync example twice, and writes
 * BENCHMARKS.md and bench/latency.svg. `--quick`: a short smoke (1 s per scenario), printed only
 * unless `--write` is given.
 */
import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { MongoClient } from "mongodb";
import { ensureIndexes } from "../server/src/db/collections.js";
import { startEmbeddedDb } from "../server/src/db/embedded.js";
import { generateKey } from "../server/src/keys/key-format.js";
import type { ControlMessage, Stats } from "./child-control.js";
import { type Measured, renderMarkdownReport, renderSvg, type SyncRun } from "./report.js";
import { averageBlogBytes, COUNTS, KEYS_PER_WORKSPACE, seed } from "./seed.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = flag("--quick");
const durationS = option("--duration", quick ? 2 : 10);
const warmupS = quick ? 0.5 : 2;
const connections = option("--connections", 10);
const dbBound = option("--db-bound-connections", 1);
const write = quick ? flag("--write") : !flag("--no-write");
const log = (line: string) => process.stderr.write(`${line}\n`);

// --- child servers ------------------------------------------------------------------------

interface Child {
  readonly name: "pressroom" | "baseline";
  readonly url: string;
  readonly process: ChildProcess;
  idleCpuPerSec: number;
  stats(): Promise<Stats>;
  resetPeak(): Promise<Stats>;
}

async function startChild(
  name: Child["name"],
  script: string,
  env: Record<string, string>,
): Promise<Child> {
  const child = fork(path.join(ROOT, "bench", script), [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    // Pressroom logs one JSON line per request to stdout, as in production; it goes nowhere.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${name} server exited (${code})`)));
    child.on("message", (m: { ready?: string }) => {
      if (m.ready !== undefined) resolve(m.ready);
    });
  });
  let next = 0;
  const ask = (type: ControlMessage["type"]) =>
    new Promise<Stats>((resolve) => {
      const id = ++next;
      const onMessage = (m: { id?: number; stats?: Stats }) => {
        if (m.id !== id || m.stats === undefined) return;
        child.off("message", onMessage);
        resolve(m.stats);
      };
      child.on("message", onMessage);
      child.send({ type, id } satisfies ControlMessage);
    });
  return {
    name,
    url,
    process: child,
    idleCpuPerSec: 0,
    stats: () => ask("stats"),
    resetPeak: () => ask("reset-peak"),
  };
}

// --- scenarios ----------------------------------------------------------------------------

interface Request {
  path: string;
  headers: Record<string, string>;
}

interface Scenario {
  id: string;
  title: string;
  expect: number;
  /** Concurrent connections; the list scenarios wait on FerretDB's full scans, so fewer. */
  connections: number;
  /** Requests cycled through by every connection, built per server (ETags differ). */
  requests(server: Child): Promise<Request[]>;
}

async function fetchEtag(url: string, key: string): Promise<string> {
  // The baseline computes an ETag only for conditional requests: ask with one that cannot match.
  const res = await fetch(url, { headers: { "x-api-key": key, "if-none-match": '"none"' } });
  await res.arrayBuffer();
  const etag = res.headers.get("etag");
  if (res.status !== 200 || etag === null) throw new Error(`no ETag from ${url} (${res.status})`);
  return etag;
}

async function walkPages(base: string, key: string, limit: number): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const p: string = `/api/consumer/blogs?limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`;
    paths.push(p);
    const res = await fetch(`${base}${p}`, { headers: { "x-api-key": key } });
    cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
  } while (cursor !== null);
  return paths;
}

function scenarios(keys: string[], ids: string[]): Scenario[] {
  const header = (i: number) => ({ "x-api-key": keys[i % keys.length] ?? "" });
  const sample = ids.filter((_, i) => i % 10 === 0); // 100 blogs spread over the whole list
  return [
    {
      id: "get",
      connections: connections,
      title: "get one blog",
      expect: 200,
      requests: async () =>
        sample.map((id, i) => ({ path: `/api/consumer/blogs/${id}`, headers: header(i) })),
    },
    {
      id: "list",
      connections: dbBound,
      title: "list, limit 20",
      expect: 200,
      requests: async () =>
        keys.map((_, i) => ({ path: "/api/consumer/blogs?limit=20", headers: header(i) })),
    },
    {
      id: "walk",
      connections: dbBound,
      title: "list walk, all pages of 100",
      expect: 200,
      requests: async (server) =>
        (await walkPages(server.url, keys[0] ?? "", 100)).map((p, i) => ({
          path: p,
          headers: header(i),
        })),
    },
    {
      id: "get304",
      connections: connections,
      title: "get, matching If-None-Match (304)",
      expect: 304,
      requests: async (server) =>
        Promise.all(
          sample.slice(0, 40).map(async (id, i) => {
            const p = `/api/consumer/blogs/${id}`;
            const etag = await fetchEtag(`${server.url}${p}`, keys[i % keys.length] ?? "");
            return { path: p, headers: { ...header(i), "if-none-match": etag } };
          }),
        ),
    },
    {
      id: "list304",
      connections: dbBound,
      title: "list, matching If-None-Match (304)",
      expect: 304,
      requests: async (server) => {
        const p = "/api/consumer/blogs?limit=20";
        const etag = await fetchEtag(`${server.url}${p}`, keys[0] ?? "");
        return keys.map((_, i) => ({ path: p, headers: { ...header(i), "if-none-match": etag } }));
      },
    },
    {
      id: "bad-key",
      connections: connections,
      title: "unknown key (401)",
      expect: 401,
      // Well-formed (right shape and checksum), so both servers must look it up.
      requests: async () =>
        sample.slice(0, 10).map((id) => ({
          path: `/api/consumer/blogs/${id}`,
          headers: { "x-api-key": generateKey().raw },
        })),
    },
  ];
}

function cannon(
  url: string,
  requests: Request[],
  seconds: number,
  conns: number,
): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url,
    connections: conns,
    duration: seconds,
    timeout: 60,
    // Each request picks the next entry of the list, round-robin across all connections.
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          const r = requests[next++ % requests.length] as Request;
          return { ...req, method: "GET", path: r.path, headers: { ...req.headers, ...r.headers } };
        },
      },
    ],
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has no request in flight (autocannon leaves some when it stops). */
async function drained(server: Child): Promise<Stats> {
  for (;;) {
    const stats = await server.stats();
    if (stats.counters.inFlight === 0) return stats;
    await sleep(50);
  }
}

/** CPU µs per second of an idle server (timers, GC), subtracted from each window. */
async function idleCpuRate(server: Child): Promise<number> {
  const before = await drained(server);
  const started = performance.now();
  await sleep(quick ? 500 : 2000);
  const after = await server.stats();
  return (after.cpuMicros - before.cpuMicros) / ((performance.now() - started) / 1000);
}

async function measure(server: Child, scenario: Scenario, keysUsed: number): Promise<Measured> {
  const requests = await scenario.requests(server);
  if (warmupS > 0) await cannon(server.url, requests, warmupS, scenario.connections);
  await drained(server);
  const before = await server.resetPeak();
  const started = performance.now();
  const result = await cannon(server.url, requests, durationS, scenario.connections);
  const seconds = (performance.now() - started) / 1000;
  // The window closes when the last request autocannon sent is done; CPU and responses are
  // both counted inside the server over that window.
  const after = await drained(server);
  const windowS = (performance.now() - started) / 1000;
  const served = after.counters.responses - before.counters.responses;
  const cpuMicros = Math.max(
    0,
    after.cpuMicros - before.cpuMicros - server.idleCpuPerSec * windowS,
  );
  const total = result.requests.total;
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statuses[code] = count;
  const expected = statuses[String(scenario.expect)] ?? 0;
  if (expected !== total || result.errors > 0) {
    log(
      `  ! ${server.name} ${scenario.id}: statuses ${JSON.stringify(statuses)}, errors ${result.errors}`,
    );
  }
  return {
    scenario: scenario.id,
    title: scenario.title,
    server: server.name,
    requests: total,
    seconds,
    // Counted by the server: FerretDB's list scans take seconds, and autocannon only counts
    // responses that arrive before it stops.
    reqPerSec: served / windowS,
    latency: result.latency as unknown as Record<string, number>,
    cpuMicrosPerRequest: cpuMicros / Math.max(1, served),
    cpuShare: cpuMicros / 1e6 / windowS,
    peakRssMB: after.peakRssBytes / 2 ** 20,
    bytesPerResponse: result.throughput.total / Math.max(1, total),
    statuses,
    expectedOnly: expected === total && result.errors === 0,
    lastUsedWritesPerKeyPerSec:
      (after.counters.apiKeyUpdates - before.counters.apiKeyUpdates) / keysUsed / seconds,
    blogDocsPerRequest: (after.counters.blogDocs - before.counters.blogDocs) / Math.max(1, served),
  };
}

// --- the SDK sync, through a byte-counting proxy ----------------------------------------

async function countingProxy(target: string) {
  const { hostname, port } = new URL(target);
  const bytes = { toServer: 0, toClient: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    client.on("data", (chunk) => {
      bytes.toServer += chunk.length;
    });
    upstream.on("data", (chunk) => {
      bytes.toClient += chunk.length;
    });
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, bytes, close: () => server.close() };
}

type Proxy = Awaited<ReturnType<typeof countingProxy>>;

/** One sync through `proxy` (the same one both times: the SDK's cache is keyed by URL). */
async function runSync(server: Child, proxy: Proxy, key: string, dir: string): Promise<SyncRun> {
  proxy.bytes.toClient = 0;
  proxy.bytes.toServer = 0;
  const before = await server.stats();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "sdk/examples/sync.ts", dir], {
      cwd: ROOT,
      env: { ...process.env, PRESSROOM_API_KEY: key, PRESSROOM_BASE_URL: proxy.url },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`sync exited ${code}: ${out}`)),
    );
  });
  const after = await server.stats();
  const requests = Number(/requests (\d+)/.exec(output)?.[1] ?? Number.NaN);
  return {
    summary: output,
    requests,
    bytesToClient: proxy.bytes.toClient,
    bytesToServer: proxy.bytes.toServer,
    blogDocsRead: after.counters.blogDocs - before.counters.blogDocs,
    blogBodiesRead: after.counters.blogDocsWithBody - before.counters.blogDocsWithBody,
  };
}

// --- main ----------------------------------------------------------------------------------

function versions() {
  const pkg = (name: string) =>
    (
      JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  const goMod = readFileSync(path.join(ROOT, "server/embedded-db/go.mod"), "utf8");
  const git = (...a: string[]) => {
    try {
      return execFileSync("git", a, { cwd: ROOT, encoding: "utf8" }).trim();
    } catch {
      return "unknown";
    }
  };
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    machine: `${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    express: pkg("express"),
    validator: pkg("express-openapi-validator"),
    mongodb: pkg("mongodb"),
    autocannon: pkg("autocannon"),
    ferretdb: /FerretDB\/FerretDB (v[\d.]+)/.exec(goMod)?.[1] ?? "unknown",
    commit: `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "server", "bench") === "" ? "" : " + uncommitted changes"}`,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-bench-"));
  const children: Child[] = [];
  const database = await startEmbeddedDb({ dataDir: path.join(tmp, "db"), onProgress: log });
  try {
    const dbName = "pressroom_bench";
    const client = new MongoClient(database.uri);
    await client.connect();
    const db = client.db(dbName);
    await ensureIndexes(db);
    log(
      `Seeding 2 workspaces × (${COUNTS.released} released, ${COUNTS.draft} draft, ${COUNTS.removed} removed)…`,
    );
    const workspaces = await seed(db);
    const [a] = workspaces;
    if (a === undefined) throw new Error("seed failed");
    const blogBytes = await averageBlogBytes(db, a.id);
    await client.close();

    const env = { MONGODB_URI: database.uri, MONGODB_DB: dbName };
    const baseline = await startChild("baseline", "baseline-server.ts", env);
    const pressroom = await startChild("pressroom", "pressroom-server.ts", {
      ...env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: "0",
    });
    children.push(baseline, pressroom);
    for (const child of children) child.idleCpuPerSec = await idleCpuRate(child);
    log(
      `baseline ${baseline.url}, pressroom ${pressroom.url}; ${durationS} s per scenario, ${connections} connections`,
    );

    const results: Measured[] = [];
    for (const scenario of scenarios(a.keys, a.released)) {
      for (const server of [baseline, pressroom]) {
        const m = await measure(server, scenario, a.keys.length);
        results.push(m);
        log(
          `  ${scenario.id.padEnd(8)} ${server.name.padEnd(9)} ${m.reqPerSec.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${m.latency.p50} ms  p99 ${m.latency.p99} ms  ${m.cpuMicrosPerRequest.toFixed(0)} µs CPU/req  ` +
            `RSS ${m.peakRssMB.toFixed(0)} MB`,
        );
      }
    }

    log("SDK sync example, twice over the workspace…");
    const syncDir = path.join(tmp, "sync");
    const proxy = await countingProxy(pressroom.url);
    const syncs = [
      await runSync(pressroom, proxy, a.keys[0] ?? "", syncDir),
      await runSync(pressroom, proxy, a.keys[0] ?? "", syncDir),
    ];
    proxy.close();
    for (const s of syncs)
      log(
        `  ${s.summary} — ${s.bytesToClient} bytes to client, ${s.blogBodiesRead} blog bodies read`,
      );

    const report = {
      versions: versions(),
      setup: {
        durationS,
        warmupS,
        connections,
        keys: KEYS_PER_WORKSPACE,
        counts: COUNTS,
        blogBytes,
      },
      results,
      syncs,
      elapsedS: (Date.now() - started) / 1000,
    };
    const markdown = renderMarkdownReport(report);
    process.stdout.write(`${markdown}\n`);
    if (write) {
      await writeFile(path.join(ROOT, "BENCHMARKS.md"), markdown);
      await writeFile(path.join(ROOT, "bench/latency.svg"), renderSvg(results));
      log("Wrote BENCHMARKS.md and bench/latency.svg");
    }
  } finally {
    for (const child of children) child.process.kill("SIGKILL");
    await database.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();

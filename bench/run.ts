/**
 * `npm run bench` (`npx tsx bench/run.ts [--quick] [--duration S] [--min-responses N]
 * [--max-duration S] [--rounds N] [--connections N] [--no-write] [--only ID,…]
 * [--cpu-profile DIR]`)
 *
 * Seeds a throwaway embedded database (FerretDB/SQLite), starts Pressroom in production mode
 * and a bare `node:http` baseline (bench/baseline-server.ts), each in its own child process,
 * drives both with autocannon on loopback, runs the SDK's sync example twice, and writes
 * BENCHMARKS.md and bench/latency.svg. `--quick`: a short smoke, printed only unless `--write`
 * is given. `--only get,bad-key`: just those scenarios, no sync, nothing written. `--cpu-profile
 * DIR`: V8's sampling profiler runs in both servers over each measured window and writes
 * DIR/<scenario>-<server>-<round>.cpuprofile (open in Chrome DevTools); it costs CPU itself, so the
 * figures of such a run are not comparable with others.
 *
 * The children run as production does, compiled JavaScript on plain `node`: this script (itself
 * run by tsx) first builds server/dist (`tsc -p server`, as `npm run build` does) and compiles
 * bench/ into bench/dist (`tsc -p bench`, which also type-checks it), then forks
 * bench/dist/bench/*.js with no `--import tsx` (tsx's loader alone adds ~30 MB of RSS).
 *
 * Measured windows: every scenario runs on each server for at least `--duration` seconds (10; 2
 * with --quick) and then on until the server has answered `--min-responses` requests (30; 5 with
 * --quick), but no longer than `--max-duration` seconds (45; 10 with --quick), split into
 * `--rounds` windows (3; 1 with --quick) interleaved between the servers (measure.ts). Only the database-bound list
 * scenarios (one connection, each FerretDB list query a ~1–2 s full scan) need the extension: a
 * 10 s window held 5–10 of their responses, so their CPU per request was the mean of a handful
 * of requests, at the mercy of one garbage collection or driver heartbeat, and of the idle-CPU
 * estimate (which is subtracted per second of window, so it stays the same share of the figure
 * however long the window; only the sample grows). The other scenarios pass the count within
 * their first second. Each scenario is preceded by an unmeasured warm-up on each server (at
 * least 5 s and 30 responses, at most 60 s: `warmup` below). A full run takes about 11–13
 * minutes on this 2-core machine (11 min 29 s and 13 min 4 s measured: 3 list scenarios of
 * 30–45 s of warm-up and 30–45 s of windows, 3 others of 5 s and 10 s, per server, a 1.2 s
 * wait after each Pressroom window for its lastUsedAt flush, plus compiling, seeding and the
 * syncs).
 */
import { execFileSync, fork, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { ensureIndexes } from "../server/src/db/collections.js";
import { startEmbeddedDb } from "../server/src/db/embedded.js";
import { generateKey } from "../server/src/keys/key-format.js";
import { DB_SCALING, keepSections, readOrEmpty } from "./benchmarks-section.js";
import type { ControlMessage, Stats } from "./child-control.js";
import {
  type Child,
  cannon,
  combine,
  drained,
  idleCpuRate,
  measureWindow,
  type Request,
  type Timing,
  type Window,
} from "./measure.js";
import { type Measured, renderMarkdownReport, renderSvg, type SyncRun } from "./report.js";
import { averageBlogBytes, COUNTS, KEYS_PER_WORKSPACE, seed } from "./seed.js";
import { NODE_FLAGS } from "./start-flags.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = flag("--quick");
const durationS = option("--duration", quick ? 2 : 10);
const minResponses = option("--min-responses", quick ? 5 : 30);
const maxDurationS = Math.max(durationS, option("--max-duration", quick ? 10 : 45));
/**
 * Unmeasured load before each scenario's windows, on each server: at least `minSeconds` and
 * `minResponses`, at most `maxSeconds`, so that the windows measure the steady state an operator
 * pays for rather than V8 still compiling the request path. After the former 2 s warm-up, an A/A
 * run (the same build on both sides, get) measured first windows of 3,356 and 4,253 µs per
 * request against 2,193–2,705 in the later ones; and in the list scenarios (one response per
 * 1–2 s, so two warm-up responses) Pressroom's first window cost 2.5 times its later ones.
 */
const warmup = {
  minSeconds: quick ? 0.5 : 5,
  minResponses: quick ? 3 : 30,
  maxSeconds: quick ? 5 : 60,
};
const connections = option("--connections", 10);
const dbBound = option("--db-bound-connections", 1);
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? (args[onlyIndex + 1] ?? "").split(",") : undefined;
const profileIndex = args.indexOf("--cpu-profile");
const profileDir = profileIndex >= 0 ? path.resolve(args[profileIndex + 1] ?? ".") : undefined;
const rounds = Math.max(1, option("--rounds", quick ? 1 : 3));
const write = only === undefined && (quick ? flag("--write") : !flag("--no-write"));
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Pressroom's `lastUsedAt` flush window in the benchmark (its default, set explicitly). */
const LAST_USED_FLUSH_MS = 1000;

// --- child servers ------------------------------------------------------------------------

/** Runs the repository's own TypeScript compiler on a project; its messages go to stderr. */
function compile(project: string): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  log(`tsc -p ${project}…`);
  execFileSync(process.execPath, [tsc, "-p", project], { cwd: ROOT, stdio: ["ignore", 2, 2] });
}

/** Where `tsc -p bench` puts the compiled bench/*.ts (bench/tsconfig.json: rootDir "..", outDir "dist"). */
const COMPILED = path.join(ROOT, "bench", "dist", "bench");

async function startChild(
  name: Child["name"],
  script: string,
  env: Record<string, string>,
): Promise<Child> {
  const child = fork(path.join(COMPILED, script), [], {
    cwd: ROOT,
    // Plain node, not this process's tsx loader (which fork would pass on by default), with the
    // V8 flags `npm start` runs the server with (package.json), for both servers alike.
    execArgv: NODE_FLAGS,
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
  const ask = (type: ControlMessage["type"], file = "") =>
    new Promise<Stats>((resolve) => {
      const id = ++next;
      const onMessage = (m: { id?: number; stats?: Stats }) => {
        if (m.id !== id || m.stats === undefined) return;
        child.off("message", onMessage);
        resolve(m.stats);
      };
      child.on("message", onMessage);
      child.send((type === "profile-stop" ? { type, id, file } : { type, id }) as ControlMessage);
    });
  return {
    name,
    url,
    process: child,
    idleCpuPerSec: 0,
    stats: () => ask("stats"),
    resetPeak: () => ask("reset-peak"),
    profileStart: () => ask("profile-start"),
    profileStop: (file) => ask("profile-stop", file),
  };
}

// --- scenarios ----------------------------------------------------------------------------

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
  // Before anything starts: the children run the output of both (see the header comment).
  compile("server");
  compile("bench");
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
    const baseline = await startChild("baseline", "baseline-server.js", env);
    const pressroom = await startChild("pressroom", "pressroom-server.js", {
      ...env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: "0",
      LAST_USED_FLUSH_MS: String(LAST_USED_FLUSH_MS),
    });
    children.push(baseline, pressroom);
    // Let both settle first: Pressroom keeps a core or more busy for a few hundred ms after it
    // reports ready (startup work finishing), which would otherwise inflate its idle rate and,
    // subtracted over a long list window, zero its list CPU figures.
    await sleep(quick ? 1500 : 3000);
    for (const child of children) {
      child.idleCpuPerSec = await idleCpuRate(child, quick ? 500 : 2000);
    }
    log(
      `baseline ${baseline.url}, pressroom ${pressroom.url}; ${durationS} s per scenario (until ` +
        `${minResponses} responses, at most ${maxDurationS} s) in ${rounds} interleaved rounds, ` +
        `${connections} connections ` +
        `(${dbBound} for the list scenarios); idle CPU µs/s: baseline ` +
        `${baseline.idleCpuPerSec.toFixed(0)}, pressroom ${pressroom.idleCpuPerSec.toFixed(0)}`,
    );

    const results: Measured[] = [];
    if (profileDir !== undefined) await mkdir(profileDir, { recursive: true });
    const chosen = scenarios(a.keys, a.released).filter((s) => only?.includes(s.id) ?? true);
    if (chosen.length === 0) throw new Error(`--only ${only?.join(",")}: no such scenario`);
    const timing: Timing = {
      minSeconds: durationS / rounds,
      minResponses: Math.ceil(minResponses / rounds),
      maxSeconds: maxDurationS / rounds,
    };
    for (const scenario of chosen) {
      const servers = [baseline, pressroom];
      const requests = await Promise.all(servers.map((server) => scenario.requests(server)));
      const windows: Window[][] = servers.map(() => []);
      for (const [i, server] of servers.entries()) {
        await cannon(
          server.url,
          requests[i] ?? [],
          warmup.maxSeconds,
          scenario.connections,
          warmup,
        );
        await drained(server);
      }
      // Rounds in the order A B, B A, A B, …: a steady drift of the machine's speed over the
      // scenario falls on both servers alike.
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const server = servers[i] as Child;
          const file =
            profileDir === undefined
              ? undefined
              : path.join(profileDir, `${scenario.id}-${server.name}-${round + 1}.cpuprofile`);
          const flushWaitMs = server === pressroom ? LAST_USED_FLUSH_MS + 200 : 0;
          const w = await measureWindow(
            server,
            requests[i] ?? [],
            scenario.connections,
            timing,
            flushWaitMs,
            file,
          );
          windows[i]?.push(w);
        }
      }
      for (const [i, server] of servers.entries()) {
        const m = combine(scenario, server.name, windows[i] ?? [], a.keys.length);
        results.push(m);
        log(
          `  ${scenario.id.padEnd(8)} ${server.name.padEnd(9)} ${m.reqPerSec.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${m.latency.p50?.toFixed(1)} ms  p99 ${m.latency.p99?.toFixed(1)} ms  ` +
            `${m.cpuMicrosPerRequest.toFixed(0)} µs CPU/req  RSS ${m.peakRssMB.toFixed(0)} MB`,
        );
      }
    }

    if (only !== undefined) return;

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
        minResponses,
        maxDurationS,
        warmup,
        connections,
        dbBoundConnections: dbBound,
        rounds,
        keys: KEYS_PER_WORKSPACE,
        counts: COUNTS,
        blogBytes,
        nodeFlags: NODE_FLAGS,
      },
      results,
      syncs,
      elapsedS: (Date.now() - started) / 1000,
    };
    const markdown = renderMarkdownReport(report);
    process.stdout.write(`${markdown}\n`);
    if (write) {
      // bench/db-scaling.ts's section (between its markers) is carried over, not lost.
      const file = path.join(ROOT, "BENCHMARKS.md");
      await writeFile(file, keepSections(await readOrEmpty(file), markdown, [DB_SCALING]));
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

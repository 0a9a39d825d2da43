/**
 * `npm run bench:limits` (`npx tsx bench/rate-limit-cost.ts [--seconds S] [--rounds R]
 * [--connections N]`; `--help` lists them): what per-key rate limiting and usage counting cost
 * per consumer request (README, "Rate limits").
 *
 * Builds server/dist and bench/dist, starts a throwaway embedded database and one Pressroom
 * server on it as production runs it (bench/pressroom-server.ts, `CONSUMER_RATE_LIMIT=off` so a
 * key without a limit of its own has none), seeds one released blog and four keys, and measures
 * `GET /api/consumer/blogs/{id}` with each key in interleaved windows of S seconds (R rounds, each
 * starting with another scenario,
 * N closed-loop connections), reading the server's CPU time (`process.cpuUsage`) around each:
 * - no limit (the baseline): no limiter work; usage is counted as for every key;
 * - well under the limit (1,000,000 per day): admitted with no database round trip;
 * - near the limit: the window's count is set just under `limit - reserve`, so every request
 *   writes its instance's count and reads the window's total first (the sync path);
 * - over the limit: the window is full, so every request is refused (429) with no round trip.
 * Prints CPU µs per request, requests per second and their ratios to the baseline, and writes
 * them into BENCHMARKS.md's "rate-limits" section (bench/benchmarks-section.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { MongoClient } from "mongodb";
import {
  rateLimitFields,
  reserveOf,
  windowStartOf,
} from "../server/src/limits/rate-limit-policy.js";
import { RateLimiter } from "../server/src/limits/rate-limiter.js";
import { outcomeOf } from "../server/src/limits/usage-buckets.js";
import { UsageRecorder } from "../server/src/limits/usage-recorder.js";
import { collections } from "../server/src/platform/db/collections.js";
import { startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import { createLogger } from "../server/src/platform/logger.js";
import { createStores } from "../server/src/stores.js";
import { RATE_LIMITS, readOrEmpty, withSection } from "./benchmarks-section.js";
import type { Child } from "./measure.js";
import { optionsOrExit } from "./options.js";
import { compile, startServer } from "./servers.js";

const options = optionsOrExit({
  usage: "npm run bench:limits -- [options]  (npx tsx bench/rate-limit-cost.ts [options])",
  summary:
    "CPU per consumer request with no limit, well under a limit, near it (every request\n" +
    "syncs through the database) and over it, in interleaved windows of one run.",
  options: {
    seconds: { kind: "number", arg: "S", min: 1, help: "length of each window (5)" },
    rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "interleaved rounds (8)" },
    connections: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "closed-loop connections (10)",
    },
  },
});
const seconds = options.seconds ?? 5;
const rounds = options.rounds ?? 8;
const connections = options.connections ?? 10;
const log = (line: string) => process.stderr.write(`${line}\n`);

const LIMIT = { requests: 1_000_000, windowSeconds: 86_400 };
const SCENARIOS = ["no limit", "well under the limit", "near the limit (sync)", "over (429)"];

interface Totals {
  cpuMicros: number;
  responses: number;
  statuses: Map<number, number>;
}

async function window(server: Child, url: string, key: string, into: Totals): Promise<void> {
  const before = await server.stats();
  const started = performance.now();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { "x-api-key": key } }) }],
  });
  const after = await server.stats();
  const elapsed = (performance.now() - started) / 1000;
  into.cpuMicros += after.cpuMicros - before.cpuMicros - server.idleCpuPerSec * elapsed;
  into.responses += after.counters.responses - before.counters.responses;
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    into.statuses.set(Number(status), (into.statuses.get(Number(status)) ?? 0) + count);
  }
}

/**
 * The limiter's and the usage counter's own work per request, in this process with no I/O:
 * `check` well under a limit (the fast path), the RateLimit fields, and `record` of an outcome,
 * over 50 keys, a million calls. Flushes are kept out of the timing (a window of an hour).
 */
function inProcessNs(): { check: number; record: number } {
  const log = createLogger("silent");
  const never = { exchange: () => Promise.resolve(0) };
  const limiter = new RateLimiter(never, log, { flushMs: 3_600_000 });
  const usage = new UsageRecorder(() => Promise.resolve(), 3_600_000, log);
  const limit = { requests: 1_000_000_000, windowSeconds: 86_400 };
  const calls = 1_000_000;
  const keys = Array.from({ length: 50 }, (_, i) => `key_${i}`);
  const time = (f: (i: number) => void) => {
    for (let i = 0; i < 100_000; i++) f(i); // warm-up
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) f(i);
    return Number(process.hrtime.bigint() - started) / calls;
  };
  const check = time((i) => {
    const d = limiter.check(keys[i % 50] ?? "", limit);
    if (!("then" in d)) rateLimitFields(limit, d.remaining, d.resetSeconds);
  });
  const record = time((i) => usage.record(keys[i % 50] ?? "", "ws_1", outcomeOf(200)));
  void limiter.close();
  void usage.close();
  return { check, record };
}

async function main() {
  const ns = inProcessNs();
  log(`in process: check + fields ${ns.check.toFixed(0)} ns, record ${ns.record.toFixed(0)} ns`);
  compile("server", log);
  compile("bench", log);
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-limits-"));
  const db = await startEmbeddedDb({ dataDir, onProgress: log });
  const client = await MongoClient.connect(db.uri);
  const name = "bench_limits";
  let server: Child | undefined;
  try {
    const stores = createStores(client.db(name));
    const c = collections(client.db(name));
    const ws = await stores.workspaces.create("Bench");
    const blog = await stores.blogs.create(ws._id, {
      title: "A released blog",
      bodyMarkdown: "Some *text*.\n\n".repeat(50),
      tags: ["news"],
      authorName: "Bench",
      release: true,
    });
    const keys = [];
    for (const scenario of SCENARIOS) keys.push(await stores.keys.mint(ws._id, scenario));
    const windowStart = windowStartOf(Date.now(), LIMIT.windowSeconds);
    const reserve = reserveOf(LIMIT.requests);
    for (const [i, minted] of keys.entries()) {
      if (i === 0) continue;
      await c.apiKeys.updateOne({ keyId: minted.id }, { $set: { rateLimit: LIMIT } });
      // Another instance's count for the window: near the limit, or at it.
      const n = i === 2 ? LIMIT.requests - reserve : i === 3 ? LIMIT.requests : 0;
      if (n > 0) {
        await c.rateCounters.insertOne({
          _id: `${minted.id}/${windowStart}/bench-other-instance`,
          n,
          expiresAt: new Date(windowStart + LIMIT.windowSeconds * 1000 + 60_000),
        });
      }
    }
    server = await startServer("pressroom", "pressroom-server.js", db.uri, db.pid, {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      MONGODB_DB: name,
      CONSUMER_RATE_LIMIT: "off",
    });
    const url = `${server.url}/api/consumer/blogs/${blog._id}`;
    log(`warm-up, then ${rounds} rounds of ${SCENARIOS.length} × ${seconds} s windows…`);
    const warm: Totals = { cpuMicros: 0, responses: 0, statuses: new Map() };
    for (const minted of keys) await window(server, url, minted.key, warm);
    // Idle CPU (timers, flushes, GC) over 3 s after the warm-up, subtracted from each window.
    await new Promise((r) => setTimeout(r, 1000));
    const idle0 = await server.stats();
    await new Promise((r) => setTimeout(r, 3000));
    server.idleCpuPerSec = Math.max(0, ((await server.stats()).cpuMicros - idle0.cpuMicros) / 3);
    const totals: Totals[] = SCENARIOS.map(() => ({
      cpuMicros: 0,
      responses: 0,
      statuses: new Map(),
    }));
    // Each round starts with another scenario, so none is always first (or last).
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < keys.length; k++) {
        const i = (round + k) % keys.length;
        const minted = keys[i];
        const into = totals[i];
        if (minted !== undefined && into !== undefined) await window(server, url, minted.key, into);
      }
    }
    if (windowStartOf(Date.now(), LIMIT.windowSeconds) !== windowStart) {
      log("warning: the day's window ended during the run (midnight UTC): run again");
    }
    const base = totals[0];
    const perRequest = (t: Totals) => t.cpuMicros / Math.max(1, t.responses);
    const rps = (t: Totals) => t.responses / (rounds * seconds);
    const lines = [
      `GET of one blog, ${connections} connections, ${rounds} rounds × ${seconds} s per scenario, interleaved:`,
      "| scenario | CPU µs / request | × baseline | req/s | × baseline | answers |",
      "|---|---:|---:|---:|---:|---|",
    ];
    for (const [i, t] of totals.entries()) {
      if (base === undefined) break;
      const answers = [...t.statuses].map(([s, n]) => `${n}×${s}`).join(" ");
      lines.push(
        `| ${SCENARIOS[i]}${i === 0 ? " (baseline)" : ""} | ${perRequest(t).toFixed(0)} | ${(perRequest(t) / perRequest(base)).toFixed(2)} | ${rps(t).toFixed(0)} | ${(rps(t) / rps(base)).toFixed(2)} | ${answers} |`,
      );
    }
    lines.push(
      "",
      `In process, no I/O (a million calls over 50 keys): the limiter's fast-path \`check\` and the RateLimit fields ${ns.check.toFixed(0)} ns per request, usage \`record\` ${ns.record.toFixed(0)} ns per request.`,
    );
    console.log(lines.join("\n"));
    const file = "BENCHMARKS.md";
    const section = [
      "## Rate limits and usage counting: CPU per consumer request (`npm run bench:limits`)",
      "",
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, embedded database; server CPU from \`process.cpuUsage\`, idle CPU subtracted. Compare the rows of one run: absolute figures move with the machine and its load, the ratios much less.`,
      "",
      ...lines,
    ].join("\n");
    await writeFile(file, withSection(await readOrEmpty(file), RATE_LIMITS, section));
  } finally {
    server?.kill();
    await client.close();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

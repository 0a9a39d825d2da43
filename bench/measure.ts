/**
 * How a scenario is measured on one server: autocannon drives it for a window while the server
 * counts its own responses, CPU time and RSS (child-control.ts), the database process's CPU time
 * is read from /proc (servers.ts) and the server's database work is counted on the way to the
 * database (db-counter.ts); the windows of a scenario are then summed into one result.
 * bench/run.ts interleaves the windows of the servers (floor, baseline, Pressroom, then Pressroom,
 * baseline, floor, …), so a drift of the machine's speed during the run — on this VM up to 2×
 * over minutes — weighs on every server alike instead of on whichever ran last.
 */
import autocannon from "autocannon";
import type { ServerCounters, ServerStats } from "./child-control.js";
import type { DbCounters } from "./db-counter.js";
import type { Measured } from "./report.js";

/** What a server reports (child-control.ts) with what its db-counter.ts counted. */
export interface Stats extends Omit<ServerStats, "counters"> {
  /** CPU time of the database process (0 for the floor, which has none). */
  dbCpuMicros: number;
  counters: ServerCounters & DbCounters;
}

/** A benchmark server in its child process (bench/servers.ts), with its database counter. */
export interface Child {
  readonly name: "pressroom" | "baseline" | "floor";
  readonly url: string;
  /** Ends the server and its counter. */
  kill(): void;
  /** CPU µs per second of the idle server (timers, GC), subtracted from each window. */
  idleCpuPerSec: number;
  /** The same of the database process while this server is idle. */
  idleDbCpuPerSec: number;
  stats(): Promise<Stats>;
  resetPeak(): Promise<Stats>;
  profileStart(): Promise<Stats>;
  profileStop(file: string): Promise<Stats>;
}

export interface Request {
  path: string;
  headers: Record<string, string>;
}

/** A window lasts at least `minSeconds`, then until `minResponses`, but at most `maxSeconds`. */
export interface Timing {
  minSeconds: number;
  minResponses: number;
  maxSeconds: number;
}

/** What one window measured; `combine` sums the windows of a scenario. */
export interface Window {
  windowS: number;
  served: number;
  cpuMicros: number;
  /** The database process's CPU time in the window. */
  dbCpuMicros: number;
  peakRssBytes: number;
  /** Client-side: every response's latency (ms), status and bytes, and connection errors. */
  latencies: number[];
  statuses: Record<string, number>;
  bytes: number;
  errors: number;
  /** `lastUsedAt` writes from the window's start until its last flush had time to land … */
  apiKeyUpdates: number;
  /** … which is this long (the window plus the wait for that flush). */
  apiKeyUpdatesS: number;
  blogDocs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Drives `url` with `requests`, round-robin across all connections, for `seconds`; with `until`,
 * stops at the first sample tick (each second) once both its minimum time and response count
 * are reached. `onResponse` sees every response.
 */
export function cannon(
  url: string,
  requests: Request[],
  seconds: number,
  conns: number,
  until?: Omit<Timing, "maxSeconds">,
  onResponse?: (status: number, bytes: number, ms: number) => void,
): PromiseLike<autocannon.Result> {
  let next = 0;
  const instance = autocannon({
    url,
    connections: conns,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          const r = requests[next++ % requests.length] as Request;
          return { ...req, method: "GET", path: r.path, headers: { ...req.headers, ...r.headers } };
        },
      },
    ],
  });
  let responses = 0;
  let minElapsed = until === undefined;
  const check = () => {
    if (until !== undefined && minElapsed && responses >= until.minResponses) instance.stop();
  };
  instance.on("response", (_client, status, bytes, ms) => {
    responses += 1;
    onResponse?.(status, bytes, ms);
    check();
  });
  if (until !== undefined) {
    const timer = setTimeout(() => {
      minElapsed = true;
      check();
    }, until.minSeconds * 1000);
    const clear = () => clearTimeout(timer);
    instance.then(clear, clear);
  }
  return instance;
}

/** Waits until the server has no request in flight (autocannon leaves some when it stops). */
export async function drained(server: Child): Promise<Stats> {
  for (;;) {
    const stats = await server.stats();
    if (stats.counters.inFlight === 0) return stats;
    await sleep(50);
  }
}

/** CPU µs per second of an idle server and of the database beside it, measured over `ms`. */
export async function idleCpuRate(server: Child, ms: number): Promise<{ own: number; db: number }> {
  const before = await drained(server);
  const started = performance.now();
  await sleep(ms);
  const after = await server.stats();
  const s = (performance.now() - started) / 1000;
  return {
    own: (after.cpuMicros - before.cpuMicros) / s,
    db: (after.dbCpuMicros - before.dbCpuMicros) / s,
  };
}

/**
 * One measured window. CPU and responses are counted inside the server from the start until the
 * last request autocannon sent is done. `lastUsedAt` writes are read `flushWaitMs` later, so a
 * flush of the window's last uses is counted in it rather than lost between windows.
 */
export async function measureWindow(
  server: Child,
  requests: Request[],
  conns: number,
  timing: Timing,
  flushWaitMs: number,
  profileFile?: string,
): Promise<Window> {
  if (profileFile !== undefined) await server.profileStart();
  const before = await server.resetPeak();
  const started = performance.now();
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  const result = await cannon(
    server.url,
    requests,
    timing.maxSeconds,
    conns,
    timing,
    (s, b, ms) => {
      latencies.push(ms);
      statuses[s] = (statuses[s] ?? 0) + 1;
      bytes += b;
    },
  );
  const after = await drained(server);
  const windowS = (performance.now() - started) / 1000;
  if (profileFile !== undefined) await server.profileStop(profileFile);
  await sleep(flushWaitMs);
  const flushed = await server.stats();
  const apiKeyUpdatesS = (performance.now() - started) / 1000;
  return {
    windowS,
    served: after.counters.responses - before.counters.responses,
    cpuMicros: Math.max(0, after.cpuMicros - before.cpuMicros - server.idleCpuPerSec * windowS),
    dbCpuMicros: Math.max(
      0,
      after.dbCpuMicros - before.dbCpuMicros - server.idleDbCpuPerSec * windowS,
    ),
    peakRssBytes: after.peakRssBytes,
    latencies,
    statuses,
    bytes,
    errors: result.errors,
    apiKeyUpdates: flushed.counters.apiKeyUpdates - before.counters.apiKeyUpdates,
    apiKeyUpdatesS,
    blogDocs: after.counters.blogDocs - before.counters.blogDocs,
  };
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** The percentiles the report and chart use, in autocannon's naming. */
const PERCENTILES: [string, number][] = [
  ["p1", 1],
  ["p10", 10],
  ["p25", 25],
  ["p50", 50],
  ["p75", 75],
  ["p90", 90],
  ["p97_5", 97.5],
  ["p99", 99],
];

/** Sums a server's windows of one scenario into its result. */
export function combine(
  scenario: { id: string; title: string; expect: number },
  server: Child["name"],
  windows: Window[],
  keysUsed: number,
): Measured {
  const sum = (f: (w: Window) => number) => windows.reduce((total, w) => total + f(w), 0);
  const windowS = sum((w) => w.windowS);
  const served = sum((w) => w.served);
  const cpuMicros = sum((w) => w.cpuMicros);
  const dbCpuMicros = sum((w) => w.dbCpuMicros);
  const sorted = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const w of windows) {
    for (const [code, n] of Object.entries(w.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  }
  const total = sorted.length;
  return {
    scenario: scenario.id,
    title: scenario.title,
    server,
    requests: total,
    seconds: windowS,
    windows: windows.length,
    reqPerSec: served / windowS,
    latency: Object.fromEntries(PERCENTILES.map(([k, p]) => [k, percentile(sorted, p)])),
    cpuMicrosPerRequest: cpuMicros / Math.max(1, served),
    dbCpuMicrosPerRequest: dbCpuMicros / Math.max(1, served),
    totalCpuMicrosPerRequest: (cpuMicros + dbCpuMicros) / Math.max(1, served),
    cpuShare: cpuMicros / 1e6 / windowS,
    peakRssMB: Math.max(...windows.map((w) => w.peakRssBytes)) / 2 ** 20,
    bytesPerResponse: sum((w) => w.bytes) / Math.max(1, total),
    statuses,
    expectedOnly: statuses[String(scenario.expect)] === total && sum((w) => w.errors) === 0,
    lastUsedWritesPerKeyPerSec:
      sum((w) => w.apiKeyUpdates) / keysUsed / sum((w) => w.apiKeyUpdatesS),
    blogDocsPerRequest: sum((w) => w.blogDocs) / Math.max(1, served),
  };
}

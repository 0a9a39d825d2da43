/**
 * The measuring half of bench/ghost.ts: one request shape on two systems (a "pair"), each
 * measured in windows of closed-loop load (autocannon, keep-alive connections), the two
 * systems' windows alternated within a round and the order reversed every other round, so
 * that a drift of the machine's speed falls on both alike. A window also reads the CPU each
 * system's processes used (bench/process-cpu.ts: Pressroom's app and its database, Ghost's one
 * process with SQLite inside it).
 */
import autocannon from "autocannon";
import { treeCpuMs } from "../process-cpu.js";

export interface Request {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One system under load: its base URL and the processes whose CPU is its cost. */
export interface Side {
  readonly name: string;
  readonly url: string;
  readonly pids: readonly number[];
}

/** The same question asked of both systems. */
export interface Pair {
  readonly id: string;
  readonly title: string;
  /** The status every answer must have. */
  readonly expect: number;
  /** The target: Pressroom's req/s at least this many times Ghost's (null: none). */
  readonly target: number | null;
  /** Requests per side, by `Side.name`, taken round-robin. */
  readonly requests: Readonly<Record<string, readonly Request[]>>;
}

export interface Totals {
  responses: number;
  seconds: number;
  bytes: number;
  latencies: number[];
  /** Answers whose status was not the pair's. */
  unexpected: Map<number, number>;
  /** CPU ms of each of the side's processes, in `Side.pids`' order. */
  cpu: number[];
}

export const emptyTotals = (): Totals => ({
  responses: 0,
  seconds: 0,
  bytes: 0,
  latencies: [],
  unexpected: new Map(),
  cpu: [],
});

const cpuOf = (side: Side) => side.pids.map((pid) => treeCpuMs(pid));

/** One window of `seconds` on `side`, added to `into`. */
export async function window(
  side: Side,
  pair: Pair,
  load: { connections: number; seconds: number },
  into: Totals,
): Promise<void> {
  const requests = pair.requests[side.name] ?? [];
  if (requests.length === 0) throw new Error(`${pair.id}: no requests for ${side.name}`);
  let next = 0;
  const before = cpuOf(side);
  const started = performance.now();
  const instance = autocannon({
    url: side.url,
    connections: load.connections,
    duration: load.seconds,
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
  instance.on("response", (_client, status, bytes, ms) => {
    into.responses++;
    into.bytes += bytes;
    into.latencies.push(ms);
    if (status !== pair.expect) into.unexpected.set(status, (into.unexpected.get(status) ?? 0) + 1);
  });
  await instance;
  into.seconds += (performance.now() - started) / 1000;
  const after = cpuOf(side);
  into.cpu = after.map((ms, i) => (into.cpu[i] ?? 0) + ms - (before[i] ?? 0));
}

/**
 * Every pair on both sides: one warm-up window each, then `rounds` rounds. Returns the totals by
 * `${pair.id}/${side.name}`.
 */
export async function measure(
  pairs: readonly Pair[],
  sides: readonly [Side, Side],
  load: { connections: number; seconds: number; rounds: number },
  log: (line: string) => void,
): Promise<Map<string, Totals>> {
  const totals = new Map<string, Totals>();
  for (const pair of pairs) {
    for (const side of sides) {
      await window(side, pair, { ...load, seconds: Math.min(3, load.seconds) }, emptyTotals());
      totals.set(`${pair.id}/${side.name}`, emptyTotals());
    }
  }
  for (let round = 0; round < load.rounds; round++) {
    const order = round % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
    for (const pair of pairs) {
      for (const side of order) {
        await window(side, pair, load, totals.get(`${pair.id}/${side.name}`) ?? emptyTotals());
      }
    }
    log(`  round ${round + 1} of ${load.rounds} done`);
  }
  return totals;
}

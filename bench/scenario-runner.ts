/**
 * Runs one scenario on every server: an unmeasured warm-up on each, then `rounds` measured
 * windows per server, interleaved (floor, baseline, Pressroom, then Pressroom, baseline, floor, …)
 * so that a steady drift of the machine's speed falls on all alike, summed per server into its
 * result.
 * Why these windows and warm-ups: BENCHMARKS.md, "Lab notes".
 */
import path from "node:path";
import {
  type Child,
  cannon,
  combine,
  drained,
  measureWindow,
  type Timing,
  type Window,
} from "./measure.js";
import type { Measured } from "./report.js";
import type { Scenario, Workspace } from "./scenarios/scenario.js";

export interface RunPlan {
  /** Each measured window (one round on one server). */
  window: Timing;
  /** The unmeasured load before a scenario's windows, on each server. */
  warmup: Timing;
  connections: number;
  /** Connections of the scenarios bound by the database (`Scenario.dbBound`). */
  dbBoundConnections: number;
  rounds: number;
  /** Pressroom's `lastUsedAt` flush window: its window's writes are read after this (+200 ms). */
  lastUsedFlushMs: number;
  /** Where V8 CPU profiles of each window go (`--cpu-profile`), if anywhere. */
  profileDir: string | undefined;
}

/** The scenario's result on each server, in the order of `servers`. */
export async function runScenario(
  scenario: Scenario,
  servers: readonly Child[],
  workspace: Workspace,
  plan: RunPlan,
  log: (line: string) => void,
): Promise<Measured[]> {
  const connections = scenario.dbBound ? plan.dbBoundConnections : plan.connections;
  const requests = await Promise.all(servers.map((s) => scenario.requests(s, workspace)));
  for (const [i, server] of servers.entries()) {
    await cannon(server.url, requests[i] ?? [], plan.warmup.maxSeconds, connections, plan.warmup);
    await drained(server);
  }
  const windows: Window[][] = servers.map(() => []);
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse();
    for (const i of order) {
      const server = servers[i];
      if (server === undefined) continue;
      const profile =
        plan.profileDir === undefined
          ? undefined
          : path.join(plan.profileDir, `${scenario.id}-${server.name}-${round + 1}.cpuprofile`);
      const flushWaitMs = server.name === "pressroom" ? plan.lastUsedFlushMs + 200 : 0;
      const w = await measureWindow(
        server,
        requests[i] ?? [],
        connections,
        plan.window,
        flushWaitMs,
        profile,
      );
      windows[i]?.push(w);
    }
  }
  return servers.map((server, i) => {
    const m = combine(scenario, server.name, windows[i] ?? [], workspace.keys.length);
    log(
      `  ${scenario.id.padEnd(8)} ${server.name.padEnd(9)} ${m.reqPerSec.toFixed(0).padStart(6)} req/s  ` +
        `p50 ${m.latency.p50?.toFixed(1)} ms  p99 ${m.latency.p99?.toFixed(1)} ms  ` +
        `CPU/req ${m.cpuMicrosPerRequest.toFixed(0)} + database ${m.dbCpuMicrosPerRequest.toFixed(0)} µs  ` +
        `RSS ${m.peakRssMB.toFixed(0)} MB`,
    );
    return m;
  });
}

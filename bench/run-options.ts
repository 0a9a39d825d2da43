/** The options of bench/run.ts (`npm run bench`), and the plan they make. */
import path from "node:path";
import { type OptionSpec, optionsOrExit, refuseTogether, type Values } from "./options.js";
import type { RunPlan } from "./scenario-runner.js";
import { SCENARIO_IDS } from "./scenarios/index.js";

const OPTIONS = {
  quick: {
    kind: "flag",
    help: "a short smoke: 2 s, 1 round, a short warm-up; printed only unless --write",
  },
  duration: {
    kind: "number",
    arg: "S",
    min: 0.5,
    help: "measured seconds per scenario per server, at least (10; 2 with --quick)",
  },
  "min-responses": {
    kind: "number",
    arg: "N",
    min: 0,
    integer: true,
    help: "…then on until the server answered N requests (30; 5 with --quick)",
  },
  "max-duration": {
    kind: "number",
    arg: "S",
    min: 0.5,
    help: "…but no longer than S seconds (45; 10 with --quick; never below --duration)",
  },
  rounds: {
    kind: "number",
    arg: "N",
    min: 1,
    integer: true,
    help: "windows per scenario per server, interleaved between the servers (3; 1 with --quick)",
  },
  connections: { kind: "number", arg: "N", min: 1, integer: true, help: "connections (10)" },
  "db-bound-connections": {
    kind: "number",
    arg: "N",
    min: 1,
    integer: true,
    help: "connections of the list scenarios, which wait on the database (10)",
  },
  only: {
    kind: "words",
    arg: "ID,…",
    choices: SCENARIO_IDS,
    help: `just these scenarios (${SCENARIO_IDS.join(", ")}); no SDK sync, nothing written`,
  },
  "cpu-profile": {
    kind: "string",
    arg: "DIR",
    help: "V8 CPU profiles of each window in DIR (costs CPU: figures not comparable)",
  },
  write: { kind: "flag", help: "with --quick: write BENCHMARKS.md and bench/latency.svg" },
  "no-write": { kind: "flag", help: "print the report, write nothing" },
} satisfies Record<string, OptionSpec>;

const PROGRAM = {
  usage: "npm run bench -- [options]  (npx tsx bench/run.ts [options])",
  summary:
    "Pressroom against a bare node:http baseline on a seeded embedded database, scenario by\n" +
    "scenario, then the SDK's sync twice; writes BENCHMARKS.md and bench/latency.svg.",
  options: OPTIONS,
};

export interface RunSettings {
  quick: boolean;
  plan: RunPlan;
  /** The figures the report states (BENCHMARKS.md, "Load"). */
  durationS: number;
  minResponses: number;
  maxDurationS: number;
  only: string[] | undefined;
  write: boolean;
}

/** Pressroom's `lastUsedAt` flush window in the benchmark (its default, set explicitly). */
export const LAST_USED_FLUSH_MS = 1000;

function check(o: Values<typeof OPTIONS>): void {
  refuseTogether("write", "no-write", o.write && o["no-write"], "pick one");
  refuseTogether("only", "write", o.only !== undefined && o.write, "--only writes nothing");
}

/** This process's options (exits 2 on a bad command line), as a plan. */
export function runSettings(): RunSettings {
  const o = optionsOrExit(PROGRAM, check);
  const quick = o.quick;
  const durationS = o.duration ?? (quick ? 2 : 10);
  const minResponses = o["min-responses"] ?? (quick ? 5 : 30);
  const maxDurationS = Math.max(durationS, o["max-duration"] ?? (quick ? 10 : 45));
  const rounds = o.rounds ?? (quick ? 1 : 3);
  return {
    quick,
    durationS,
    minResponses,
    maxDurationS,
    only: o.only,
    write: o.only === undefined && (quick ? o.write : !o["no-write"]),
    plan: {
      window: {
        minSeconds: durationS / rounds,
        minResponses: Math.ceil(minResponses / rounds),
        maxSeconds: maxDurationS / rounds,
      },
      // Unmeasured, so that the windows measure the steady state rather than V8 still compiling
      // the request path (BENCHMARKS.md, "Lab notes").
      warmup: quick
        ? { minSeconds: 0.5, minResponses: 3, maxSeconds: 5 }
        : { minSeconds: 5, minResponses: 30, maxSeconds: 60 },
      connections: o.connections ?? 10,
      // Lists were full scans of the stock FerretDB once (then 1 connection); they are index
      // searches on the patched one, so they take the same load as the others.
      dbBoundConnections: o["db-bound-connections"] ?? 10,
      rounds,
      lastUsedFlushMs: LAST_USED_FLUSH_MS,
      profileDir: o["cpu-profile"] === undefined ? undefined : path.resolve(o["cpu-profile"]),
    },
  };
}

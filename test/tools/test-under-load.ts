// npm run test:under-load: the whole `npm test`, several passes in a row, while CPU burners keep
// every core busy (test/README.md, "Under load"). A test that passes on a quiet machine and
// fails here measures time instead of waiting for what it stands for, or has found a race.
//
//   npm run test:under-load -- [--passes N] [--burners N] [--max-hours H]
//
// Each burner is a child process spinning at normal priority. It is bounded: it ends when this
// script ends (killed, or its parent gone: checked every 100 ms) and after --max-hours at most.
// Each pass prints its exit code, its time, the load average it ran under and vitest's counts;
// the script stops at the first failed pass and exits 1, else 0.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";

const USAGE =
  "usage: npm run test:under-load -- [--passes N (2)] [--burners N (one per core)] [--max-hours H (4)]";

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} must be a positive number, not ${JSON.stringify(value)}\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

let options: { passes?: string; burners?: string; "max-hours"?: string; help?: boolean };
try {
  options = parseArgs({
    options: {
      passes: { type: "string" },
      burners: { type: "string" },
      "max-hours": { type: "string" },
      help: { type: "boolean" },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const passes = Math.floor(positive("passes", options.passes, 2));
const burnerCount = Math.floor(positive("burners", options.burners, availableParallelism()));
const maxMs = positive("max-hours", options["max-hours"], 4) * 3_600_000;

/** Spins until its deadline or until the process that started it is gone. */
const BURN = `
const parent = process.ppid;
const deadline = Date.now() + ${maxMs};
for (;;) {
  const slice = Date.now() + 100;
  while (Date.now() < slice);
  if (process.ppid !== parent || Date.now() > deadline) process.exit(0);
}`;

const burners: ChildProcess[] = [];
const stopBurners = () => {
  for (const b of burners) b.kill("SIGKILL");
};
process.on("exit", stopBurners);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stopBurners();
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

interface VitestResults {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTestSuites: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}
const RESULTS = "test-output/vitest-results.json";

function vitestSummary(): string {
  let r: VitestResults;
  try {
    r = JSON.parse(readFileSync(RESULTS, "utf8")) as VitestResults;
  } catch {
    return "vitest did not report (the run stopped before it)";
  }
  const failed = r.testResults.flatMap((f) =>
    f.assertionResults
      .filter((a) => a.status === "failed")
      .map((a) => `${f.name.replace(`${process.cwd()}/`, "")} › ${a.fullName}`),
  );
  return [
    `vitest ${r.numPassedTests}/${r.numTotalTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`,
    ...failed.map((f) => `  failed: ${f}`),
  ].join("\n");
}

function runPass(): Promise<{ code: number | null; seconds: number; load: number[] }> {
  rmSync(RESULTS, { force: true });
  const started = Date.now();
  const load: number[] = [];
  const sampler = setInterval(() => load.push(loadavg()[0] ?? 0), 10_000);
  const child = spawn("npm", ["test"], { stdio: "inherit" });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearInterval(sampler);
      resolve({ code, seconds: Math.round((Date.now() - started) / 1000), load });
    });
  });
}

for (let i = 0; i < burnerCount; i++) {
  burners.push(spawn(process.execPath, ["-e", BURN], { stdio: "ignore" }));
}
console.log(
  `under load: ${burnerCount} CPU burners on ${availableParallelism()} cores, ${passes} passes of npm test`,
);

const lines: string[] = [];
let failed = false;
for (let pass = 1; pass <= passes && !failed; pass++) {
  const r = await runPass();
  const mean = r.load.reduce((a, b) => a + b, 0) / Math.max(1, r.load.length);
  const max = Math.max(0, ...r.load);
  failed = r.code !== 0;
  lines.push(
    `under load, pass ${pass}/${passes}: npm test exit ${r.code} in ${r.seconds} s, ` +
      `load average (1 min) mean ${mean.toFixed(1)}, max ${max.toFixed(1)}; ${vitestSummary()}`,
  );
  console.log(lines.at(-1));
}
stopBurners();
console.log(`\n${lines.join("\n")}`);
console.log(failed ? "under load: FAILED" : `under load: all ${passes} passes passed`);
process.exit(failed ? 1 : 0);

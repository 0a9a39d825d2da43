/**
 * `npm run bench` (`npx tsx bench/run.ts [options]`; `--help` lists them, run-options.ts has
 * them): Pressroom against two bare `node:http` baselines, on loopback, over the same data: one
 * through the MongoDB driver and the database process, and the floor, reading the database's
 * SQLite file itself.
 *
 * Builds what the servers run (servers.ts: server/dist and bench/dist), seeds a throwaway
 * embedded database (FerretDB/SQLite; seed.ts), starts Pressroom in production mode
 * (pressroom-server.ts), the driver baseline (baseline-server.ts), each in its own child process
 * and each reaching the database through its own counter of database work (db-counter.ts), and
 * the floor (floor-server.ts) on the database's file, checks that the three answer the
 * scenarios' requests alike (same-answers.ts), then runs every scenario (scenarios/, one file
 * each) on all three with autocannon (scenario-runner.ts: a warm-up, then interleaved windows;
 * measure.ts), runs the SDK's sync example twice (sdk-sync.ts), and writes BENCHMARKS.md
 * (report.ts; the sections of db-scaling.ts and the lab notes are carried over) and
 * bench/latency.svg. A full run takes about 13 minutes on a 2-core machine. Why the windows,
 * warm-ups and counters are as they are: BENCHMARKS.md, "Lab notes".
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { ensureIndexes } from "../server/src/platform/db/indexes.js";
import { type EmbeddedDb, startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import {
  BY_HAND,
  DB_SCALING,
  EDITORIAL,
  FAIRNESS,
  GHOST,
  keepSections,
  LAB_NOTES,
  MEDIA,
  MEDIA_LIBRARY,
  RATE_LIMITS,
  readOrEmpty,
  SCHEDULES,
  SITE_BUILDERS,
} from "./benchmarks-section.js";
import { renderSvg } from "./latency-svg.js";
import { type Child, idleCpuRate } from "./measure.js";
import { type Measured, renderMarkdownReport } from "./report.js";
import { LAST_USED_FLUSH_MS, type RunSettings, runSettings } from "./run-options.js";
import { checkSameAnswers } from "./same-answers.js";
import { runScenario } from "./scenario-runner.js";
import { SCENARIOS } from "./scenarios/index.js";
import { syncTwice } from "./sdk-sync.js";
import { averageBlogBytes, COUNTS, KEYS_PER_WORKSPACE, seed } from "./seed.js";
import { compile, startFloor, startServer } from "./servers.js";
import { NODE_FLAGS } from "./start-flags.js";
import { versions } from "./versions.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DB_NAME = "pressroom_bench";
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seeds the database at `uri`; returns workspace A (whose data the scenarios use). */
async function seeded(uri: string) {
  const client = new MongoClient(uri);
  await client.connect();
  try {
    const db = client.db(DB_NAME);
    await ensureIndexes(db);
    log(
      `Seeding 2 workspaces × (${COUNTS.released} released, ${COUNTS.draft} draft, ${COUNTS.removed} removed)…`,
    );
    const [a] = await seed(db);
    if (a === undefined) throw new Error("seed failed");
    return { workspace: a, blogBytes: await averageBlogBytes(db, a.id) };
  } finally {
    await client.close();
  }
}

/** The three servers on `database`, settled, their idle CPU rates measured. */
async function startServers(database: EmbeddedDb, quick: boolean, started: Child[]) {
  const { uri, pid } = database;
  const env = { MONGODB_DB: DB_NAME };
  started.push(await startFloor(path.join(database.dataDir, `${DB_NAME}.sqlite`)));
  started.push(await startServer("baseline", "baseline-server.js", uri, pid, env));
  started.push(
    await startServer("pressroom", "pressroom-server.js", uri, pid, {
      ...env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: "0",
      LAST_USED_FLUSH_MS: String(LAST_USED_FLUSH_MS),
      // The scenarios measure answering requests, not the rate limit's 429s: its default (1,200
      // per key per minute) is far below what they send. bench:limits measures the limiter.
      CONSUMER_RATE_LIMIT: "off",
    }),
  );
  // Pressroom keeps a core busy for a few hundred ms after it reports ready (startup work
  // finishing), which would otherwise count in its idle rate.
  await sleep(quick ? 1500 : 3000);
  for (const child of started) {
    const idle = await idleCpuRate(child, quick ? 500 : 2000);
    child.idleCpuPerSec = idle.own;
    if (child.name !== "floor") child.idleDbCpuPerSec = idle.db;
  }
  return started;
}

async function writeReport(markdown: string, results: Measured[]): Promise<void> {
  // The sections of bench/db-scaling.ts and the hand-written lab notes are carried over.
  const file = path.join(ROOT, "BENCHMARKS.md");
  await writeFile(
    file,
    keepSections(await readOrEmpty(file), markdown, [
      LAB_NOTES,
      DB_SCALING,
      RATE_LIMITS,
      BY_HAND,
      FAIRNESS,
      EDITORIAL,
      SCHEDULES,
      SITE_BUILDERS,
      MEDIA,
      MEDIA_LIBRARY,
      GHOST,
    ]),
  );
  await writeFile(path.join(ROOT, "bench/latency.svg"), renderSvg(results));
  log("Wrote BENCHMARKS.md and bench/latency.svg");
}

async function main(settings: RunSettings): Promise<void> {
  const started = Date.now();
  const { plan, quick, only } = settings;
  compile("server", log);
  compile("bench", log);
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-bench-"));
  const children: Child[] = [];
  const database = await startEmbeddedDb({ dataDir: path.join(tmp, "db"), onProgress: log });
  try {
    const { workspace, blogBytes } = await seeded(database.uri);
    const servers = await startServers(database, quick, children);
    await checkSameAnswers(servers, workspace);
    log(
      `${servers.map((s) => `${s.name} ${s.url}`).join(", ")}; ${settings.durationS} s per scenario ` +
        `(until ${settings.minResponses} responses, at most ${settings.maxDurationS} s) in ` +
        `${plan.rounds} interleaved rounds, ${plan.connections} connections ` +
        `(${plan.dbBoundConnections} for the list scenarios); idle CPU µs/s: ` +
        servers.map((s) => `${s.name} ${s.idleCpuPerSec.toFixed(0)}`).join(", ") +
        `; database while idle: ${servers.map((s) => `${s.name} ${s.idleDbCpuPerSec.toFixed(0)}`).join(", ")}`,
    );
    if (plan.profileDir !== undefined) await mkdir(plan.profileDir, { recursive: true });
    const results: Measured[] = [];
    for (const scenario of SCENARIOS.filter((s) => only?.includes(s.id) ?? true)) {
      results.push(...(await runScenario(scenario, servers, workspace, plan, log)));
    }
    if (only !== undefined) return;

    const pressroom = servers.find((s) => s.name === "pressroom");
    if (pressroom === undefined) throw new Error("no pressroom server");
    const syncs = await syncTwice(pressroom, workspace.keys[0] ?? "", path.join(tmp, "sync"), log);
    const markdown = renderMarkdownReport({
      versions: versions(),
      setup: {
        durationS: settings.durationS,
        minResponses: settings.minResponses,
        maxDurationS: settings.maxDurationS,
        warmup: plan.warmup,
        connections: plan.connections,
        dbBoundConnections: plan.dbBoundConnections,
        rounds: plan.rounds,
        keys: KEYS_PER_WORKSPACE,
        counts: COUNTS,
        blogBytes,
        nodeFlags: NODE_FLAGS,
      },
      results,
      syncs,
      elapsedS: (Date.now() - started) / 1000,
    });
    process.stdout.write(`${markdown}\n`);
    if (settings.write) await writeReport(markdown, results);
  } finally {
    for (const child of children) child.kill();
    await database.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main(runSettings());

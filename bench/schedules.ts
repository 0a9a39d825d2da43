/**
 * `npm run bench:schedules` (`npx tsx bench/schedules.ts [options]`; `--help` lists them).
 *
 * What scheduled releases cost and how late they come (admin.yaml, "Schedules"; the scheduler is
 * server/src/blogs/blog-scheduler.ts). On a copy of the db-scaling seed (10,000 released blogs),
 * two scheduler instances, each with its own driver connection and stores as a server builds
 * them (in this process), share the embedded database:
 * - idle: for `--idle-seconds`, nothing due (one schedule a day ahead), the database commands
 *   each instance's scheduler sends (target ≤ 1 per 5 s per instance);
 * - lateness: 1,000 drafts, their releases scheduled through the two instances in turn, due
 *   spread over one minute, then all at one instant; per release, when it was made (the blog's
 *   `releasedAt`) minus its time (target p99 ≤ 5 s).
 * Prints the figures and writes them into BENCHMARKS.md's "schedules" section unless --no-write.
 */
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { type BlogScheduler, startBlogScheduler } from "../server/src/blogs/blog-scheduler.js";
import { collections } from "../server/src/platform/db/collections.js";
import { ensureIndexes } from "../server/src/platform/db/indexes.js";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { createLogger } from "../server/src/platform/logger.js";
import { createStores, type Stores } from "../server/src/stores.js";
import { readOrEmpty, SCHEDULES, withSection } from "./benchmarks-section.js";
import { children, startLauncher } from "./db-scaling/processes.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:schedules -- [options]  (npx tsx bench/schedules.ts [options])",
  summary:
    "The scheduler's database commands while idle, and the lateness of 1,000 scheduled\n" +
    "releases due within one minute and at one instant, with two instances.",
  options: {
    count: { kind: "number", arg: "N", min: 10, integer: true, help: "scheduled releases (1000)" },
    "idle-seconds": { kind: "number", arg: "S", min: 5, help: "idle window (60)" },
    "seed-dir": { kind: "string", arg: "DIR", help: "keep (and reuse) the seed here" },
    "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
  },
});
const COUNT = options.count ?? 1000;
const IDLE_S = options["idle-seconds"] ?? 60;
const SIZE = 10_000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = createLogger("error", process.stderr);

interface Instance {
  client: MongoClient;
  stores: Stores;
  scheduler: BlogScheduler;
  /** Commands this instance's client sent, by name, since the last `reset`. */
  commands: Map<string, number>;
}

async function instance(uri: string): Promise<Instance> {
  const client = new MongoClient(uri, { monitorCommands: true });
  await client.connect();
  const commands = new Map<string, number>();
  client.on("commandStarted", (e) =>
    commands.set(e.commandName, (commands.get(e.commandName) ?? 0) + 1),
  );
  let scheduler: BlogScheduler | undefined;
  const stores = createStores(client.db(DB_NAME), { onScheduled: (at) => scheduler?.nudge(at) });
  scheduler = startBlogScheduler({
    collections: collections(client.db(DB_NAME)),
    fire: stores.blogs.fireSchedule,
    log: quiet,
  });
  return { client, stores, scheduler, commands };
}

const percentile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Schedules `COUNT` drafts' releases at `times(i)` through the instances in turn; their lateness. */
async function lateness(
  instances: Instance[],
  workspace: string,
  times: (i: number) => Date,
): Promise<number[]> {
  const [a] = instances;
  if (a === undefined) throw new Error("no instance");
  log(`  creating ${COUNT} drafts…`);
  const drafts = [];
  for (let i = 0; i < COUNT; i++) {
    drafts.push(
      await a.stores.blogs.create(workspace, {
        title: `Scheduled bench ${Date.now()} ${i}`,
        bodyMarkdown: "Due soon.",
      }),
    );
  }
  log("  scheduling them through both instances…");
  const due = drafts.map((_, i) => times(i));
  for (const [i, blog] of drafts.entries()) {
    const through = instances[i % instances.length] ?? a;
    await through.stores.blogs.schedule(
      workspace,
      blog._id,
      { publishAt: due[i] ?? null },
      "any",
      null,
    );
  }
  const last = Math.max(...due.map((d) => d.getTime()));
  log(`  waiting for the last one, due ${new Date(last).toISOString()}…`);
  const blogs = collections(a.client.db(DB_NAME)).blogs;
  for (;;) {
    const left = await blogs.countDocuments({
      _id: { $in: drafts.map((d) => d._id) },
      status: "draft",
    });
    if (left === 0) break;
    if (Date.now() > last + 120_000) throw new Error(`${left} releases never came`);
    await sleep(500);
  }
  const releasedAt = new Map(
    (
      await blogs
        .find({ _id: { $in: drafts.map((d) => d._id) } }, { projection: { releasedAt: 1 } })
        .toArray()
    ).map((d) => [d._id, (d.releasedAt as Date).getTime()]),
  );
  return drafts.map((d, i) => (releasedAt.get(d._id) ?? Number.NaN) - (due[i]?.getTime() ?? 0));
}

async function main(): Promise<void> {
  const started = Date.now();
  const group = children();
  const stops: (() => Promise<void>)[] = [];
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-schedules-"));
  const instances: Instance[] = [];
  try {
    const bin = await ensureEmbeddedDbBinary(log);
    const seedDir = path.join(options["seed-dir"] ?? path.join(tmp, "seed"), String(SIZE));
    const seed = await seeded(group, bin, seedDir, SIZE, log);
    await cp(path.join(seedDir, "data"), path.join(tmp, "data"), { recursive: true });
    const db = await startLauncher(group, bin, path.join(tmp, "data"), false);
    stops.push(db.stop);
    // As the app does at start: the seed may predate an index (schedule_due), and without it
    // the embedded database answers the scheduler's look by reading every blog.
    {
      const client = new MongoClient(db.uri);
      await client.connect();
      await ensureIndexes(client.db(DB_NAME));
      await client.close();
      await sleep(2500); // the launcher's pass that indexes new fields (-id-index-interval)
    }
    for (let i = 0; i < 2; i++) instances.push(await instance(db.uri));

    // Idle: one schedule a day ahead, beyond every look's horizon.
    const [a, b] = instances;
    if (a === undefined || b === undefined) throw new Error("no instances");
    const far = await a.stores.blogs.create(seed.workspace, {
      title: "Far ahead",
      bodyMarkdown: ".",
    });
    await a.stores.blogs.schedule(
      seed.workspace,
      far._id,
      { publishAt: new Date(Date.now() + 86_400_000) },
      "any",
      null,
    );
    await sleep(1000);
    for (const x of instances) x.commands.clear();
    log(`idle: ${IDLE_S} s…`);
    await sleep(IDLE_S * 1000);
    const idle = instances.map((x) => [...x.commands.values()].reduce((n, c) => n + c, 0));
    const perFive = idle.map((n) => (n * 5) / IDLE_S);

    log("lateness, due spread over one minute:");
    const spreadStart = Date.now() + 60_000;
    const spread = await lateness(
      instances,
      seed.workspace,
      (i) => new Date(spreadStart + (i * 60_000) / COUNT),
    );
    log("lateness, all due at one instant:");
    const instant = Date.now() + 60_000;
    const burst = await lateness(instances, seed.workspace, () => new Date(instant));

    const row = (what: string, values: number[]) =>
      `| ${what} | ${s(percentile(values, 0.5))} | ${s(percentile(values, 0.99))} | ${s(Math.max(...values))} | ${s(Math.min(...values))} | ${values.length} | ${percentile(values, 0.99) <= 5000 ? "met" : "**missed**"} |`;
    const markdown = [
      "## Schedules: an idle scheduler, and 1,000 releases due at once (`npm run bench:schedules`)",
      "",
      "Generated by `npm run bench:schedules` (`bench/schedules.ts`); do not edit by hand — rerun it.",
      "",
      `- **Date:** ${new Date().toISOString()}; command \`tsx bench/schedules.ts ${process.argv.slice(2).join(" ")}\`; whole run ${Math.round((Date.now() - started) / 1000)} s; Node ${process.version}; ${os.cpus().length} cores.`,
      `- **How:** a copy of the db-scaling seed (${SIZE.toLocaleString("en")} released blogs) on the embedded database; two scheduler instances (server/src/blogs/blog-scheduler.ts) in this process, each with its own driver connection and stores, as two servers would have. Idle: ${IDLE_S} s with one schedule a day ahead, counting every command each instance's connection sent. Lateness: ${COUNT.toLocaleString("en")} drafts, their releases scheduled through the two instances in turn (each instance wakes for its own; the other sees them at its next look), then per blog its \`releasedAt\` minus its time.`,
      "",
      "| Idle scheduler | instance 1 | instance 2 | target |",
      "|---|---|---|---|",
      `| database commands in ${IDLE_S} s | ${idle[0]} | ${idle[1]} | — |`,
      `| per 5 s | ${perFive[0]?.toFixed(2)} | ${perFive[1]?.toFixed(2)} | ≤ 1: ${perFive.every((n) => n <= 1) ? "met" : "**missed**"} |`,
      "",
      "| Lateness of a scheduled release | p50 | p99 | max | min | n | target p99 ≤ 5 s |",
      "|---|---|---|---|---|---|---|",
      row("due spread evenly over one minute", spread),
      row("all due at one instant", burst),
    ].join("\n");
    process.stdout.write(`${markdown}\n`);
    if (!options["no-write"]) {
      const file = path.join(ROOT, "BENCHMARKS.md");
      await writeFile(file, withSection(await readOrEmpty(file), SCHEDULES, markdown));
      log("Wrote BENCHMARKS.md (schedules section)");
    }
  } finally {
    for (const x of instances) {
      await x.scheduler.close();
      await x.client.close();
    }
    for (const stop of stops.reverse()) await stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

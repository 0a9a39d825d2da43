/**
 * One variant (stock or patched FerretDB) at one size, in bench/db-scaling.ts: the launcher on
 * its copy of the seeded data and the app on it, then per kind of request the first one,
 * warm-ups and samples; peak RSS; the database alone restarted and the first reads again; last,
 * create + release (it adds blogs).
 */
import os from "node:os";
import type { ScalingSeed } from "../scaling-seed.js";
import { caughtUpToken } from "./changes-token.js";
import { type Client, client } from "./http-client.js";
import {
  adminStep,
  consumerSteps,
  type Figures,
  MEASURES,
  type MeasureId,
  type Step,
  type Variant,
  type VariantResult,
} from "./measures.js";
import {
  type Children,
  memoryOf,
  type Proc,
  portOf,
  startApp,
  startLauncher,
} from "./processes.js";

/** Warm-up requests, then measured ones, per kind of request. */
export interface SamplePlan {
  warmup: number;
  samples: number;
}

/** What every variant runs with. */
export interface VariantSetup {
  group: Children;
  /** The launcher binary. */
  bin: string;
  dbName: string;
  /** Bound on each request. */
  timeoutMs: number;
  plans: Record<Variant, SamplePlan>;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const emptyFigures = (): Figures => ({
  times: [],
  failures: [],
  first: null,
  firstAfterDbRestart: null,
});
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function first(
  step: Step,
  figures: Figures,
  which: "first" | "firstAfterDbRestart" = "first",
): Promise<void> {
  try {
    figures[which] = await step();
  } catch (err) {
    figures.failures.push(
      `${which === "first" ? "first" : "first after restart"}: ${message(err)}`,
    );
  }
}

/** Waits until the app's `GET /readyz` answers 200 (its driver reached the database). */
async function ready(api: Client): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await api.call("GET", "/readyz").catch(() => null);
    if (reply?.status === 200) return;
    if (Date.now() > deadline) throw new Error("the app did not reach the restarted database");
    await sleep(100);
  }
}

async function sample(
  step: Step,
  figures: Figures,
  plan: SamplePlan,
  label: string,
  log: (line: string) => void,
): Promise<void> {
  for (let i = 0; i < plan.warmup + plan.samples; i++) {
    try {
      const ms = await step();
      if (i >= plan.warmup) figures.times.push(ms);
    } catch (err) {
      figures.failures.push(message(err));
      log(`    ${label}: ${message(err)}`);
      // A failure in every warm-up and the first sample: give up on this measure.
      if (figures.times.length === 0 && figures.failures.length > plan.warmup + 1) return;
    }
  }
}

export async function measureVariant(
  setup: VariantSetup,
  dataDir: string,
  variant: Variant,
  seed: ScalingSeed,
): Promise<VariantResult> {
  const { group, bin, log } = setup;
  const started = Date.now();
  const load = { start: os.loadavg(), end: [] as number[] };
  const plan = setup.plans[variant];
  let db = await startLauncher(group, bin, dataDir, variant === "stock");
  let app: (Proc & { url: string }) | undefined;
  let api: Client | undefined;
  try {
    app = await startApp(group, db.uri, setup.dbName);
    api = client(app.url, setup.timeoutMs);
    const measures = Object.fromEntries(MEASURES.map((m) => [m.id, emptyFigures()])) as Record<
      MeasureId,
      Figures
    >;
    const steps = consumerSteps(api, seed);
    steps.useChangesToken(await caughtUpToken(db.uri, setup.dbName, seed.workspace));
    const reads = [
      "list",
      "deep",
      "limit100",
      "list304",
      "get",
      "bySlug",
      "foreign404",
      "changesIdle",
      "tag10",
      "tag01",
      "tags",
      "fields100",
    ] as const;
    // The first request of each kind after both processes started.
    for (const id of reads) await first(steps[id], measures[id]);
    for (const id of reads) {
      log(`  ${variant} ${id}: ${plan.warmup} warm-up + ${plan.samples} requests…`);
      await sample(steps[id], measures[id], plan, `${variant} ${id}`, log);
    }
    const dbLists = memoryOf(db.pid).peak;
    const appLists = memoryOf(app.pid).peak;
    // The database alone restarted (same port), the app warm: its first reads again.
    log(`  ${variant}: restarting the database alone…`);
    await db.stop();
    db = await startLauncher(group, bin, dataDir, variant === "stock", portOf(db.uri));
    await ready(api);
    for (const id of reads) await first(steps[id], measures[id], "firstAfterDbRestart");
    log(`  ${variant} create+release: sign-in, then 1 + ${plan.warmup} + ${plan.samples}…`);
    try {
      const create = await adminStep(api, app.url, seed);
      await first(create, measures.create);
      await sample(create, measures.create, plan, `${variant} create`, log);
    } catch (err) {
      measures.create.failures.push(message(err));
    }
    const rss = {
      dbLists,
      appLists,
      dbEnd: memoryOf(db.pid).peak,
      appEnd: memoryOf(app.pid).peak,
    };
    load.end = os.loadavg();
    return {
      variant,
      size: seed.released,
      measures,
      bytes: steps.bytes(),
      rss,
      load,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    api?.close();
    await app?.stop();
    await db.stop();
  }
}

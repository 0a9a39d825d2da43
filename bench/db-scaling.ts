/**
 * `npm run bench:db` (`npx tsx bench/db-scaling.ts [options]`; `--help` lists them,
 * db-scaling/options.ts has them); `npm run bench` runs it after bench/run.ts.
 *
 * How the embedded database scales, stock FerretDB against our patched one (exact pushdown of
 * filters, sorts and limits to SQLite: server/embedded-db/README.md), over HTTP through the whole
 * app, at each of `--sizes` released blogs. Per size, the data is seeded once
 * (db-scaling/seeding.ts, bench/scaling-seed.ts) and copied for each variant, so both start from
 * the same SQLite files; per variant (db-scaling/variant.ts) the launcher and the app as
 * `npm start` runs it (db-scaling/processes.ts) serve one request at a time of each kind
 * (db-scaling/measures.ts). The figures are printed as markdown tables with the targets
 * (db-scaling/report.ts; PASS/MISS, figures only: this is a benchmark, not a test) and, unless
 * `--quick` or `--no-write`, written into BENCHMARKS.md between `<!-- db-scaling:start -->` and
 * `<!-- db-scaling:end -->`, which bench/run.ts keeps when it rewrites the file. The section
 * itself states how the requests are made; the lab notes of BENCHMARKS.md say why.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { DB_SCALING, readOrEmpty, withSection } from "./benchmarks-section.js";
import { type ColdBuild, coldBuild } from "./db-scaling/cold-build.js";
import type { VariantResult } from "./db-scaling/measures.js";
import { type ScalingSettings, scalingSettings } from "./db-scaling/options.js";
import { children } from "./db-scaling/processes.js";
import { mb, p50, report, time } from "./db-scaling/report.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { measureVariant, type VariantSetup } from "./db-scaling/variant.js";
import type { ScalingSeed } from "./scaling-seed.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Every size of the run, each variant on its own copy of the size's seed. */
async function measureAll(
  settings: ScalingSettings,
  setup: VariantSetup,
  tmp: string,
): Promise<{ results: VariantResult[]; seeds: ScalingSeed[] }> {
  const results: VariantResult[] = [];
  const seeds: ScalingSeed[] = [];
  for (const size of settings.sizes) {
    const seedDir = path.join(settings.seedDir ?? tmp, String(size));
    const seed = await seeded(setup.group, setup.bin, seedDir, size, log);
    seeds.push(seed);
    for (const variant of settings.variants) {
      if (variant === "stock" && !(settings.stockSizes?.includes(size) ?? true)) continue;
      const dataDir = path.join(tmp, `${size}-${variant}`);
      await cp(path.join(seedDir, "data"), dataDir, { recursive: true });
      log(`${size.toLocaleString("en")} blogs, ${variant}:`);
      const result = await measureVariant(setup, dataDir, variant, seed);
      results.push(result);
      const list = result.measures.list;
      log(
        `  list p50 ${time(p50(list))} (first ${time(list.first)}), launcher peak RSS ${mb(result.rss.dbLists)} MB, app ${mb(result.rss.appLists)} MB`,
      );
      await rm(dataDir, { recursive: true, force: true });
    }
    if (settings.seedDir === undefined) await rm(seedDir, { recursive: true, force: true });
  }
  return { results, seeds };
}

async function main(settings: ScalingSettings): Promise<void> {
  const started = Date.now();
  const load = { start: os.loadavg(), end: [] as number[] };
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  log("tsc -p server…");
  execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  const group = children();
  const bin = settings.launcher ?? (await ensureEmbeddedDbBinary(log));
  const cold: ColdBuild | null = settings.coldBuild ? await coldBuild(group, log) : null;
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-db-scaling-"));
  const setup: VariantSetup = {
    group,
    bin,
    dbName: DB_NAME,
    timeoutMs: settings.timeoutMs,
    plans: settings.plans,
    log,
  };
  let measured: Awaited<ReturnType<typeof measureAll>>;
  try {
    measured = await measureAll(settings, setup, tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  load.end = os.loadavg();
  const markdown = report(
    measured.results,
    measured.seeds,
    cold,
    load,
    (Date.now() - started) / 1000,
    { sizes: settings.sizes, plans: settings.plans, args: process.argv.slice(2) },
  );
  process.stdout.write(`${markdown}\n`);
  if (settings.write) {
    const file = path.join(ROOT, "BENCHMARKS.md");
    await writeFile(file, withSection(await readOrEmpty(file), DB_SCALING, markdown));
    log("Wrote its section of BENCHMARKS.md");
  }
}

await main(scalingSettings());

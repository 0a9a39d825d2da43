/**
 * The markdown bench/db-scaling.ts prints and writes between the db-scaling markers of
 * BENCHMARKS.md: per size, a table of both variants; then the targets of the patched one.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { ScalingSeed } from "../scaling-seed.js";
import type { ColdBuild } from "./cold-build.js";
import {
  type Figures,
  MEASURES,
  type MeasureDef,
  type Variant,
  type VariantResult,
} from "./measures.js";
import type { SamplePlan } from "./variant.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Nearest-rank percentile of sorted `xs`. */
const percentile = (xs: number[], p: number) =>
  xs.length === 0 ? null : (xs[Math.max(0, Math.ceil(p * xs.length) - 1)] ?? null);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** A time for a table whose header says "ms": ms below 1 s, "1.23 s" above. */
const ms = (x: number | null) =>
  x === null
    ? "—"
    : x >= 1000
      ? `${(x / 1000).toFixed(2)} s`
      : x >= 100
        ? x.toFixed(0)
        : x.toFixed(1);
/** A time with its unit. */
export const time = (x: number | null) => (x === null || x >= 1000 ? ms(x) : `${ms(x)} ms`);
export const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;
export const p50 = (f: Figures | undefined) =>
  f === undefined ? null : percentile(sorted(f.times), 0.5);
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");

function sizeTable(size: number, results: VariantResult[]): string {
  const stock = results.find((r) => r.size === size && r.variant === "stock");
  const patched = results.find((r) => r.size === size && r.variant === "patched");
  const lines = [
    `### ${size.toLocaleString("en")} released blogs`,
    "",
    "| Measure (ms) | stock p50 | first after start | after db restart | n | patched p50 | p90 | max | first after start | after db restart | n |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const n = (f: Figures | undefined) =>
    f === undefined
      ? "—"
      : `${f.times.length}${f.failures.length > 0 ? ` (${f.failures.length} failed)` : ""}`;
  const reads = (m: MeasureDef, x: number | null) => (m.id === "create" ? "—" : ms(x));
  for (const m of MEASURES) {
    const s = stock?.measures[m.id];
    const p = patched?.measures[m.id];
    const ps = sorted(p?.times ?? []);
    lines.push(
      `| ${m.title} | ${ms(p50(s))} | ${ms(s?.first ?? null)} | ${reads(m, s?.firstAfterDbRestart ?? null)} | ${n(s)} | ${ms(percentile(ps, 0.5))} | ${ms(percentile(ps, 0.9))} | ${ms(ps.at(-1) ?? null)} | ${ms(p?.first ?? null)} | ${reads(m, p?.firstAfterDbRestart ?? null)} | ${n(p)} |`,
    );
  }
  const rss = (r: VariantResult | undefined, pick: (x: VariantResult["rss"]) => number) =>
    r === undefined ? "—" : mb(pick(r.rss));
  lines.push(
    "",
    "| Peak RSS (VmHWM, MB) | stock | patched |",
    "|---|---|---|",
    `| embedded database (launcher), serving lists (from its start to the end of the reads) | ${rss(stock, (x) => x.dbLists)} | ${rss(patched, (x) => x.dbLists)} |`,
    `| app server, same span | ${rss(stock, (x) => x.appLists)} | ${rss(patched, (x) => x.appLists)} |`,
    `| embedded database after its restart, at the end (first reads, create + release) | ${rss(stock, (x) => x.dbEnd)} | ${rss(patched, (x) => x.dbEnd)} |`,
    `| app server, at the end | ${rss(stock, (x) => x.appEnd)} | ${rss(patched, (x) => x.appEnd)} |`,
    "",
    ...results
      .filter((r) => r.size === size)
      .map(
        (r) =>
          `${r.variant}: ${r.seconds.toFixed(0)} s; load average (1/5/15 min) ${loadText(r.load.start)} at start, ${loadText(r.load.end)} at end.`,
      ),
  );
  const failures = results
    .filter((r) => r.size === size)
    .flatMap((r) =>
      MEASURES.flatMap((m) => {
        const f = r.measures[m.id];
        return f.failures.length === 0
          ? []
          : [`- ${r.variant} ${m.id}: ${f.failures.length} failed, first: ${f.failures[0]}`];
      }),
    );
  if (failures.length > 0) lines.push("", "Failures:", ...failures);
  return lines.join("\n");
}

function targetsTable(results: VariantResult[], cold: ColdBuild | null): string {
  const at = (size: number) => results.find((r) => r.size === size && r.variant === "patched");
  const base = at(10_000);
  const big = at(50_000);
  const check = (value: number | null, limit: number | null) =>
    value === null
      ? "not measured"
      : limit === null
        ? time(value)
        : `${time(value)} ${verdict(value <= limit)}`;
  const rows: string[] = [
    "| Patched | target at 10,000 | p50 at 10,000 | first after start | first after db restart | p50 at 50,000 (≤ 1.5 × at 10,000) |",
    "|---|---|---|---|---|---|",
  ];
  for (const m of MEASURES) {
    const f = base?.measures[m.id];
    const small = p50(f);
    const large = p50(big?.measures[m.id]);
    const ratio =
      small === null || large === null
        ? "not measured"
        : `${time(large)} = ${(large / small).toFixed(2)}× ${verdict(large / small <= 1.5)}`;
    rows.push(
      `| ${m.title} | ${m.target === null ? "—" : `≤ ${m.target} ms`} | ${check(small, m.target)} | ${check(f?.first ?? null, m.target)} | ${m.id === "create" ? "—" : check(f?.firstAfterDbRestart ?? null, m.target)} | ${ratio} |`,
    );
  }
  const peak = big?.rss.dbLists;
  const patched = results.filter((r) => r.variant === "patched");
  const tenK = patched.find((r) => r.size === 10_000) ?? patched.at(-1);
  const ratio =
    tenK === undefined || tenK.bytes.fields === 0 ? null : tenK.bytes.full / tenK.bytes.fields;
  const total = cold === null ? null : cold.prepareS + cold.buildS;
  rows.push(
    "",
    "| Other targets | figure | result |",
    "|---|---|---|",
    `| embedded database peak RSS at 50,000 (patched), serving lists, ≤ 150 MB | ${peak === undefined ? "not measured" : `${mb(peak)} MB`} | ${peak === undefined ? "—" : verdict(peak <= 150 * 2 ** 20)} |`,
    `| a \`fields=id,slug,title\` page of 100 ≥ 5× fewer bytes than the full page (${tenK === undefined ? "—" : `${tenK.size.toLocaleString("en-US")}, ${tenK.variant}`}) | ${ratio === null || tenK === undefined ? "not measured" : `${tenK.bytes.full} B / ${tenK.bytes.fields} B = ${ratio.toFixed(1)}×`} | ${ratio === null ? "—" : verdict(ratio >= 5)} |`,
    `| cold build of the launcher (empty module and build caches) ≤ 180 s | ${cold === null || total === null ? "not measured (--cold-build)" : `${total.toFixed(0)} s (prepare-ferretdb.mjs ${cold.prepareS.toFixed(1)} s + go build ${cold.buildS.toFixed(0)} s)`} | ${total === null ? "—" : verdict(total <= 180)} |`,
  );
  return rows.join("\n");
}

function git(...a: string[]): string {
  try {
    return execFileSync("git", a, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** What a run was asked for, as the report states it. */
export interface ReportContext {
  sizes: number[];
  plans: Record<Variant, SamplePlan>;
  /** The command line's arguments. */
  args: string[];
}

/** The section of BENCHMARKS.md between the db-scaling markers. */
export function report(
  results: VariantResult[],
  seeds: ScalingSeed[],
  cold: ColdBuild | null,
  load: { start: number[]; end: number[] },
  elapsedS: number,
  { sizes, plans, args }: ReportContext,
): string {
  const cpus = os.cpus();
  const dirty =
    git("status", "--porcelain", "server", "bench") === "" ? "" : " + uncommitted changes";
  const seedLine = seeds
    .map(
      (s) =>
        `${s.released.toLocaleString("en")} released (${s.totalBlogs.toLocaleString("en")} blogs in all, markdown ${s.markdownBytes} B on average)`,
    )
    .join("; ");
  return [
    "## Embedded database scaling: stock vs patched FerretDB",
    "",
    "Generated by `npm run bench:db` (`bench/db-scaling.ts`, which `npm run bench` runs after `bench/run.ts`); do not edit by hand — rerun it.",
    "",
    `- **Date:** ${new Date().toISOString()}; commit ${git("rev-parse", "--short", "HEAD")}${dirty}; command \`${["tsx bench/db-scaling.ts", ...args].join(" ")}\`; whole run ${elapsedS.toFixed(0)} s.`,
    `- **Machine:** ${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}. Load average (1/5/15 min) ${loadText(load.start)} at the start, ${loadText(load.end)} at the end: other work shared the machine.`,
    `- **Data:** per size, two workspaces with half the released blogs each, plus 2 drafts and 1 removed blog per 22 released, ~2 KB markdown bodies rendered by the app's renderer (bench/scaling-seed.ts): ${seedLine}. Seeded with the driver after the app's \`ensureIndexes\`, once per size; each variant starts on its own copy of the same SQLite files.`,
    "- **Variants:** the launcher (server/embedded-db/bin/pressroom-db) with `-exact-pushdown=false` (stock FerretDB 1.24.2 query path) and without (patched); the app as `npm start` runs it (compiled, `NODE_ENV=production`, its V8 flags, `LOG_LEVEL=info`, `DB_TIMEOUT_MS=120000`).",
    `- **Requests:** over HTTP on loopback, one at a time on one keep-alive connection, with workspace A's key; the deep page's cursor points 21 blogs before the end of the list (the page holds the oldest 20). "first after start": the first request of its kind after both processes were started (the app's first consumer request also loads its OpenAPI validator). Then per kind ${plans.patched.warmup} warm-up and ${plans.patched.samples} measured requests (patched), ${plans.stock.warmup} and ${plans.stock.samples} (stock); n is beside each figure. "after db restart": then the database alone is restarted on the same port, the app (warm) waits for \`/readyz\`, and the first read of each kind is timed again. The OS file cache is warm in both cases. Create + release: signed in as the dashboard is (session cookie, Origin), \`POST …/blogs\` then \`POST …/blogs/{id}/release\`, both times together. Peak RSS: VmHWM of /proc/PID/status since the process started.`,
    "",
    ...sizes.flatMap((size) => [sizeTable(size, results), ""]),
    "### Targets",
    "",
    targetsTable(results, cold),
  ].join("\n");
}

/**
 * `npm run bench:editorial` (`npx tsx bench/editorial.ts [options]`; `--help` lists them).
 *
 * What the editorial workflow costs (admin.yaml, "Staged changes", "History"): do pending
 * changes and history touch the consumers' read path, and how long does publishing take? On the
 * db-scaling seed (bench/scaling-seed.ts: 10,000 released blogs by default, ~2 KB bodies), the
 * launcher and the app as `npm start` runs them (bench/db-scaling/processes.ts), it alternates
 * in one run, `--rounds` times:
 * - A: consumer reads (list first page, its 304, get one blog; bench/db-scaling/measures.ts),
 *   with no pending changes anywhere;
 * - stage: an edit of every blog those reads touch (the 100 newest and the get samples): a new
 *   ~2 KB body, saved as pending changes (each also a revision of history);
 * - B, twice: the same reads, each blog they read now carrying pending changes;
 * - publish: the pending changes of `--publish` of those blogs published one at a time (timed),
 *   the others discarded; then A again (A B B A: a drift over the run weighs on both alike).
 * Prints p50s of A and B and B ÷ A per read (target ≤ 1.05), publish p50 (target ≤ 20 ms), and
 * writes them into BENCHMARKS.md's "editorial" section unless `--no-write`.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { ANY_VERSION } from "./admin-client.js";
import { EDITORIAL, readOrEmpty, withSection } from "./benchmarks-section.js";
import { client, type Reply } from "./db-scaling/http-client.js";
import { consumerSteps, type Step } from "./db-scaling/measures.js";
import { children, startApp, startLauncher } from "./db-scaling/processes.js";
import { time } from "./db-scaling/report.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { optionsOrExit } from "./options.js";
import { markdown2k, prng } from "./scaling-seed.js";

const options = optionsOrExit({
  usage: "npm run bench:editorial -- [options]  (npx tsx bench/editorial.ts [options])",
  summary:
    "Consumer reads with and without pending changes (A/B alternated in one run), and the\n" +
    "time to publish pending changes, at 10,000 released blogs.",
  options: {
    size: { kind: "number", arg: "N", min: 100, integer: true, help: "released blogs (10000)" },
    rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "A/B rounds (3)" },
    samples: {
      kind: "number",
      arg: "N",
      min: 2,
      integer: true,
      help: "requests per read, phase (A, B) and round (40)",
    },
    publish: { kind: "number", arg: "N", min: 1, integer: true, help: "publishes per round (40)" },
    "seed-dir": { kind: "string", arg: "DIR", help: "keep (and reuse) the seed here" },
    launcher: { kind: "string", arg: "FILE", help: "this launcher binary (the built one)" },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
    "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
  },
});
const SIZE = options.size ?? 10_000;
const ROUNDS = options.rounds ?? 3;
const SAMPLES = options.samples ?? 40;
const PUBLISHES = options.publish ?? 40;
const WARMUP = 3;
const READS = ["list", "list304", "get"] as const;
const TITLES: Record<(typeof READS)[number], string> = {
  list: "list, first page (limit 20)",
  list304: "list, `If-None-Match` (304)",
  get: "get one blog",
};

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) {
    throw new Error(`${what}: ${reply.status} (expected ${status}) ${reply.body.slice(0, 200)}`);
  }
  return reply;
}

async function timed(step: Step, into: number[], samples: number): Promise<void> {
  for (let i = 0; i < WARMUP + samples; i++) {
    const ms = await step();
    if (i >= WARMUP) into.push(ms);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!options["no-build"]) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    log("tsc -p server…");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  }
  const group = children();
  /** Each process started, to stop last first. */
  const stops: (() => Promise<void>)[] = [];
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-editorial-"));
  try {
    const bin = options.launcher ?? (await ensureEmbeddedDbBinary(log));
    const seedDir = options["seed-dir"] ?? path.join(tmp, "seed");
    const seed = await seeded(group, bin, path.join(seedDir, String(SIZE)), SIZE, log);
    const dataDir = path.join(tmp, "data");
    await cp(path.join(seedDir, String(SIZE), "data"), dataDir, { recursive: true });
    const db = await startLauncher(group, bin, dataDir, false);
    stops.push(db.stop);
    // Thousands of reads a minute with one key: past the default limit (README, "Rate limits").
    const app = await startApp(group, db.uri, DB_NAME, { CONSUMER_RATE_LIMIT: "off" });
    stops.push(app.stop);
    const api = client(app.url, 120_000);
    const steps = consumerSteps(api, seed);

    // Signed in as the dashboard is: the session cookie and the Origin.
    const origin = new URL(app.url).origin;
    const signIn = await api.call(
      "POST",
      "/api/admin/session",
      { origin },
      JSON.stringify({ email: seed.owner.email, password: seed.owner.password }),
    );
    expectStatus(signIn, 200, "sign-in");
    const cookie = String(signIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    const admin = { origin, cookie, ...ANY_VERSION };
    const blogs = `/api/admin/workspaces/${seed.workspace}/blogs`;

    // A preview key (openapi.yaml, "Preview"): the same reads in the preview perspective, where
    // each blog read joins its pending changes, beside the live ones in phase B.
    const minted = expectStatus(
      await api.call(
        "POST",
        `/api/admin/workspaces/${seed.workspace}/keys`,
        { origin, cookie },
        JSON.stringify({ name: "bench preview", kind: "preview" }),
      ),
      201,
      "preview key",
    );
    const previewAuth = { "x-api-key": (JSON.parse(minted.body) as { secret: string }).secret };
    let previewGet = 0;
    const previewSteps: Record<"list" | "get", Step> = {
      list: async () =>
        expectStatus(
          await api.call("GET", "/api/preview/blogs?limit=20", previewAuth),
          200,
          "preview list",
        ).ms,
      get: async () => {
        const id = seed.sampleIds[previewGet++ % seed.sampleIds.length];
        return expectStatus(
          await api.call("GET", `/api/preview/blogs/${id}`, previewAuth),
          200,
          "preview get",
        ).ms;
      },
    };
    const previewB: Record<"list" | "get", number[]> = { list: [], get: [] };

    // The blogs the reads touch: the newest 100 (the first page is 20 of them) and the samples.
    const newest = expectStatus(
      await api.call("GET", "/api/consumer/blogs?limit=100&fields=id", { "x-api-key": seed.key }),
      200,
      "newest 100",
    );
    const touched = [
      ...new Set([
        ...(JSON.parse(newest.body) as { data: { id: string }[] }).data.map((b) => b.id),
        ...seed.sampleIds,
      ]),
    ];
    const random = prng(7);
    const a: Record<string, number[]> = { list: [], list304: [], get: [] };
    const b: Record<string, number[]> = { list: [], list304: [], get: [] };
    const stage: number[] = [];
    const publish: number[] = [];
    // A B B A per round: each phase's half of the samples on either side of the other's, so a
    // drift over the run (caches warming, the machine's other work) weighs on both alike.
    const half = Math.ceil(SAMPLES / 2);
    for (let round = 1; round <= ROUNDS; round++) {
      log(`round ${round}/${ROUNDS}: A (no pending changes)…`);
      for (const id of READS) await timed(steps[id], a[id] ?? [], half);
      log(`  staging ${touched.length} edits…`);
      for (const [i, id] of touched.entries()) {
        const body = JSON.stringify({ bodyMarkdown: markdown2k(round * 100_000 + i, random) });
        const reply = await api.call("PATCH", `${blogs}/${id}`, admin, body);
        stage.push(expectStatus(reply, 200, "stage").ms);
      }
      log("  B B (the blogs read carry pending changes)…");
      for (const id of READS) await timed(steps[id], b[id] ?? [], half);
      for (const id of READS) await timed(steps[id], b[id] ?? [], half);
      // After the live B reads, so the A/B comparison stays the live reads' alone.
      for (const id of ["list", "get"] as const) await timed(previewSteps[id], previewB[id], half);
      log(`  publishing ${PUBLISHES}, discarding the rest…`);
      for (const [i, id] of touched.entries()) {
        const how = i < PUBLISHES ? "publish" : "discard";
        const reply = await api.call("POST", `${blogs}/${id}/${how}`, admin);
        expectStatus(reply, 200, how);
        if (how === "publish") publish.push(reply.ms);
      }
      log("  A again…");
      for (const id of READS) await timed(steps[id], a[id] ?? [], half);
    }
    api.close();

    const rows = READS.map((id) => {
      const [pa, pb] = [p50(a[id] ?? []), p50(b[id] ?? [])];
      const ratio = pb / pa;
      return `| ${TITLES[id]} | ${time(pa)} | ${time(pb)} | ${ratio.toFixed(3)} | ${ratio <= 1.05 ? "met" : "**missed**"} | ${(a[id] ?? []).length} / ${(b[id] ?? []).length} |`;
    });
    const publishP50 = p50(publish);
    const markdown = [
      "## Editorial workflow: pending changes beside consumer reads, and publishing (`npm run bench:editorial`)",
      "",
      "Generated by `npm run bench:editorial` (`bench/editorial.ts`); do not edit by hand — rerun it.",
      "",
      `- **Date:** ${new Date().toISOString()}; command \`tsx bench/editorial.ts ${process.argv.slice(2).join(" ")}\`; whole run ${Math.round((Date.now() - started) / 1000)} s; Node ${process.version}; ${os.cpus().length} cores.`,
      `- **Data:** the db-scaling seed (bench/scaling-seed.ts), ${SIZE.toLocaleString("en")} released blogs, ~2 KB bodies; the launcher and the app as \`npm start\` runs them (with \`CONSUMER_RATE_LIMIT=off\`: the run makes thousands of reads a minute with one key), one request at a time on one keep-alive connection.`,
      `- **How:** ${ROUNDS} rounds, each: A (no blog has pending changes), then an edit of each of the ${touched.length} blogs the reads touch (the newest 100 and the get samples) saved as pending changes (a new ~2 KB body; each also a revision of history), then B twice, then ${PUBLISHES} of them published one at a time and the rest discarded, then A again (A B B A, so a drift over the run weighs on both alike). Each phase: ${WARMUP} warm-up and ${Math.ceil(SAMPLES / 2)} measured requests per read; p50 of each phase's pooled samples.`,
      "",
      "| Consumer read | A p50 (none pending) | B p50 (pending on every blog read) | B ÷ A | target ≤ 1.05 | n |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
      "| Admin write | p50 | p90 | n | target |",
      "|---|---|---|---|---|",
      `| publish pending changes (\`POST …/publish\`) | ${time(publishP50)} | ${time(percentile(publish, 0.9))} | ${publish.length} | ≤ 20 ms: ${publishP50 <= 20 ? "met" : "**missed**"} |`,
      `| save as pending changes (\`PATCH\`, a new ~2 KB body) | ${time(p50(stage))} | ${time(percentile(stage, 0.9))} | ${stage.length} | — |`,
      "",
      "Preview reads (a preview key on `/api/preview`, in phase B: every blog read has pending changes, which the preview joins), beside the live reads of the same phase; no target (a preview site is an editor's, not the public's):",
      "",
      "| Preview read | p50 | p90 | live p50, same phase | n |",
      "|---|---|---|---|---|",
      `| list, first page (limit 20) | ${time(p50(previewB.list))} | ${time(percentile(previewB.list, 0.9))} | ${time(p50(b.list ?? []))} | ${previewB.list.length} |`,
      `| get one blog | ${time(p50(previewB.get))} | ${time(percentile(previewB.get, 0.9))} | ${time(p50(b.get ?? []))} | ${previewB.get.length} |`,
    ].join("\n");
    process.stdout.write(`${markdown}\n`);
    if (!options["no-write"]) {
      const file = path.join(ROOT, "BENCHMARKS.md");
      await writeFile(file, withSection(await readOrEmpty(file), EDITORIAL, markdown));
      log("Wrote BENCHMARKS.md (editorial section)");
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
const p50 = (values: readonly number[]) => percentile(values, 0.5);

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

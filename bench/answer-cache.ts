/**
 * `npm run bench:answer-cache` (`npx tsx bench/answer-cache.ts [options]`; `--help` lists them):
 * the consumer list with its answer cache (README, "Production": answer cache) against the same
 * server with `ANSWER_CACHE_BYTES=0`, in one run.
 *
 * One embedded database holds the db-scaling seed (bench/scaling-seed.ts) of 2N released blogs
 * over two workspaces, N in the one read; two apps run on it as `npm start` runs them
 * (`CONSUMER_RATE_LIMIT=off`), one with the cache and one without. Each question is asked of both
 * in alternated windows (closed-loop keep-alive connections, autocannon), and CPU per response
 * sums the app's and the database process's over the window:
 *
 * - the same list page of 20, the same `fields=id,slug,title` page, the same tag page (a tag on
 *   10 % of blogs): asked again unchanged, what a cache hit costs;
 * - a walk: every page of the list in turn, each asked once per lap of more pages than a
 *   workspace's share of the cache holds, so every answer is a miss: what the cache costs when
 *   it never helps.
 *
 * Prints a table of medians; the figures go into BENCHMARKS.md by hand.
 */
import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { children, startApp, startLauncher } from "./db-scaling/processes.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:answer-cache -- [options]  (npx tsx bench/answer-cache.ts [options])",
  summary:
    "The consumer list with its answer cache against ANSWER_CACHE_BYTES=0, on one database,\n" +
    "alternated windows: req/s and CPU per response (app + database) of each.",
  options: {
    size: { kind: "number", arg: "N", min: 100, integer: true, help: "blogs read (1000)" },
    seconds: { kind: "number", arg: "S", min: 1, help: "length of each window (5)" },
    rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "alternated rounds (4)" },
    connections: { kind: "number", arg: "N", min: 1, integer: true, help: "connections (10)" },
    "seed-dir": { kind: "string", arg: "DIR", help: "keep (and reuse) the seed here" },
  },
});
const size = options.size ?? 1000;
const seconds = options.seconds ?? 5;
const rounds = options.rounds ?? 4;
const connections = options.connections ?? 10;
/** A tag on 10 % of the seed's blogs (bench/seed.ts). */
const TAG = "weekly-digest";
/** More pages than a workspace's 4 MiB share holds (~40 full pages): a lap is all misses. */
const WALK_PAGES = 60;

const log = (line: string) => process.stderr.write(`${line}\n`);
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const group = children();
  const tmp = await mkdtemp(path.join(tmpdir(), "pressroom-answer-cache-"));
  const stops: (() => Promise<void>)[] = [];
  try {
    const bin = await ensureEmbeddedDbBinary(log);
    const seedDir = path.join(options["seed-dir"] ?? path.join(tmp, "seeds"), String(2 * size));
    const seed = await seeded(group, bin, seedDir, 2 * size, log);
    const dataDir = path.join(tmp, "data");
    await cp(path.join(seedDir, "data"), dataDir, { recursive: true });
    const db = await startLauncher(group, bin, dataDir, false);
    stops.push(db.stop);
    const env = { CONSUMER_RATE_LIMIT: "off" };
    const cached = await startApp(group, db.uri, DB_NAME, env);
    stops.push(cached.stop);
    const uncached = await startApp(group, db.uri, DB_NAME, { ...env, ANSWER_CACHE_BYTES: "0" });
    stops.push(uncached.stop);
    const headers = { "x-api-key": seed.key };

    // The walk's pages: the list's first WALK_PAGES pages, by their cursors.
    const walk = ["/api/consumer/blogs?limit=20"];
    while (walk.length < WALK_PAGES) {
      const page = (await (await fetch(`${cached.url}${walk.at(-1)}`, { headers })).json()) as {
        nextCursor: string | null;
      };
      if (page.nextCursor === null) break;
      walk.push(`/api/consumer/blogs?limit=20&cursor=${page.nextCursor}`);
    }
    const questions: { name: string; paths: string[] }[] = [
      { name: "list page of 20, asked again", paths: ["/api/consumer/blogs?limit=20"] },
      {
        name: "`fields=id,slug,title`, asked again",
        paths: ["/api/consumer/blogs?limit=20&fields=id,slug,title"],
      },
      {
        name: "tag page of 20 (a tag on 10 %), asked again",
        paths: [`/api/consumer/blogs?limit=20&tag=${TAG}`],
      },
      { name: `a walk of ${walk.length} pages (every answer a miss)`, paths: walk },
    ];
    // Both apps answer every question with the same bytes, kept or not.
    for (const { paths } of questions) {
      for (const p of paths.slice(0, 3)) {
        const [a, b] = await Promise.all(
          [cached, uncached].map(async (app) =>
            (await fetch(`${app.url}${p}`, { headers })).text(),
          ),
        );
        const again = await (await fetch(`${cached.url}${p}`, { headers })).text();
        if (a !== b || a !== again) throw new Error(`Different answers to ${p}`);
      }
    }
    const sides = [
      { name: "cache", app: cached },
      { name: "no cache", app: uncached },
    ];
    const figures = new Map<string, { rps: number[]; cpu: number[]; p50: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const question of questions) {
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          let next = 0;
          const requests = [
            {
              setupRequest: (req: autocannon.Request) => {
                req.path = question.paths[next++ % question.paths.length] ?? "";
                req.headers = { ...req.headers, ...headers };
                return req;
              },
            },
          ];
          const run = (duration: number) =>
            autocannon({ url: side.app.url, connections, duration, requests });
          await run(1);
          const before = cpuMs(side.app.pid) + cpuMs(db.pid);
          const result = await run(seconds);
          const cpu = (cpuMs(side.app.pid) + cpuMs(db.pid) - before) / result.requests.total;
          if (result.non2xx > 0) throw new Error(`${result.non2xx} answers not 2xx`);
          const key = `${question.name}\u0000${side.name}`;
          const f = figures.get(key) ?? { rps: [], cpu: [], p50: [] };
          f.rps.push(result.requests.average);
          f.cpu.push(cpu);
          f.p50.push(result.latency.p50 ?? 0);
          figures.set(key, f);
          log(
            `round ${round + 1}, ${question.name}, ${side.name}: ${result.requests.average.toFixed(0)} req/s, ${cpu.toFixed(2)} ms CPU/response`,
          );
        }
      }
    }
    const rows = questions.map(({ name }) => {
      const on = figures.get(`${name}\u0000cache`);
      const off = figures.get(`${name}\u0000no cache`);
      if (on === undefined || off === undefined) return `| ${name} | | | |`;
      const ratio = median(on.rps) / median(off.rps);
      return `| ${name} | ${median(on.rps).toFixed(0)} / ${median(off.rps).toFixed(0)} (${ratio.toFixed(2)}×) | ${median(on.p50)} / ${median(off.p50)} | ${median(on.cpu).toFixed(2)} / ${median(off.cpu).toFixed(2)} (${(median(on.cpu) / median(off.cpu)).toFixed(2)}×) |`;
    });
    process.stdout.write(
      [
        `${size} released blogs read, ${connections} connections, ${rounds} alternated rounds × ${seconds} s, medians:`,
        "",
        "| question | req/s, cache / no cache | p50 ms | CPU ms / response (app + database) |",
        "|---|---|---|---|",
        ...rows,
        "",
      ].join("\n"),
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

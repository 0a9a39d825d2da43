/**
 * `npm run bench:ghost` (`npx tsx bench/ghost.ts [options]`; `--help` lists them): Pressroom's
 * consumer API beside Ghost's Content API on the same machine, in one run.
 *
 * Ghost 6 is installed from the npm registry into a cache directory (bench/ghost/install.ts);
 * when the registry does not serve it, the run prints why and exits 0 ("skipped"). For each size
 * N, Pressroom gets the db-scaling seed (bench/scaling-seed.ts) of 2N released blogs over two
 * workspaces, N in the one read, ~2 KB bodies, and its launcher and app run as `npm start` runs
 * them (`CONSUMER_RATE_LIMIT=off`). A new Ghost site (bench/ghost/ghost-server.ts) gets the same
 * N blogs as published posts through its Admin API: title, slug, the HTML Pressroom rendered,
 * tags, and the release time as the publication time. Both then answer the same questions
 * (Ghost's request first, as a reader would ask it of each):
 *
 * - a list page of 20 (Ghost's default fields, without `include`; Pressroom's whole blogs);
 * - the same page with `fields=id,slug,title`;
 * - a tag page of 20 (`filter=tag:` / `tag=`) for a tag on 10 % of posts;
 * - the list page with a matching `If-None-Match` (304);
 * - a post by id and by slug (100 posts spread over the list, round-robin);
 * - the last page of 20 (Ghost `page=`, Pressroom the cursor of that position);
 * - an unknown key (401).
 *
 * Each question is measured in interleaved windows (bench/ghost/side-by-side.ts) with closed-loop
 * keep-alive connections. CPU per request sums each system's processes (Pressroom: app and
 * database; Ghost: its one process, SQLite inside it). Prints a table and writes it into
 * BENCHMARKS.md's `ghost` section unless `--no-write`.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { listCursor } from "../server/src/blogs/cursor.js";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { GHOST, readOrEmpty, withSection } from "./benchmarks-section.js";
import { children, startApp, startLauncher } from "./db-scaling/processes.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { addPosts, type GhostPost, setUp, startGhost } from "./ghost/ghost-server.js";
import {
  defaultGhostCache,
  ensureGhost,
  GHOST_NODE_VERSION,
  GHOST_VERSION,
} from "./ghost/install.js";
import { type GhostShapes, pairsOf } from "./ghost/questions.js";
import { reportOf, type SizeResult } from "./ghost/report.js";
import { measure, type Side } from "./ghost/side-by-side.js";
import { optionsOrExit, UsageError } from "./options.js";

const options = optionsOrExit(
  {
    usage: "npm run bench:ghost -- [options]  (npx tsx bench/ghost.ts [options])",
    summary:
      "Pressroom's consumer API beside Ghost's Content API (installed from npm), the same posts\n" +
      "in both, interleaved windows; prints req/s, latency and CPU per request of each.",
    options: {
      sizes: { kind: "numbers", arg: "N,…", min: 40, integer: true, help: "posts (1000,5000)" },
      seconds: { kind: "number", arg: "S", min: 1, help: "length of each window (5)" },
      rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "interleaved rounds (3)" },
      connections: { kind: "number", arg: "N", min: 1, integer: true, help: "connections (10)" },
      "ghost-dir": {
        kind: "string",
        arg: "DIR",
        help: "Ghost's install cache (~/.cache/pressroom/ghost-VERSION)",
      },
      "seed-dir": { kind: "string", arg: "DIR", help: "keep (and reuse) Pressroom's seeds here" },
      "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
      "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
    },
  },
  (values) => {
    // The last page of Ghost's `page=` and of Pressroom's cursor hold the same 20 posts only then.
    if ((values.sizes ?? []).some((n) => n % 20 !== 0)) {
      throw new UsageError("--sizes takes multiples of 20 (the page size)");
    }
  },
);
const sizes = options.sizes ?? [1000, 5000];
const load = {
  seconds: options.seconds ?? 5,
  rounds: options.rounds ?? 3,
  connections: options.connections ?? 10,
};
/** What Ghost is given of each released blog of the read workspace. */
interface SeededBlog {
  _id: string;
  title: string;
  slug: string;
  bodyHtml: string;
  tags: string[];
  releasedAt: Date;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const installed = await ensureGhost(options["ghost-dir"] ?? defaultGhostCache(), log);
  if (!installed.ok) {
    process.stdout.write(`Ghost side by side skipped: ${installed.why}.\n`);
    return;
  }
  if (!options["no-build"]) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    log("tsc -p server…");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  }
  const group = children();
  const tmp = await mkdtemp(path.join(tmpdir(), "pressroom-ghost-"));
  const loadBefore = loadavg();
  const results: SizeResult[] = [];
  try {
    const bin = await ensureEmbeddedDbBinary(log);
    for (const size of sizes) {
      const stops: (() => Promise<void>)[] = [];
      try {
        const seedDir = path.join(options["seed-dir"] ?? path.join(tmp, "seeds"), String(2 * size));
        const seed = await seeded(group, bin, seedDir, 2 * size, log);
        const dataDir = path.join(tmp, `data-${size}`);
        await cp(path.join(seedDir, "data"), dataDir, { recursive: true });
        const db = await startLauncher(group, bin, dataDir, false);
        stops.push(db.stop);

        // The read workspace's released blogs, oldest first: Ghost gets the same posts.
        const mongo = new MongoClient(db.uri);
        await mongo.connect();
        const blogs = await mongo
          .db(DB_NAME)
          .collection<SeededBlog>("blogs")
          .find({ workspaceId: seed.workspace, status: "released" })
          .project<SeededBlog>({ title: 1, slug: 1, bodyHtml: 1, tags: 1, releasedAt: 1 })
          .sort({ releasedAt: 1, _id: 1 })
          .toArray();
        await mongo.close();
        const app = await startApp(group, db.uri, DB_NAME, { CONSUMER_RATE_LIMIT: "off" });
        stops.push(app.stop);

        log(`Ghost: a new site with ${blogs.length} posts…`);
        const ghost = await startGhost(group, installed.install, path.join(tmp, `ghost-${size}`));
        stops.push(ghost.stop);
        const { admin, contentKey } = await setUp(ghost);
        const posts: GhostPost[] = blogs.map((b) => ({
          title: b.title,
          slug: b.slug,
          html: b.bodyHtml,
          tags: b.tags,
          publishedAt: b.releasedAt,
        }));
        const seedStarted = Date.now();
        await addPosts(admin, posts, log);
        const ghostSeedSeconds = (Date.now() - seedStarted) / 1000;

        const shapes: GhostShapes = {
          ghost: { url: ghost.url, key: contentKey },
          pressroom: {
            url: app.url,
            key: seed.key,
            deepCursor: listCursor.encode(
              { at: new Date(seed.deepPosition.at), id: seed.deepPosition.id },
              null,
            ),
          },
          blogs: blogs.map((b) => ({ id: b._id, slug: b.slug })),
        };
        const pairs = await pairsOf(shapes);
        const sides: [Side, Side] = [
          { name: "Ghost", url: ghost.url, pids: [ghost.pid] },
          { name: "Pressroom", url: app.url, pids: [app.pid, db.pid] },
        ];
        log(`Measuring ${pairs.length} questions at ${size} posts…`);
        const totals = await measure(pairs, sides, load, log);
        results.push({ size, pairs, totals, ghostSeedSeconds });
      } finally {
        for (const stop of stops.reverse()) await stop();
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const loadAfter = loadavg();
  const header = [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpus().length} cores (${cpus()[0]?.model ?? "?"}): ` +
      `Pressroom on Node ${process.version} with its embedded database; Ghost ${GHOST_VERSION} on Node ${GHOST_NODE_VERSION}, ` +
      "`NODE_ENV=production`, SQLite; load average " +
      `${loadBefore.map((l) => l.toFixed(1)).join(" / ")} before and ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} after. ` +
      `${load.connections} keep-alive connections, ${load.rounds} rounds × ${load.seconds} s per question and system, interleaved; ` +
      `whole run ${Math.round((Date.now() - started) / 1000)} s.`,
  ];
  const how = [
    "- **Same posts:** each system holds the N released blogs of Pressroom's read workspace (db-scaling seed, ~2 KB of Markdown each); Ghost got them through its Admin API (`?source=html`, Pressroom's rendered HTML, tags, the release time as the publication time). Every question was first asked of both once: the list, `fields`, tag and last pages name the same posts in the same order.",
    "- **Answers differ in size:** Ghost answers with its default fields (no `include`, so no tags or authors; HTML only), Pressroom with the whole `Blog` (Markdown and HTML, tags, author, presentation fields): see the KB column. Ghost is not asked for more than its default.",
    "- **CPU** is each system's processes (Ghost: its one process, SQLite inside it; Pressroom: the app + its database process), over the measured windows, per response. The load generator (autocannon, this process) shares the two cores with both.",
    "- **Settings:** Pressroom as `npm start` runs it with `CONSUMER_RATE_LIMIT=off`; Ghost as Ghost-CLI lays it out, outside calls and mail off, and one change from its defaults that the measured requests meet: the limit of 99 unknown Content API keys per address and hour (then 429) raised, so that the 401 question measures answering a bad key.",
  ];
  const markdown = [...header, "", ...how, "", ...reportOf(results)].join("\n");
  process.stdout.write(`${markdown}\n`);
  if (!options["no-write"]) {
    const file = path.join(ROOT, "BENCHMARKS.md");
    const title = "## Side by side with Ghost (`npm run bench:ghost`)";
    await writeFile(file, withSection(await readOrEmpty(file), GHOST, `${title}\n\n${markdown}`));
    log(`Wrote the ghost section of ${file}`);
  }
}

await main();

/**
 * `npm run bench:bulk` (`npx tsx bench/bulk-paths.ts [--files N] [--sweep N]`; `--help` lists
 * them): the bulk paths on the embedded database, as a team that imports its whole site and
 * points it at Pressroom meets them (README, "How the changes feed stays exact without
 * transactions"; server/embedded-db/README.md, "Writes of any size").
 *
 * 1. Generates N Markdown files (default 5,000; bench/markdown-folder.ts, a tenth of them drafts)
 *    and imports them with `pressroom import` (the built CLI, a process of its own) into an
 *    embedded database started here, on which Pressroom runs as `npm start` runs it (compiled,
 *    NODE_ENV=production, rate limit off). The import marks each released blog for the changes
 *    feed, as a release does, and records those marks before it exits.
 * 2. Then, through HTTP: the first `GET /tags`, the first `GET /changes` page, and a full sync of
 *    every released blog through the SDK (`changes.sync` into a `MemorySyncStore`, pages of 100),
 *    each timed; and the import and that sync together.
 * 3. Every released blog marked again (`feedPending: true`, a new revision and `updatedAt`: what
 *    a release leaves; the state before anything records it, e.g. after an import stopped
 *    midway or many releases), and the
 *    same three timed again: what the feed's bounded recording costs its first callers.
 *    The baseline, in the same run: the same full sync again from the start, with nothing left
 *    to record; the ratio says what recording every mark costs the sync.
 * 4. A sweep: M expired rate counters (default 50,000) deleted by one `purgeExpired` (the TTL
 *    sweeper's job), against M / 10 swept the same way as the baseline (documents per second).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient, MemorySyncStore } from "@pressroom/sdk";
import { type Db, MongoClient } from "mongodb";
import { collections } from "../server/src/platform/db/collections.js";
import { purgeExpired } from "../server/src/platform/db/ttl-sweeper.js";
import { createStores } from "../server/src/stores.js";
import { startHttpServerChild } from "./http-server-child.js";
import { generateMarkdownFolder } from "./markdown-folder.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:bulk -- [options]  (npx tsx bench/bulk-paths.ts [options])",
  summary:
    "Imports a folder of Markdown files, then times the first /tags, the first /changes page and\n" +
    "a full SDK sync against a second sync; and a sweep of expired documents against a tenth.",
  options: {
    files: { kind: "number", arg: "N", min: 10, integer: true, help: "files to import (5000)" },
    sweep: {
      kind: "number",
      arg: "N",
      min: 10,
      integer: true,
      help: "expired documents one sweep deletes (50000)",
    },
  },
});
const files = options.files ?? 5_000;
const sweepCount = options.sweep ?? 50_000;
const CLI = fileURLToPath(new URL("../server/bin/pressroom.js", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (since: number) => (performance.now() - since) / 1000;
const s2 = (x: number) => `${x.toFixed(2)} s`;

/** A full sync from the start through the SDK: seconds, pages and blogs mirrored. */
async function fullSync(url: string, apiKey: string) {
  const client = createClient({ baseUrl: url, apiKey });
  const store = new MemorySyncStore();
  const started = performance.now();
  const result = await client.changes.sync({ store, limit: 100 });
  return { seconds: seconds(started), pages: result.pages, blogs: store.blogs.size };
}

/** Seconds for one GET with the key; throws unless it answers 200. */
async function timedGet(url: string, apiKey: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { "x-api-key": apiKey } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return seconds(started);
}

/** Seconds for one purgeExpired over `n` expired rate counters (and `n / 10` live ones). */
async function sweep(db: Db, n: number): Promise<number> {
  const c = collections(db);
  await c.rateCounters.deleteMany({});
  const expired = new Date(Date.now() - 60_000);
  const later = new Date(Date.now() + 3_600_000);
  for (let from = 0; from < n + n / 10; from += 10_000) {
    const docs = Array.from({ length: Math.min(10_000, n + n / 10 - from) }, (_, k) => ({
      _id: `rc_bench_${from + k}`,
      n: 1,
      expiresAt: from + k < n ? expired : later,
    }));
    await c.rateCounters.insertMany(docs, { ordered: false });
  }
  const started = performance.now();
  const purged = await purgeExpired(c, new Date());
  const took = seconds(started);
  if (purged.rateCounters !== n) throw new Error(`swept ${purged.rateCounters} of ${n}`);
  return took;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "pressroom-bench-bulk-"));
  const folder = path.join(work, "site");
  const server = await startHttpServerChild({
    name: "bulk",
    env: { CONSUMER_RATE_LIMIT: "off" },
    build: true,
    log,
  });
  const client = await MongoClient.connect(server.dbUri);
  const db = client.db(server.dbName);
  try {
    log(`generating ${files} Markdown files…`);
    await generateMarkdownFolder(folder, files);
    const stores = createStores(db);
    const ws = (await stores.workspaces.create("Imported site"))._id;
    const { key } = await stores.keys.mint(ws, "site");

    log("importing…");
    const importStarted = performance.now();
    await promisify(execFile)(
      process.execPath,
      [CLI, "import", "--workspace", ws, "--from", "markdown", folder],
      {
        env: { ...process.env, MONGODB_URI: server.dbUri, MONGODB_DB: server.dbName },
        maxBuffer: 1 << 26,
      },
    );
    const imported = seconds(importStarted);

    const api = `${server.base}/api/consumer`;
    const blogs = collections(db).blogs;
    /** Blogs left marked, then the first /tags, the first /changes page and a full sync. */
    const firsts = async () => {
      const pending = await blogs.countDocuments({ workspaceId: ws, feedPending: true });
      const tags = await timedGet(`${api}/tags`, key);
      const changes = await timedGet(`${api}/changes?limit=100`, key);
      return { pending, tags, changes, sync: await fullSync(server.base, key) };
    };
    const afterImport = await firsts();
    log("marking every released blog for the feed, as a release leaves it…");
    // A release writes a new revision and `updatedAt` with the mark: one revision for all
    // blogs here (each is compared with its own blog's), so their earlier entries are stale.
    await blogs.updateMany(
      { workspaceId: ws, status: "released" },
      { $set: { feedPending: true, revision: "rBulkRelease", updatedAt: new Date() } },
    );
    const allMarked = await firsts();
    const again = await fullSync(server.base, key);
    for (const sync of [afterImport.sync, allMarked.sync]) {
      if (sync.blogs !== again.blogs) throw new Error(`synced ${sync.blogs}, then ${again.blogs}`);
    }

    log(`sweeping ${sweepCount} and ${sweepCount / 10} expired rate counters…`);
    const swept = await sweep(db, sweepCount);
    const baseSwept = await sweep(db, sweepCount / 10);

    const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString("en")}/s`;
    console.log(
      [
        `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, embedded database.`,
        "",
        "| step | figure |",
        "|---|---|",
        `| \`pressroom import\` of ${files} Markdown files (it records its own marks before it exits) | ${s2(imported)} (${rate(files, imported)}); ${afterImport.pending} released blogs left waiting to be recorded |`,
        `| after it: first \`GET /tags\` | ${s2(afterImport.tags)} |`,
        `| after it: first \`GET /changes\` page | ${s2(afterImport.changes)} |`,
        `| after it: full SDK sync (pages of 100) | ${s2(afterImport.sync.seconds)}: ${afterImport.sync.blogs} blogs, ${afterImport.sync.pages} pages |`,
        `| import and sync together | ${s2(imported + afterImport.sync.seconds)} |`,
        `| every released blog marked, as releases leave them: first \`GET /tags\` | ${s2(allMarked.tags)} (${allMarked.pending} waiting) |`,
        `| then: first \`GET /changes\` page | ${s2(allMarked.changes)} |`,
        `| then: full SDK sync | ${s2(allMarked.sync.seconds)}: ${allMarked.sync.blogs} blogs, ${allMarked.sync.pages} pages |`,
        `| baseline: the same sync again from the start, nothing to record | ${s2(again.seconds)}: ${again.pages} pages; the sync with every blog marked took ${(allMarked.sync.seconds / again.seconds).toFixed(2)}× |`,
        `| sweep of ${sweepCount} expired documents (one \`purgeExpired\`) | ${s2(swept)} (${rate(sweepCount, swept)}) |`,
        `| baseline: sweep of ${sweepCount / 10} | ${s2(baseSwept)} (${rate(sweepCount / 10, baseSwept)}); per document, the big sweep took ${(swept / sweepCount / (baseSwept / (sweepCount / 10))).toFixed(2)}× |`,
      ].join("\n"),
    );
  } finally {
    await client.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

/**
 * `npm run bench:site` (`npx tsx bench/site-builders.ts [options]`; `--help` lists them).
 *
 * What a site builder's pages cost (openapi.yaml `listBlogs`: `featured`, the archive range,
 * "Feeds"), on the db-scaling seed (bench/scaling-seed.ts: 10,000 released blogs over two
 * workspaces, ~2 KB bodies) with the launcher and the app as `npm start` runs them
 * (bench/db-scaling/processes.ts), as bench/editorial.ts does. Before the app starts, every 25th
 * released blog in release order (4 %) is made featured by a direct `updateMany` on the `blogs`
 * collection (`{$set: {featured: true}}`), and two authors are inserted, every 10th released
 * blog of the read workspace naming the first (every 20th the second before it): seeding only,
 * no edit through the API. The public
 * feeds are turned on through the admin API (`setPublicFeeds`), signed in as the seed's owner.
 * Each round times every request below (p50, p90) one after another, the order reversed every
 * other round so a drift over the run weighs on all alike: the plain list and its 304 (the
 * baseline, as bench/db-scaling/measures.ts), the featured page and a keyset page of it, the
 * author page (`author=`) and its keyset page, archive
 * pages (a 30-day range centred on the seed's release times, and one day), a tag with a range,
 * the three feeds (latest 50) and the sitemap, each with its 304, and searches (`q=`: a word of
 * every blog, two such words, a one-letter prefix, a word of one blog, and a common word beside
 * it). Then the bytes of the default
 * list page against the same page with `fields=` naming the properties the blog had before the
 * presentation fields. Prints a table and writes it into BENCHMARKS.md's "site-builders" section
 * unless `--no-write`. Targets (the issue): each feed ≤ 20 ms p50, its 304 ≤ 5 ms; an author
 * page ≤ 15 ms; a search page ≤ 20 ms, for a common and for a rare word.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { BLOG_FIELDS } from "../server/src/blogs/blog-view.js";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { readOrEmpty, SITE_BUILDERS, withSection } from "./benchmarks-section.js";
import { client, type Reply } from "./db-scaling/http-client.js";
import { children, startApp, startLauncher } from "./db-scaling/processes.js";
import { time } from "./db-scaling/report.js";
import { DB_NAME, seeded } from "./db-scaling/seeding.js";
import { optionsOrExit } from "./options.js";
import { COMMON_TAG } from "./seed.js";

const options = optionsOrExit({
  usage: "npm run bench:site -- [options]  (npx tsx bench/site-builders.ts [options])",
  summary:
    "Featured, archive and tag pages, public feeds and the sitemap (and their 304s) beside the\n" +
    "plain list, alternated in rounds, and the default list's bytes, at 10,000 released blogs.",
  options: {
    rounds: { kind: "number", arg: "N", min: 1, integer: true, help: "rounds (5)" },
    samples: {
      kind: "number",
      arg: "N",
      min: 2,
      integer: true,
      help: "requests per request kind and round (40)",
    },
    "seed-dir": { kind: "string", arg: "DIR", help: "keep (and reuse) the seed here" },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
    "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
  },
});
const SIZE = 10_000;
const ROUNDS = options.rounds ?? 5;
const SAMPLES = options.samples ?? 40;
const WARMUP = 3;
const DAY = 86_400_000;
/** The author every 10th released blog of the read workspace names. */
const COMMON_AUTHOR = "ada-lovelace";
/** The `Blog` properties before the presentation fields (featured, meta…, reading time). */
const OLD_FIELDS =
  "id,slug,title,excerpt,bodyMarkdown,bodyHtml,tags,authorName,coverImageUrl,releasedAt,updatedAt";
const NEW_FIELDS = BLOG_FIELDS.filter((f) => !OLD_FIELDS.split(",").includes(f));

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Page {
  data: Record<string, unknown>[];
  nextCursor: string | null;
}
/** One kind of request: its path, headers, the status it must answer and its target p50. */
interface Kind {
  title: string;
  path: string;
  headers: Record<string, string>;
  status: number;
  /** The target for its p50, ms; null: none. */
  target: number | null;
  times: number[];
}

function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) {
    throw new Error(`${what}: ${reply.status} (expected ${status}) ${reply.body.slice(0, 200)}`);
  }
  return reply;
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!options["no-build"]) {
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    log("tsc -p server…");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  }
  const group = children();
  const stops: (() => Promise<void>)[] = [];
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-site-"));
  try {
    const bin = await ensureEmbeddedDbBinary(log);
    const seedDir = options["seed-dir"] ?? path.join(tmp, "seed");
    const seed = await seeded(group, bin, path.join(seedDir, String(SIZE)), SIZE, log);
    const dataDir = path.join(tmp, "data");
    await cp(path.join(seedDir, String(SIZE), "data"), dataDir, { recursive: true });
    const db = await startLauncher(group, bin, dataDir, false);
    stops.push(db.stop);

    // Featured: every 25th released blog in release order (both workspaces), before the app starts.
    const mongo = new MongoClient(db.uri);
    await mongo.connect();
    const blogsColl = mongo.db(DB_NAME).collection<{ _id: string }>("blogs");
    const released = await blogsColl
      .find({ status: "released" }, { projection: { _id: 1 } })
      .sort({ releasedAt: 1, _id: 1 })
      .toArray();
    const featuredIds = released.filter((_, i) => i % 25 === 0).map((b) => b._id);
    await blogsColl.updateMany({ _id: { $in: featuredIds } }, { $set: { featured: true } });
    // Authors: two of the read workspace's; every 10th released blog in release order names the
    // first, and every 20th the second before it (openapi.yaml, "Authors").
    const now = new Date();
    const authorDoc = (id: string, name: string, slug: string) => ({
      _id: id,
      workspaceId: seed.workspace,
      name,
      nameKey: name.toLowerCase(),
      slug,
      bio: "Writes the release notes.",
      avatarUrl: null,
      websiteUrl: "https://example.com/writers",
      createdAt: now,
      updatedAt: now,
    });
    await mongo
      .db(DB_NAME)
      .collection<ReturnType<typeof authorDoc>>("authors")
      .insertMany([
        authorDoc("au_bench1", "Ada Lovelace", COMMON_AUTHOR),
        authorDoc("au_bench2", "Grace Hopper", "grace-hopper"),
      ]);
    const ours = await blogsColl
      .find({ status: "released", workspaceId: seed.workspace } as never, {
        projection: { _id: 1 },
      })
      .sort({ releasedAt: 1, _id: 1 })
      .toArray();
    const byAda = ours.filter((_, i) => i % 10 === 0).map((b) => b._id);
    const byBoth = byAda.filter((_, i) => i % 2 === 0);
    await blogsColl.updateMany({ _id: { $in: byAda } }, { $set: { authorIds: ["au_bench1"] } });
    await blogsColl.updateMany(
      { _id: { $in: byBoth } },
      { $set: { authorIds: ["au_bench2", "au_bench1"] } },
    );
    await mongo.close();
    log(`Featured ${featuredIds.length} of ${released.length} released blogs`);
    log(`${byAda.length} blogs of the read workspace name ${COMMON_AUTHOR}`);

    // Thousands of reads a minute with one key (and per feed): past the default limit.
    const app = await startApp(group, db.uri, DB_NAME, { CONSUMER_RATE_LIMIT: "off" });
    stops.push(app.stop);
    const api = client(app.url, 120_000);
    const auth = { "x-api-key": seed.key };
    const call = async (p: string, headers: Record<string, string>, method = "GET", body = "") =>
      expectStatus(await api.call(method, p, headers, body || undefined), 200, `${method} ${p}`);
    const page = async (p: string) => JSON.parse((await call(p, auth)).body) as Page;

    // The public feeds on, as the dashboard turns them on: the owner's session and the Origin.
    const origin = new URL(app.url).origin;
    const { email, password } = seed.owner;
    const signIn = await call(
      "/api/admin/session",
      { origin },
      "POST",
      JSON.stringify({ email, password }),
    );
    const cookie = String(signIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    const linkTemplate = "https://example.com/blog/{slug}";
    const feedsOn = await call(
      `/api/admin/workspaces/${seed.workspace}/public-feeds`,
      { origin, cookie },
      "PUT",
      JSON.stringify({ linkTemplate }),
    );
    type Urls = Record<"rss" | "atom" | "json" | "sitemap", string>;
    const { urls } = (JSON.parse(feedsOn.body) as { publicFeeds: { urls: Urls } }).publicFeeds;

    // The requests, each checked once here (untimed); a 304 sends the ETag of an answer read here.
    const blogs = "/api/consumer/blogs";
    const newest = Date.parse(String((await page(blogs)).data[0]?.releasedAt));
    const middle = (newest + seed.deepPosition.at) / 2;
    const bound = (days: number) => new Date(middle + (days * DAY) / 2).toISOString();
    const range = (days: number) => `releasedAfter=${bound(-days)}&releasedBefore=${bound(days)}`;
    const within = (days: number) => (b: Record<string, unknown>) =>
      Math.abs(Date.parse(String(b.releasedAt)) - middle) < (days * DAY) / 2;
    const kinds: Kind[] = [];
    const add = async (
      title: string,
      p: string,
      headers: Record<string, string>,
      target: number | null,
      with304?: number | null,
    ) => {
      kinds.push({ title, path: p, headers, status: 200, target, times: [] });
      if (with304 === undefined) return;
      const etag = String((await call(p, headers)).headers.etag ?? "");
      if (etag === "") throw new Error(`${p}: no ETag`);
      const name = `${title.split(/[ ,]/)[0]}, \`If-None-Match\` (304)`;
      kinds.push({
        title: name,
        path: p,
        headers: { ...headers, "if-none-match": etag },
        status: 304,
        target: with304,
        times: [],
      });
    };
    const listed = async (
      title: string,
      query: string,
      check: (b: Record<string, unknown>) => boolean,
      target: number | null = null,
    ) => {
      const first = await page(`${blogs}?${query}`);
      if (first.data.length !== 20 || !first.data.every(check) || first.nextCursor === null) {
        throw new Error(`${query}: ${first.data.length} blogs, or one not matching, or no page 2`);
      }
      await add(`${title}, first page`, `${blogs}?${query}`, auth, target);
      await add(
        `${title}, keyset page 2`,
        `${blogs}?${query}&cursor=${first.nextCursor}`,
        auth,
        target,
      );
    };
    await add("list, first page (limit 20)", blogs, auth, null, null);
    await listed("featured (`featured=true`)", "featured=true", (b) => b.featured === true);
    const names = (b: Record<string, unknown>) =>
      (b.authors as { slug: string }[]).some((a) => a.slug === COMMON_AUTHOR);
    await listed("author (10 %, `author=`)", `author=${COMMON_AUTHOR}`, names, 15);
    await listed("archive, 30 days", range(30), within(30));
    await listed("archive, 1 day", range(1), within(1));
    const tagged = (b: Record<string, unknown>) => (b.tags as string[]).includes(COMMON_TAG);
    await listed(
      "tag (10 %) + 1 day",
      `tag=${COMMON_TAG}&${range(1)}`,
      (b) => tagged(b) && within(1)(b),
    );
    // Searches: the seed's bodies are made of a few dozen words, so each of these is in nearly
    // every blog; a blog's number (its heading, "What changed in release 4321") is in one blog
    // of each workspace (bench/scaling-seed.ts).
    const holds = (words: string[]) => async (ids: string[]) => {
      const bodies = await Promise.all(
        ids.map(
          async (id) =>
            (JSON.parse((await call(`${blogs}/${id}`, auth)).body) as Page["data"][0]).bodyMarkdown,
        ),
      );
      return bodies.every((b) => words.every((w) => String(b).toLowerCase().includes(w)));
    };
    for (const [title, q, words] of [
      ["search, a word of every blog (`q=release`)", "release", ["release"]],
      [
        "search, two common words (`q=pressroom release`)",
        "pressroom%20release",
        ["pressroom", "release"],
      ],
      ["search, a one-letter prefix (`q=p`)", "p", []],
    ] as const) {
      const first = await page(`${blogs}?q=${q}`);
      if (
        first.data.length !== 20 ||
        first.nextCursor === null ||
        !(await holds([...words])(first.data.map((b) => String(b.id))))
      ) {
        throw new Error(
          `q=${q}: ${first.data.length} blogs, a blog without the words, or no page 2`,
        );
      }
      await add(`${title}, first page`, `${blogs}?q=${q}`, auth, 20);
      await add(`${title}, keyset page 2`, `${blogs}?q=${q}&cursor=${first.nextCursor}`, auth, 20);
    }
    // Blog i of a workspace is released when i % 25 < 22 (bench/scaling-seed.ts): 25k + 5 is.
    const rare = String(25 * Math.floor(seed.workspaceReleased / 75) + 5);
    for (const [title, q] of [
      [`search, a word of one blog (\`q=${rare}\`)`, rare],
      [`search, a common word and a rare one (\`q=release ${rare}\`)`, `release%20${rare}`],
    ] as const) {
      const found = await page(`${blogs}?q=${q}`);
      if (
        found.data.length < 1 ||
        found.data.length > 11 ||
        !(await holds([rare])(found.data.map((b) => String(b.id))))
      ) {
        throw new Error(`q=${q}: ${found.data.length} blogs (expected 1 to 11, each with ${rare})`);
      }
      await add(title, `${blogs}?q=${q}`, auth, 20, null);
    }
    const sitemap = `sitemap \`sitemap.xml\` (${seed.workspaceReleased.toLocaleString("en")} blogs)`;
    const feeds: [string, string, RegExp | null, number][] = [
      ["RSS `rss.xml`", urls.rss, /<item>/g, 50],
      ["Atom `atom.xml`", urls.atom, /<entry>/g, 50],
      ["JSON Feed `feed.json`", urls.json, null, 50],
      [sitemap, urls.sitemap, /<url>/g, seed.workspaceReleased],
    ];
    for (const [title, url, pattern, want] of feeds) {
      const p = new URL(url).pathname;
      const body = (await call(p, {})).body;
      const n = pattern
        ? (body.match(pattern) ?? []).length
        : (JSON.parse(body) as { items: unknown[] }).items.length;
      if (n !== want) throw new Error(`${title}: ${n} entries (expected ${want})`);
      const isFeed = title !== sitemap;
      await add(title, p, {}, isFeed ? 20 : null, isFeed ? 5 : null);
    }

    // Rounds: every kind one after another, the order reversed every other round.
    for (let round = 1; round <= ROUNDS; round++) {
      log(`round ${round}/${ROUNDS}…`);
      for (const kind of round % 2 === 1 ? kinds : [...kinds].reverse()) {
        for (let i = 0; i < WARMUP + SAMPLES; i++) {
          const reply = await api.call("GET", kind.path, kind.headers);
          expectStatus(reply, kind.status, kind.title);
          if (i >= WARMUP) kind.times.push(reply.ms);
        }
      }
    }

    // Bytes: the default list page against the same page with the properties of before.
    const full = (await call(blogs, auth)).body;
    const old = (await call(`${blogs}?fields=${OLD_FIELDS}`, auth)).body;
    const fullPage = JSON.parse(full) as Page;
    const n = fullPage.data.length;
    const added = fullPage.data.reduce(
      (sum, b) =>
        sum +
        NEW_FIELDS.reduce((s, f) => s + Buffer.byteLength(`,"${f}":${JSON.stringify(b[f])}`), 0),
      0,
    );
    const [fullBytes, oldBytes] = [Buffer.byteLength(full), Buffer.byteLength(old)];
    api.close();

    // Each 200 over the plain list's p50, each 304 over the list 304's: the same run's baselines.
    const base = (status: number) => p50(kinds[status === 304 ? 1 : 0]?.times ?? []);
    const rows = kinds.map((k) => {
      const [q50, target] = [p50(k.times), k.target];
      const verdict =
        target === null ? "—" : `≤ ${target} ms: ${q50 <= target ? "met" : "**missed**"}`;
      return `| ${k.title} | ${time(q50)} | ${time(percentile(k.times, 0.9))} | ${(q50 / base(k.status)).toFixed(2)} | ${verdict} | ${k.times.length} |`;
    });
    const per = (bytes: number) => (bytes / n).toFixed(1);
    const cpu = os.cpus()[0]?.model ?? "?";
    const markdown = [
      "## Site builders: featured, author and archive pages, public feeds, blog size (`npm run bench:site`)",
      "",
      "Generated by `npm run bench:site` (`bench/site-builders.ts`); do not edit by hand — rerun it.",
      "",
      `- **Date:** ${new Date().toISOString()}; command \`tsx bench/site-builders.ts ${process.argv.slice(2).join(" ")}\`; whole run ${Math.round((Date.now() - started) / 1000)} s.`,
      `- **Machine:** ${cpu} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; shared with other work, so read the figures as ratios to the plain list of the same run, not as absolutes.`,
      `- **Data:** the db-scaling seed (bench/scaling-seed.ts), ${SIZE.toLocaleString("en")} released blogs over two workspaces (${seed.workspaceReleased.toLocaleString("en")} in the one read, released 2 minutes apart: ${((newest - seed.deepPosition.at) / DAY).toFixed(1)} days), ~2 KB bodies; every 25th released blog in release order made featured (${featuredIds.length}) by a direct \`updateMany\` before the app starts; two authors inserted the same way, every 10th released blog of the read workspace naming the first (${byAda.length}: \`author=${COMMON_AUTHOR}\`), every 20th the second before it; public feeds turned on through the admin API (\`setPublicFeeds\`, the owner signed in). The launcher and the app as \`npm start\` runs them, \`CONSUMER_RATE_LIMIT=off\` (thousands of reads a minute with one key and per feed), one request at a time on one keep-alive connection.`,
      `- **How:** ${ROUNDS} rounds; in each, every request below in turn (the order reversed every other round), ${WARMUP} warm-up and ${SAMPLES} measured requests each; p50 and p90 of the pooled samples; "÷ baseline" is the p50 over the same run's plain list p50 (a 304: over the list 304's). Archive ranges are centred on the middle of the seed's release times: 30 days covers the workspace's whole list (the seed spans less), 1 day about ${Math.round(((DAY / 120_000) * 22) / 25)} blogs. Each answer was checked once before the rounds (count, filter, entries); each sample checks its status.`,
      "",
      "| Request | p50 | p90 | ÷ baseline | target (p50) | n |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
      `Blog size: the default list page (\`/blogs\`, ${n} blogs) against the same page with \`fields=${OLD_FIELDS}\` (the properties of before the new ones: ${NEW_FIELDS.join(", ")}). Target: the default page grows by no more than the new fields' bytes.`,
      "",
      "| Page | bytes | bytes per blog |",
      "|---|---|---|",
      `| default (every property) | ${fullBytes} | ${per(fullBytes)} |`,
      `| \`fields=\` the properties of before | ${oldBytes} | ${per(oldBytes)} |`,
      `| difference | ${fullBytes - oldBytes} | ${per(fullBytes - oldBytes)} |`,
      `| the new fields' own bytes (\`,"name":value\` each) | ${added} | ${per(added)} |`,
      "",
      `The difference ${fullBytes - oldBytes === added ? "is exactly" : "**is not**"} the new fields' bytes: target ${fullBytes - oldBytes <= added ? "met" : "**missed**"}.`,
    ].join("\n");
    process.stdout.write(`${markdown}\n`);
    if (!options["no-write"]) {
      const file = path.join(ROOT, "BENCHMARKS.md");
      await writeFile(file, withSection(await readOrEmpty(file), SITE_BUILDERS, markdown));
      log("Wrote BENCHMARKS.md (site-builders section)");
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

/**
 * `npm run bench:import` (`npx tsx bench/import-markdown.ts [--files N] [--keep]`; `--help` lists
 * them): how fast `pressroom import --from markdown` reads a large folder (README, "Import and export").
 *
 * Generates N Markdown files (default 10,000) with front matter (title, slug, tags, date,
 * draft, author) and a body of a few hundred words with a heading, a list and a code block, in
 * 100 nested folders of a temp dir, then times the read phase — `readMarkdownFolder`
 * (server/src/transfer/markdown-reader.ts): walking, reading 64 files at a time, parsing front
 * matter, mapping — and prints `read: N files in X s (Y files/s)`.
 *
 * Then the whole command a user runs, `pressroom import --workspace ID FOLDER` (the built CLI, a
 * process of its own: read, checks, renders, writes) into an embedded database started here:
 * `import: … files/s`; the same command again (every blog unchanged, nothing written); and, as
 * the baseline measured in the same run, the same blogs written one at a time through the blog
 * store (what the dashboard's editor does per blog) for a sample of `--baseline` files, in a
 * second workspace. The ratio says what the import's batching buys.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { MongoClient } from "mongodb";
import { startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import { createStores } from "../server/src/stores.js";
import { readMarkdownFolder } from "../server/src/transfer/markdown-reader.js";
import { generateMarkdownFolder } from "./markdown-folder.js";
import { optionsOrExit } from "./options.js";
import { compile } from "./servers.js";

const options = optionsOrExit({
  usage: "npm run bench:import -- [options]  (npx tsx bench/import-markdown.ts [options])",
  summary:
    "Generates a folder of Markdown files with front matter and times the Markdown importer's\n" +
    "read phase over it (files per second).",
  options: {
    files: { kind: "number", arg: "N", min: 1, integer: true, help: "files to generate (10000)" },
    baseline: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "blogs written one at a time as the baseline (500)",
    },
    keep: { kind: "flag", help: "keep the generated folder and print its path" },
  },
});
const count = options.files ?? 10_000;
const baselineCount = Math.min(options.baseline ?? 500, count);
const CLI = path.resolve(import.meta.dirname, "../server/bin/pressroom.js");
const log = (line: string) => console.error(line);
const rate = (n: number, seconds: number) =>
  `${n} files in ${seconds.toFixed(2)} s (${Math.round(n / seconds)} files/s)`;

const root = await mkdtemp(path.join(tmpdir(), "pressroom-bench-import-"));
try {
  const made = performance.now();
  await generateMarkdownFolder(root, count);
  console.log(`generated: ${count} files in ${((performance.now() - made) / 1000).toFixed(2)} s`);

  const started = performance.now();
  const set = await readMarkdownFolder(root, {});
  const seconds = (performance.now() - started) / 1000;
  if (set.blogs.length !== count) throw new Error(`read ${set.blogs.length} of ${count} files`);
  console.log(`read: ${rate(count, seconds)}`);
  await importPhase(root, set.blogs.slice(0, baselineCount));
} finally {
  if (options.keep) console.log(`kept: ${root}`);
  else await rm(root, { recursive: true, force: true });
}

/** `pressroom import` of the folder, twice, and the one-at-a-time baseline (see the header). */
async function importPhase(
  root: string,
  sample: Awaited<ReturnType<typeof readMarkdownFolder>>["blogs"],
): Promise<void> {
  compile("server", log);
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-import-db-"));
  const db = await startEmbeddedDb({ dataDir, onProgress: log });
  const client = await MongoClient.connect(db.uri);
  const name = "bench_import";
  try {
    const stores = createStores(client.db(name));
    const ws = (await stores.workspaces.create("Imported"))._id;
    const run = async (): Promise<number> => {
      const started = performance.now();
      await promisify(execFile)(
        process.execPath,
        [CLI, "import", "--workspace", ws, "--from", "markdown", root],
        { env: { ...process.env, MONGODB_URI: db.uri, MONGODB_DB: name }, maxBuffer: 1 << 26 },
      );
      return (performance.now() - started) / 1000;
    };
    const first = await run();
    console.log(`import (pressroom import, new blogs): ${rate(count, first)}`);
    const again = await run();
    console.log(`import again (all unchanged, nothing written): ${rate(count, again)}`);

    const other = (await stores.workspaces.create("One at a time"))._id;
    const started = performance.now();
    for (const blog of sample) {
      await stores.blogs.create(other, {
        title: blog.title,
        slug: blog.slug,
        bodyMarkdown: blog.bodyMarkdown,
        tags: [...blog.tags],
        authorName: blog.authorName,
        release: blog.status === "released",
      });
    }
    const one = (performance.now() - started) / 1000;
    console.log(`baseline (blog store, one at a time): ${rate(sample.length, one)}`);
    const ratio = count / first / (sample.length / one);
    console.log(`ratio: pressroom import is ${ratio.toFixed(1)}× the one-at-a-time rate`);
  } finally {
    await client.close();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

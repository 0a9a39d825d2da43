/**
 * `npm run bench:import` (`npx tsx bench/import-markdown.ts [--files N] [--keep]`; `--help` lists
 * them): how fast `pressroom import --from markdown` reads a large folder (issue 21).
 *
 * Generates N Markdown files (default 10,000) with front matter (title, slug, tags, date,
 * draft, author) and a body of a few hundred words with a heading, a list and a code block, in
 * 100 nested folders of a temp dir, then times the read phase — `readMarkdownFolder`
 * (server/src/transfer/markdown-reader.ts): walking, reading 64 files at a time, parsing front
 * matter, mapping — and prints `read: N files in X s (Y files/s)`. The write phase (the import
 * engine's apply into a database) is timed apart, as its own line, once it is merged.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readMarkdownFolder } from "../server/src/transfer/markdown-reader.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:import -- [options]  (npx tsx bench/import-markdown.ts [options])",
  summary:
    "Generates a folder of Markdown files with front matter and times the Markdown importer's\n" +
    "read phase over it (files per second).",
  options: {
    files: { kind: "number", arg: "N", min: 1, integer: true, help: "files to generate (10000)" },
    keep: { kind: "flag", help: "keep the generated folder and print its path" },
  },
});
const count = options.files ?? 10_000;

const WORDS = "import blogs from a folder of markdown files with front matter quickly".split(" ");

function file(i: number): string {
  const words = Array.from({ length: 300 }, (_, k) => WORDS[(i + k) % WORDS.length]).join(" ");
  return [
    "---",
    `title: "Post number ${i}: a benchmark"`,
    `slug: post-${i}`,
    `tags: [bench, group-${i % 50}, "Tag ${i % 7}"]`,
    `date: 2024-01-${String((i % 28) + 1).padStart(2, "0")}T10:${String(i % 60).padStart(2, "0")}:00Z`,
    `draft: ${i % 10 === 0}`,
    "author: Bench Writer",
    "---",
    `## Section ${i}`,
    "",
    words,
    "",
    "- one\n- two\n- three",
    "",
    "```ts\nconst n = 1;\n```",
    "",
  ].join("\n");
}

async function generate(root: string): Promise<void> {
  const folders = 100;
  for (let f = 0; f < folders; f++) await mkdir(path.join(root, `part-${f}`), { recursive: true });
  const batch = 256;
  for (let start = 0; start < count; start += batch) {
    const writes: Promise<void>[] = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      writes.push(writeFile(path.join(root, `part-${i % folders}`, `post-${i}.md`), file(i)));
    }
    await Promise.all(writes);
  }
}

const root = await mkdtemp(path.join(tmpdir(), "pressroom-bench-import-"));
try {
  const made = performance.now();
  await generate(root);
  console.log(`generated: ${count} files in ${((performance.now() - made) / 1000).toFixed(2)} s`);

  const started = performance.now();
  const set = await readMarkdownFolder(root, {});
  const seconds = (performance.now() - started) / 1000;
  if (set.blogs.length !== count) throw new Error(`read ${set.blogs.length} of ${count} files`);
  console.log(
    `read: ${count} files in ${seconds.toFixed(2)} s (${Math.round(count / seconds)} files/s)`,
  );
  // The write phase (the import engine's apply) is added here, timed apart, at its merge.
} finally {
  if (options.keep) console.log(`kept: ${root}`);
  else await rm(root, { recursive: true, force: true });
}

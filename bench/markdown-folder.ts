/**
 * The Markdown folder the import benches read (bench/import-markdown.ts, bench/bulk-paths.ts):
 * generated files with front matter and a body of ~300 words with a heading, a list and a code
 * block.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const WORDS = "import blogs from a folder of markdown files with front matter quickly".split(" ");

/** File `i`: front matter (title, slug, three tags, date, draft on every tenth, author) and a body. */
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

/** Writes `count` such files into 100 folders under `root`. */
export async function generateMarkdownFolder(root: string, count: number): Promise<void> {
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

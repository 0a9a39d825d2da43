/**
 * The data set of bench/db-scaling.ts: `released` released blogs over two workspaces (half
 * each), with drafts and removed blogs interleaved (of every 25 blogs of a workspace, 22
 * released, 2 drafts, 1 removed), bodies of about 2 KB of markdown rendered and sanitised by the
 * app's own renderer, one API key per workspace minted by the app's key code, and the owner
 * account (first-run setup, as the dashboard does it) who may write to both workspaces.
 *
 * Blogs are inserted with the driver in batches (through the admin API, 50,000 blogs would take
 * hours on stock FerretDB): each document is what `blogsStore.create` followed by a release
 * stores. The caller runs the app's `ensureIndexes` first.
 */
import type { Db } from "mongodb";
import { READING_TIME_MARKER } from "../server/src/blogs/reading-time-migration.js";
import { SEARCH_FIELDS_MARKER } from "../server/src/blogs/search-migration.js";
import { STAGED_MEDIA_MARKER } from "../server/src/blogs/staged-media-migration.js";
import { STAGED_APART_MARKER } from "../server/src/blogs/staged-migration.js";
import { TAGS_NORMALISED_MARKER } from "../server/src/blogs/tag-migration.js";
import { type BlogDoc, collections } from "../server/src/platform/db/collections.js";
import { newId } from "../server/src/platform/ids.js";
import { createStores } from "../server/src/stores.js";
import { benchBlog, WORDS } from "./seed.js";

/** Bump when the generated data changes, so that a kept seed (`--seed-dir`) is made again. */
// 2: the tag scenarios' tags (seed.ts, benchTags); 3: distinct; 4: the tags-normalised marker;
// 5: the search fields and their marker; 6: the consumer search's `textTerms` among them;
// 7: the markers of the reading times' and pending changes' fills (migrations.ts)
export const SEED_FORMAT = "db-scaling/7";

const OWNER = {
  email: "scaling-owner@example.com",
  name: "Scaling Owner",
  password: "scaling bench password",
};

export interface ScalingSeed {
  format: string;
  /** Released blogs in the database, both workspaces together. */
  released: number;
  /** All blog documents (released, drafts, removed). */
  totalBlogs: number;
  /** Mean length of the markdown bodies, in bytes. */
  markdownBytes: number;
  owner: { email: string; password: string };
  /** The workspace the consumer requests are made with (its key), and the other one. */
  workspace: string;
  foreignWorkspace: string;
  key: string;
  /** Released blogs of `workspace`, spread evenly over its whole list. */
  sampleIds: string[];
  /** Released blogs of `foreignWorkspace` (a 404 with `key`). */
  foreignIds: string[];
  /** Released blogs of `workspace`. */
  workspaceReleased: number;
  /** The list position 21 blogs before the end of `workspace`'s list: a cursor to its last page. */
  deepPosition: { at: number; id: string };
  /** The ids of the last page, oldest last (what the deep page must return). */
  lastPageIds: string[];
}

/** A small deterministic PRNG (mulberry32), so every run has the same text. */
export function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About 2 KB of markdown: paragraphs, headings, a list with a link, a code block. */
export function markdown2k(i: number, random: () => number): string {
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? "word";
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
    const first = words[0] ?? "word";
    words[0] = first[0]?.toUpperCase() + first.slice(1);
    return `${words.join(" ")}.`;
  };
  const paragraph = () => Array.from({ length: 3 + Math.floor(random() * 2) }, sentence).join(" ");
  const parts = [
    paragraph(),
    `## What changed in release ${i}`,
    `- **${word()}**: ${sentence()}\n- *${word()}*: ${sentence()}\n- [${word()}](https://example.com/posts/${i}): ${sentence()}`,
    "```ts\nconst page = await client.blogs.list({ limit: 20 });\n```",
    "## Next steps",
  ];
  let length = parts.join("\n\n").length;
  while (length < 1950) {
    const p = paragraph();
    parts.push(p);
    length += p.length + 2;
  }
  return parts.join("\n\n");
}

const MINUTE = 60_000;
const BATCH = 250;

/** Seeds `db` (indexes already made); `log` gets a progress line now and then. */
export async function seedScaling(
  db: Db,
  released: number,
  log: (line: string) => void,
): Promise<ScalingSeed> {
  const stores = collections(db);
  const { setup, workspaces, keys } = createStores(db);
  const { user, workspace } = await setup.run({
    ...OWNER,
    workspaceName: "Scaling newsroom A",
  });
  const other = await workspaces.create("Scaling newsroom B", user._id);
  const key = (await keys.mint(workspace._id, "Scaling bench A")).key;
  await keys.mint(other._id, "Scaling bench B");

  const random = prng(14);
  const now = Date.now();
  const perWorkspace = [Math.ceil(released / 2), Math.floor(released / 2)];
  // Newest release first, per workspace.
  const releasedOf: { id: string; at: number }[][] = [[], []];
  let totalBlogs = 0;
  let markdownBytes = 0;
  let pending: Promise<unknown> = Promise.resolve();
  let batch: BlogDoc[] = [];
  const flush = async () => {
    const docs = batch;
    batch = [];
    // The next batch is rendered while this one is written.
    await pending;
    pending = stores.blogs.insertMany(docs, { ordered: true });
  };
  const started = Date.now();
  let lastLog = started;
  for (const [w, workspaceId] of [workspace._id, other._id].entries()) {
    const want = perWorkspace[w] ?? 0;
    let made = 0;
    // Oldest first: blog i of the workspace was created i steps after the first.
    for (let i = 0; made < want; i++) {
      const slot = i % 25;
      const status = slot < 22 ? "released" : slot < 24 ? "draft" : "removed";
      const bodyMarkdown = markdown2k(i, random);
      markdownBytes += Buffer.byteLength(bodyMarkdown);
      const createdAt = new Date(now - (2 * released - i) * 2 * MINUTE - w * 1000);
      const releasedAt = status === "draft" ? null : new Date(createdAt.getTime() + MINUTE);
      const _id = newId("b");
      batch.push(
        benchBlog({
          i,
          _id,
          workspaceId,
          status,
          bodyMarkdown,
          createdAt,
          releasedAt,
          removedAt: status === "removed" ? new Date(createdAt.getTime() + 2 * MINUTE) : null,
        }),
      );
      totalBlogs += 1;
      if (status === "released" && releasedAt !== null) {
        made += 1;
        releasedOf[w]?.unshift({ id: _id, at: releasedAt.getTime() });
      }
      if (batch.length >= BATCH) await flush();
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        const s = Math.round((lastLog - started) / 1000);
        log(`  … ${s} s: ${totalBlogs} blogs inserted or rendered`);
      }
    }
  }
  if (batch.length > 0) await flush();
  await pending;
  // The seeded tags are in normal form (seed.ts, benchTags), as this version stores them: the
  // one-time rewrite of older tags has nothing to do, and is marked done as it would mark it.
  await stores.markers.insertOne({ _id: TAGS_NORMALISED_MARKER, at: new Date() });
  // Each blog has its search fields (seed.ts, benchBlog): the fill is done, marked as it marks it.
  await stores.markers.insertOne({ _id: SEARCH_FIELDS_MARKER, at: new Date() });
  // And its reading time; no blog holds pending changes, inside it or apart (blogStaged is
  // empty): those fills have nothing to do either. Without their markers every start of a copy
  // of the seed read every blog to find so (server/src/migrations.ts), seconds at 10,000 blogs.
  await stores.markers.insertMany([
    { _id: READING_TIME_MARKER, at: new Date() },
    { _id: STAGED_APART_MARKER, at: new Date() },
    { _id: STAGED_MEDIA_MARKER, at: new Date() },
  ]);

  const mine = releasedOf[0] ?? [];
  const theirs = releasedOf[1] ?? [];
  const spread = (list: { id: string }[], n: number) =>
    Array.from(
      { length: Math.min(n, list.length) },
      (_, k) => list[Math.floor((k * list.length) / Math.min(n, list.length))]?.id ?? "",
    );
  const before = mine[mine.length - 21] ?? mine[0];
  if (before === undefined) throw new Error("no released blogs seeded");
  return {
    format: SEED_FORMAT,
    released,
    totalBlogs,
    markdownBytes: Math.round(markdownBytes / Math.max(1, totalBlogs)),
    owner: { email: OWNER.email, password: OWNER.password },
    workspace: workspace._id,
    foreignWorkspace: other._id,
    key,
    sampleIds: spread(mine, 100),
    foreignIds: spread(theirs, 20),
    workspaceReleased: mine.length,
    deepPosition: before,
    lastPageIds: mine.slice(-20).map((b) => b.id),
  };
}

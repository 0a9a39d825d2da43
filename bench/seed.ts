/**
 * The benchmark's data set: two workspaces, each with 1,000 released, 500 draft and 100 removed
 * blogs of a few KB of markdown (tagged: `COMMON_TAG` on 10 % of them, `RARE_TAG` on 0.1 %) (rendered and sanitised by the server's own code, as a save
 * would), four active keys and one revoked key. Blogs are inserted in bulk for speed; their
 * documents are exactly what `blogsStore.create`/`setStatus` store.
 */
import type { Db } from "mongodb";
import { presentationOf } from "../server/src/blogs/blog-rules.js";
import { readingTimeOf } from "../server/src/blogs/reading-time.js";
import { excerptOf, renderMarkdown } from "../server/src/blogs/render.js";
import { searchFieldsOf } from "../server/src/blogs/search-terms.js";
import { type BlogDoc, collections } from "../server/src/platform/db/collections.js";
import { randomBase62 } from "../server/src/platform/ids.js";
import { createStores } from "../server/src/stores.js";

export const COUNTS = { released: 10_000, draft: 5_000, removed: 1_000 } as const;
export const KEYS_PER_WORKSPACE = 4;

export interface SeededWorkspace {
  id: string;
  keys: string[];
  /** Released blog ids, newest release first. */
  released: string[];
  /** Their slugs, in the same order. */
  releasedSlugs: string[];
}

export const WORDS = (
  "pressroom release editor workspace reader story update launch draft pipeline content " +
  "team product market signal quarter feature customer support design platform growth data " +
  "insight review roadmap partner community event guide practice lesson change plan result"
).split(" ");

/** A small deterministic PRNG (mulberry32), so every run has the same data. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function markdown(i: number, random: () => number): string {
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? "word";
  const sentence = () => {
    const n = 8 + Math.floor(random() * 12);
    const words = Array.from({ length: n }, word);
    const first = words[0] ?? "word";
    words[0] = first[0]?.toUpperCase() + first.slice(1);
    return `${words.join(" ")}.`;
  };
  const paragraph = () => Array.from({ length: 4 + Math.floor(random() * 3) }, sentence).join(" ");
  return [
    paragraph(),
    `## What changed in release ${i}`,
    paragraph(),
    `- **${word()}**: ${sentence()}\n- *${word()}*: ${sentence()}\n- [${word()}](https://example.com/posts/${i}): ${sentence()}`,
    paragraph(),
    "```ts\nconst page = await client.blogs.list({ limit: 20 });\n```",
    `## Next steps`,
    paragraph(),
    paragraph(),
  ].join("\n\n");
}

/** A tag on every tenth blog (10 %), for the tag page scenario (scenarios/tag-page.ts). */
export const COMMON_TAG = "weekly-digest";
/** A tag on every thousandth blog (0.1 %), for the rare tag page scenario. */
export const RARE_TAG = "security-advisory";

/** Blog `i`'s tags, in normal form as saves store them: two everywhere, plus the bench's two. */
/** Distinct and in normal form, as the app stores tags (@pressroom/tag-rule). */
const benchTags = (i: number): string[] => [
  ...new Set([
    "release",
    WORDS[i % WORDS.length] ?? "news",
    ...(i % 10 === 0 ? [COMMON_TAG] : []),
    ...(i % 1000 === 0 ? [RARE_TAG] : []),
  ]),
];

/** Blog `i` of a bench workspace, its body rendered by the app's renderer. */
export function benchBlog(b: {
  i: number;
  _id: string;
  workspaceId: string;
  status: BlogDoc["status"];
  bodyMarkdown: string;
  createdAt: Date;
  releasedAt: Date | null;
  removedAt: Date | null;
}): BlogDoc {
  const { i, bodyMarkdown } = b;
  const bodyHtml = renderMarkdown(bodyMarkdown);
  const doc: BlogDoc = {
    _id: b._id,
    workspaceId: b.workspaceId,
    status: b.status,
    slug: `release-notes-${i}`,
    title: `Release notes ${i}: ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`,
    excerpt: excerptOf(bodyHtml),
    bodyMarkdown,
    bodyHtml,
    tags: benchTags(i),
    authorName: "Bench Author",
    authorIds: [],
    coverImageUrl: i % 3 === 0 ? `https://images.example.com/${i}.jpg` : null,
    ...presentationOf({}),
    readingTimeMinutes: readingTimeOf(bodyHtml),
    createdAt: b.createdAt,
    updatedAt: b.releasedAt ?? b.createdAt,
    releasedAt: b.releasedAt,
    removedAt: b.removedAt,
    revision: randomBase62(12),
  };
  // The presentation fields, the reading time and the admin search's derived fields, as every
  // write of this version stores them: the app's start-up fills (search-migration.ts,
  // reading-time-migration.ts) then have nothing to write at its first start.
  return { ...doc, ...searchFieldsOf(doc) };
}

export async function seed(db: Db): Promise<SeededWorkspace[]> {
  const stores = collections(db);
  const { workspaces, keys } = createStores(db);
  const random = prng(6);
  const seeded: SeededWorkspace[] = [];
  const now = Date.now();
  for (const name of ["Bench newsroom A", "Bench newsroom B"]) {
    const { _id: id } = await workspaces.create(name);
    const total = COUNTS.released + COUNTS.draft + COUNTS.removed;
    const docs: BlogDoc[] = [];
    const released: string[] = [];
    const releasedSlugs: string[] = [];
    for (let i = 0; i < total; i++) {
      // Interleaved states: of every 16 blogs, 10 released, 5 drafts, 1 removed.
      const slot = i % 16;
      const status = slot < 10 ? "released" : slot < 15 ? "draft" : "removed";
      const createdAt = new Date(now - (total - i) * 120_000);
      const releasedAt = status === "draft" ? null : new Date(createdAt.getTime() + 60_000);
      const _id = `b_bench${name.at(-1)}${String(i).padStart(5, "0")}`;
      docs.push(
        benchBlog({
          i,
          _id,
          workspaceId: id,
          status,
          bodyMarkdown: markdown(i, random),
          createdAt,
          releasedAt,
          removedAt: status === "removed" ? new Date(createdAt.getTime() + 90_000) : null,
        }),
      );
      if (status === "released") {
        released.unshift(_id);
        releasedSlugs.unshift(docs.at(-1)?.slug ?? "");
      }
    }
    for (let i = 0; i < docs.length; i += 200) {
      await stores.blogs.insertMany(docs.slice(i, i + 200));
    }
    const raw: string[] = [];
    for (let k = 0; k < KEYS_PER_WORKSPACE; k++) {
      raw.push((await keys.mint(id, `Bench integration ${k + 1}`)).key);
    }
    const revoked = await keys.mint(id, "Bench revoked");
    await keys.revoke(id, revoked.id);
    seeded.push({ id, keys: raw, released, releasedSlugs });
  }
  return seeded;
}

/** Average size of a released blog as the API serves it, for the report. */
export async function averageBlogBytes(db: Db, workspaceId: string): Promise<number> {
  const docs = await collections(db)
    .blogs.find({ workspaceId, status: "released" })
    .limit(50)
    .toArray();
  const sizes = docs.map((d) => Buffer.byteLength(d.bodyMarkdown) + Buffer.byteLength(d.bodyHtml));
  return Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length));
}

/**
 * `npm run bench:media-library` (`npx tsx bench/media-library.ts [options]`; `--help` lists them).
 *
 * The media library's database work at scale (media/media-store.ts, on the launcher as
 * `npm start` runs it, bench/db-scaling/processes.ts): 10,000 images in one workspace and as many
 * in another, each a record in `media` and a small original (2 KB) in the GridFS bucket
 * `mediaFiles`, one in four with a stored copy too. The first image goes in through the driver's
 * `openUploadStream` (which makes GridFS's indexes where `ensureIndexes` has not), the rest are
 * inserted in the shapes the driver and the store write. Then, each timed `--runs` times after a
 * warm-up, through the app's own code: the library's first page (50, newest first), a page deep
 * in the keyset (the 190th of 200), `q=beach` (a fifth of the images) and `q=zebra` (ten
 * images); a consumer page's 20 library covers (blogs/blog-authors.ts `join`); the first read of
 * a stored original on this instance (`file`: its record, the GridFS file by name, its chunks,
 * written to the instance's cache; another image each time), the same GridFS read alone
 * (`find({filename})` and `openDownloadStream`, to memory); and a delete (`remove` as the
 * dashboard first asks: the check that no blog shows the image, the record, the image's files,
 * each file and its chunks; another image each time).
 * Prints p50s (and p90s); writes nothing: the figures go in BENCHMARKS.md's Media section by hand.
 * Not a test: no figure is asserted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Db, GridFSBucket, MongoClient, ObjectId } from "mongodb";
import { blogAuthors } from "../server/src/blogs/blog-authors.js";
import { prefixTermsOf } from "../server/src/blogs/search-terms.js";
import { mediaPool } from "../server/src/media/media-pool.js";
import { mediaStore } from "../server/src/media/media-store.js";
import { collections, type MediaDoc } from "../server/src/platform/db/collections.js";
import { ensureIndexes } from "../server/src/platform/db/indexes.js";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { children, startLauncher } from "./db-scaling/processes.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:media-library -- [options]  (npx tsx bench/media-library.ts [options])",
  summary:
    "The media library's reads, search, GridFS reads and deletes at 10,000 images in a workspace\n" +
    "(and as many in another), through media/media-store.ts on the embedded database.",
  options: {
    images: {
      kind: "number",
      arg: "N",
      min: 100,
      integer: true,
      help: "images per workspace (10000)",
    },
    runs: { kind: "number", arg: "N", min: 5, integer: true, help: "timed runs per measure (40)" },
  },
});
const IMAGES = options.images ?? 10_000;
const RUNS = options.runs ?? 40;
const CHUNK = 255 * 1024;
/** The deep page: the 95th in 100 of the workspace's pages of 50. */
const DEEP = Math.floor((IMAGES / 50) * 0.95);
/** The images whose alt has "zebra": one in a thousand (record). */
const ZEBRAS = Math.floor((IMAGES - 8) / 1000) + 1;
const BATCH = 1000;
const ALTS = [
  "Beach at sunset",
  "Team photo at the offsite",
  "Product shot on white",
  "Office floor plan",
  "Sales chart for the quarter",
];

/** The i-th image of `workspaceId`, as the store writes it (media-store.ts `upload`). */
function record(workspaceId: string, i: number): MediaDoc {
  const name = `photo-${i}.jpg`;
  const alt = `${ALTS[i % ALTS.length]}${i % 1000 === 7 ? " with a zebra" : ""}`;
  return {
    _id: `med_${workspaceId.slice(-1)}${String(i).padStart(6, "0")}`,
    workspaceId,
    sha256: `${workspaceId.slice(-1)}${i.toString(16).padStart(63, "0")}`,
    name,
    alt,
    type: "jpeg",
    width: 1600,
    height: 1000,
    bytes: 2048,
    terms: prefixTermsOf(`${name.replace(/\.[a-z0-9]+$/, "")} ${alt}`),
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    createdBy: "usr_bench",
  };
}

/** A stored file of `mediaId` as GridFSBucket writes it: its files document and its one chunk. */
function file(mediaId: string, key: string, at: Date, bytes: Buffer) {
  const _id = new ObjectId();
  return {
    files: {
      _id,
      length: bytes.length,
      chunkSize: CHUNK,
      uploadDate: at,
      filename: `${mediaId}/${key}`,
      metadata: { mediaId },
    },
    chunk: { _id: new ObjectId(), files_id: _id, n: 0, data: bytes },
  };
}

async function seed(db: Db, workspaceId: string): Promise<void> {
  const bytes = Buffer.alloc(2048, 7);
  const bucket = new GridFSBucket(db, { bucketName: "mediaFiles" });
  for (let from = 0; from < IMAGES; from += BATCH) {
    const docs: MediaDoc[] = [];
    const files: ReturnType<typeof file>[] = [];
    for (let i = from; i < Math.min(IMAGES, from + BATCH); i++) {
      const doc = record(workspaceId, i);
      docs.push(doc);
      if (i === 0) {
        // Through the driver: its first upload looks for a file, then makes its indexes if need be.
        await new Promise<void>((resolve, reject) =>
          bucket
            .openUploadStream(`${doc._id}/original`, { metadata: { mediaId: doc._id } })
            .once("finish", () => resolve())
            .once("error", reject)
            .end(bytes),
        );
      } else files.push(file(doc._id, "original", doc.createdAt, bytes));
      if (i % 4 === 0)
        files.push(file(doc._id, "w640-webp", doc.createdAt, bytes.subarray(0, 900)));
    }
    await db.collection<MediaDoc>("media").insertMany(docs);
    await db.collection("mediaFiles.files").insertMany(files.map((f) => f.files));
    await db.collection("mediaFiles.chunks").insertMany(files.map((f) => f.chunk));
  }
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? Number.NaN;

async function main(): Promise<void> {
  const group = children();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "pressroom-bench-media-library-"));
  const launcher = await startLauncher(
    group,
    await ensureEmbeddedDbBinary(() => undefined),
    path.join(dataDir, "ferretdb"),
    false,
  );
  const client = new MongoClient(launcher.uri);
  try {
    const db = client.db("pressroom");
    await ensureIndexes(db);
    const started = performance.now();
    const [a, b] = ["ws_bench_a", "ws_bench_b"];
    await seed(db, a);
    await seed(db, b);
    const seeded = performance.now() - started;
    // The launcher's keeper (every second) brings its indexes and element tables in step.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const store = mediaStore(collections(db), db, {
      uploadBytes: 10 * 2 ** 20,
      maxPixels: 40_000_000,
      dir: path.join(dataDir, "media"),
      pool: mediaPool(),
    });

    // A cursor deep in the keyset: the one that opens page DEEP of the workspace's pages of 50.
    let cursor: string | undefined;
    for (let page = 1; page < DEEP; page++) {
      cursor = (await store.list(a, { limit: 50, cursor })).nextCursor ?? undefined;
    }
    const deep = cursor;
    if (deep === undefined) throw new Error("no deep cursor");

    const rows: { name: string; ms: number[] }[] = [];
    const time = async (name: string, run: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < 3; i++) await run(RUNS + i); // warm-up, on other images than the timed
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await run(i);
        ms.push(performance.now() - t0);
      }
      rows.push({ name, ms });
    };
    const expect = (what: string, got: number, want: number) => {
      if (got !== want) throw new Error(`${what}: ${got}, want ${want}`);
    };
    await time("library, first page (50)", async () =>
      expect("first page", (await store.list(a, { limit: 50 })).data.length, 50),
    );
    await time(`library, page ${DEEP} of ${IMAGES / 50} (keyset)`, async () =>
      expect("deep page", (await store.list(a, { limit: 50, cursor: deep })).data.length, 50),
    );
    await time("search `q=beach`, first page (a fifth of the images)", async () =>
      expect("q=beach", (await store.list(a, { q: "beach", limit: 50 })).data.length, 50),
    );
    await time(`search \`q=zebra\` (${ZEBRAS} images)`, async () =>
      expect("q=zebra", (await store.list(a, { q: "zebra", limit: 50 })).data.length, ZEBRAS),
    );
    // A consumer page's library covers (blogs/blog-authors.ts `join`): 20 blogs, each a cover.
    const authors = blogAuthors(collections(db));
    await time("a page's 20 library covers (blog-authors.ts `join`)", async (i) => {
      const docs = Array.from({ length: 20 }, (_, k) => {
        const image = record(a, ((i * 20 + k) * 7) % IMAGES);
        const coverImageUrl = `http://127.0.0.1/api/consumer/media/${image._id}/${image.name}`;
        return { authorIds: [], coverImageUrl, coverImageAlt: null };
      });
      const joined = await authors.join(a, docs);
      expect("covers", docs.filter((doc) => joined.coverOf(doc) !== null).length, 20);
    });
    // Distinct images for each read and delete: never this instance's cache, never a record kept.
    const some = (i: number, offset: number, step: number) => record(a, offset + i * step);
    await time(
      "first read of a stored original (`file`: record, GridFS by name, cache)",
      async (i) => {
        const doc = some(i, 11, 7);
        expect("file", (await store.file(doc._id, doc.name, {})).size, 2048);
      },
    );
    const bucket = new GridFSBucket(db, { bucketName: "mediaFiles" });
    await time("GridFS read alone: `find({filename})` + `openDownloadStream`", async (i) => {
      const doc = some(i, 13, 7);
      const [found] = await bucket
        .find({ filename: `${doc._id}/original` }, { limit: 1 })
        .toArray();
      if (found === undefined) throw new Error(`no file ${doc._id}/original`);
      let size = 0;
      for await (const chunk of bucket.openDownloadStream(found._id))
        size += (chunk as Buffer).length;
      expect("read", size, 2048);
    });
    // As the dashboard first asks: the in-use check (no blog here shows an image), then the rest.
    await time(
      "delete (`remove`: in-use check, the record, the image's files, their chunks)",
      async (i) => {
        const doc = some(i, 400, 4); // each with a copy (one image in four has one)
        if (!("deleted" in (await store.remove(a, doc._id, false)))) throw new Error("in use");
      },
    );

    const fmt = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.cpus().length} cores, Node ${process.version}; \`npm run bench:media-library\` (${IMAGES.toLocaleString("en")} images in the workspace and as many in another, seeded in ${Math.round(seeded / 1000)} s; ${RUNS} runs each):`,
      "",
      "| measure | p50 | p90 |",
      "|---|---|---|",
      ...rows.map(
        (r) => `| ${r.name} | ${fmt(quantile(r.ms, 0.5))} ms | ${fmt(quantile(r.ms, 0.9))} ms |`,
      ),
    ];
    console.log(lines.join("\n"));
  } finally {
    await client.close();
    await launcher.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);

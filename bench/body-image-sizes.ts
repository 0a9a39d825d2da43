/**
 * `npm run bench:body-images` (`npx tsx bench/body-image-sizes.ts [--iterations N] [--library N]`;
 * `--help` lists them): what sizing a body's library images (server/src/media/body-image-sizes.ts;
 * README "Media") adds to a render. Starts a throwaway embedded database with the server's
 * indexes, stores `--library` image records (default 500; four in five the workspace's, the rest
 * another's), then renders on the calling thread, with the renderer createStores builds
 * (inlineRenderer wrapped by withLibraryImageSizes), an article of about 1,500 words in two forms,
 * alternating, N times each (default 300): with 10 images from elsewhere (no library image, so no
 * query) and with 10 images of the library (one query, 10 elements rewritten). Prints p50, p90 and
 * mean of each, of the same body unsized, and of the sizing's two parts (the query; the rewrite).
 * A figure, not a test: it asserts only that the 10 images were sized. Database figures on the
 * embedded database (FerretDB/SQLite) say little about MongoDB's.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { inlineRenderer } from "../server/src/blogs/render-pool.js";
import { sizeImages, withLibraryImageSizes } from "../server/src/media/body-image-sizes.js";
import { libraryImagesIn } from "../server/src/media/body-images.js";
import { libraryLookup } from "../server/src/media/library-lookup.js";
import { collections, type MediaDoc } from "../server/src/platform/db/collections.js";
import { ensureIndexes } from "../server/src/platform/db/indexes.js";
import { startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import { percentile } from "./admin-client.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:body-images -- [options]  (npx tsx bench/body-image-sizes.ts [options])",
  summary:
    "A body's render with 10 images from elsewhere, then with 10 from the library (sized),\n" +
    "alternating, on the calling thread against an embedded database; prints both.",
  options: {
    iterations: { kind: "number", arg: "N", min: 1, integer: true, help: "renders of each (300)" },
    library: {
      kind: "number",
      arg: "N",
      min: 10,
      integer: true,
      help: "image records in the workspace's library (500)",
    },
  },
});
const iterations = options.iterations ?? 300;
const librarySize = options.library ?? 500;
const log = (line: string) => process.stderr.write(`${line}\n`);

const WORKSPACE = "ws_bench";
const ORIGIN = "https://pressroom.example.com";
const PARAGRAPH =
  "The press ran through the night while the editors argued about the headline, the proofs " +
  "came back with coffee rings on them, and by morning the first copies were tied in bundles " +
  "at the loading dock, waiting for the vans that would take them across the city and beyond.";

/** About 1,500 words in 30 paragraphs, an image after every third, `src(i)` its URL. */
function article(src: (i: number) => string): string {
  const parts: string[] = ["# A night at the press"];
  for (let i = 0; i < 30; i++) {
    parts.push(`${PARAGRAPH} (${i + 1})`);
    if (i % 3 === 2) parts.push(`![](${src(Math.floor(i / 3))})`);
  }
  return parts.join("\n\n");
}

const idOf = (i: number) => `med_bench${String(i).padStart(12, "0")}`;

function media(i: number): MediaDoc {
  return {
    _id: idOf(i),
    workspaceId: i % 5 === 4 ? "ws_other" : WORKSPACE,
    sha256: i.toString(16).padStart(64, "0"),
    name: `photo-${i}.jpg`,
    alt: `Photo ${i} of the press`,
    type: "jpeg",
    width: 2400,
    height: 1600,
    bytes: 300_000,
    terms: [],
    createdAt: new Date(),
    createdBy: "usr_bench",
  };
}

/** p50, p90 and mean of `ms`, formatted. */
function figures(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const f = (n: number) => n.toFixed(2);
  return `p50 ${f(percentile(sorted, 50))} ms, p90 ${f(percentile(sorted, 90))} ms, mean ${f(mean)} ms`;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-body-images-"));
const db = await startEmbeddedDb({ dataDir, onProgress: log });
const client = await MongoClient.connect(db.uri);
try {
  const database = client.db("bench_body_images");
  await ensureIndexes(database);
  const c = collections(database);
  // Images 0, 1, 2, 3, 5, 6, 7, 8, 10, 11 are the workspace's (every fifth is another's).
  await c.media.insertMany(Array.from({ length: librarySize }, (_, i) => media(i)));
  const ours = Array.from({ length: librarySize }, (_, i) => i).filter((i) => i % 5 !== 4);
  const library = article((i) => {
    const n = ours[i] ?? 0;
    return `${ORIGIN}/api/consumer/media/${idOf(n)}/photo-${n}.jpg`;
  });
  const elsewhere = article((i) => `https://images.example.com/photos/photo-${i}.jpg`);

  const lookup = libraryLookup(c.media);
  const renderer = withLibraryImageSizes(inlineRenderer, lookup);
  const tag = { workspaceId: WORKSPACE };
  const sized = await renderer.render(library, tag);
  const count = (sized.bodyHtml.match(/loading="lazy"/g) ?? []).length;
  if (count !== 10) throw new Error(`expected 10 sized images, got ${count}`);

  // Warm both paths (JIT, the driver's connection) before measuring.
  for (let i = 0; i < 20; i++) {
    await renderer.render(elsewhere, tag);
    await renderer.render(library, tag);
  }
  const without: number[] = [];
  const withImages: number[] = [];
  const plain: number[] = [];
  const query: number[] = [];
  const rewrite: number[] = [];
  const unsized = (await inlineRenderer.render(library, tag)).bodyHtml;
  const images = libraryImagesIn(unsized);
  const ids = [...new Set(images.map((image) => image.mediaId))];
  const found = await lookup(WORKSPACE, ids);
  for (let i = 0; i < iterations; i++) {
    without.push(await timed(() => renderer.render(elsewhere, tag)));
    withImages.push(await timed(() => renderer.render(library, tag)));
    plain.push(await timed(() => inlineRenderer.render(library, tag)));
    query.push(await timed(() => lookup(WORKSPACE, ids)));
    rewrite.push(await timed(async () => sizeImages(unsized, libraryImagesIn(unsized), found)));
  }
  const words = library.split(/\s+/).length;
  console.log(
    `body: ~${words} words, ${library.length} characters of Markdown; library: ${librarySize} records`,
  );
  console.log(`render, 10 images from elsewhere (no query):   ${figures(without)}`);
  console.log(`render, 10 library images (sized):             ${figures(withImages)}`);
  console.log(`render of the same body, unsized:              ${figures(plain)}`);
  console.log(`  the query alone (one find, $in of 10 IDs):   ${figures(query)}`);
  console.log(`  the rewrite alone (find + rewrite elements): ${figures(rewrite)}`);
  console.log(
    `bodyHtml: ${(await renderer.render(elsewhere, tag)).bodyHtml.length} characters without, ${sized.bodyHtml.length} with`,
  );
} finally {
  await client.close();
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The media library as `pressroom export` and `import` use it (README, "Import and export",
 * "Images"), and what both modes print of images.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "mongodb";
import { mediaPool } from "../media/media-pool.js";
import { type MediaStore, mediaStore } from "../media/media-store.js";
import type { Config } from "../platform/config.js";
import { collections } from "../platform/db/collections.js";

/** What an import did with its images (attach-images.ts), in both modes. */
export function imagesLine(done: { uploaded: number; existing: number }, dryRun: boolean): string {
  return `Images: ${done.uploaded} ${dryRun ? "to upload" : "uploaded"} to the library, ${done.existing} already there.`;
}

/** What an export wrote of its images (export-media.ts), in both modes. */
export function mediaFilesLine(
  total: number,
  files: { written: number; kept: number },
  dir: string,
): string {
  return `Wrote ${files.written} image file(s) to ${dir}${files.kept > 0 ? ` (${files.kept} there already)` : ""}; ${total} in the library.`;
}

/** Where the CLI's library URLs are: PUBLIC_URL, else this machine's server (admin.yaml `Media.url`). */
export const publicOriginOf = (config: Pick<Config, "publicOrigin" | "port">): string =>
  config.publicOrigin ?? `http://localhost:${config.port}`;

/**
 * The media store for one CLI command, with its files (uploads on their way, a cache) in a
 * temporary folder removed at `close`: the bytes go to the database, and DATA_DIR stays the
 * server's.
 */
export async function cliMediaStore(
  config: Pick<Config, "media">,
  db: Db,
): Promise<{ store: MediaStore; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "pressroom-media-"));
  const store = mediaStore(collections(db), db, {
    ...config.media,
    dir,
    pool: mediaPool(),
  });
  return { store, close: () => rm(dir, { recursive: true, force: true }) };
}

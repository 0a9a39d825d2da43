/**
 * The bytes of library images (the serving half of the library; media-store.ts keeps the
 * records): the normalised original and every copy made of it, in the GridFS bucket
 * `mediaFiles`, so they go wherever the database goes (backups, restores, every instance of one
 * database). Reading GridFS on the embedded database costs ~25 ms a MB (measured), so each
 * instance keeps the files it served in a cache under `dir/cache`: an image's bytes never change
 * under its ID, so the cache is never stale, and a deleted image is refused by its record before
 * any file is looked at. Files up to SMALL_FILE_BYTES are also kept in memory (MEMORY_BYTES in
 * all, least recently served dropped first): a thumbnail is then answered without a `stat` or a
 * read of the disk. A copy that cannot be made is remembered for a while, so asking again costs
 * no decode. Longer than ~200 lines: the caches, and what fills and empties them, are one piece.
 */
import { createWriteStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { LRUCache } from "lru-cache";
import { type Db, GridFSBucket } from "mongodb";
import type { Collections, MediaDoc } from "../platform/db/collections.js";
import { DomainError, notFound } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import { youngGarbageBudget } from "../platform/young-garbage.js";
import { type Transform, transformImage } from "./image-copies.js";
import { copyBytes, isHeavy } from "./image-memory.js";
import { type ImageFacts, jpegCodingOf } from "./image-processing.js";
import type { ImageType } from "./image-type.js";
import type { MediaPool } from "./media-pool.js";

export const NOT_FOUND = "Image not found.";

/** How long a public URL's read of an image's record is kept (see `records` below). */
const RECORD_TTL_MS = 2000;
const MAX_RECORDS = 10_000;
/**
 * How long an instance remembers that a copy cannot be made (openapi.yaml `MediaCopyImpossible`),
 * and of how many copies at most: the stored image never changes under its ID, nor does
 * MEDIA_MAX_PIXELS while the process runs, so trying again would fail again, at the cost of a
 * whole decode each time. The bound only lets a wrongly remembered failure heal.
 */
const IMPOSSIBLE_TTL_MS = 10 * 60_000;
const MAX_IMPOSSIBLE = 1000;
/** Files this small are kept in memory too; MEMORY_BYTES of them at most. */
const SMALL_FILE_BYTES = 64 * 1024;
const MEMORY_BYTES = 32 * 1024 * 1024;

/** What a public URL needs of an image's record. */
type ServedRecord = Pick<
  MediaDoc,
  "_id" | "workspaceId" | "sha256" | "name" | "type" | "width" | "height"
>;

/** One copy's name among an image's files: `original`, or its transform's parameters. */
export function variantKeyOf(t: Transform): string {
  const parts = [
    t.w === undefined ? "" : `w${t.w}`,
    t.h === undefined ? "" : `h${t.h}`,
    t.w !== undefined && t.h !== undefined && t.fit !== undefined && t.fit !== "inside"
      ? t.fit
      : "",
    t.fm === undefined ? "" : t.fm,
    t.q === undefined ? "" : `q${t.q}`,
  ].filter((p) => p !== "");
  return parts.length === 0 ? "original" : parts.join("-");
}

/** A file ready to send: its bytes (a small file) or where it is on this instance's disk. */
export interface MediaFile {
  readonly path: string;
  /** The whole file, when it is small enough to be kept in memory. */
  readonly bytes?: Buffer;
  readonly size: number;
  readonly type: ImageType;
  /** Strong: the image's bytes hash and the copy's parameters never answer other bytes. */
  readonly etag: string;
}

export interface MediaFilesOptions {
  /** This instance's own files: a cache of stored images and copies under `dir/cache`. */
  readonly dir: string;
  readonly pool: MediaPool;
  readonly maxPixels: number;
}

export function mediaFiles(c: Pick<Collections, "media">, db: Db, options: MediaFilesOptions) {
  const bucket = new GridFSBucket(db, { bucketName: "mediaFiles" });
  const cache = path.join(options.dir, "cache");
  // Made at the first upload or read, not at start: most instances may never hold an image.
  let made: Promise<unknown> | undefined;
  const ready = () => {
    made ??= mkdir(cache, { recursive: true });
    return made;
  };
  /**
   * The records the public URLs read, kept RECORD_TTL_MS (at most MAX_RECORDS): an image's
   * record never changes but for its alt text, which URLs do not show, so only a deletion is
   * late, and only on other instances (this one forgets at once): its URLs answer 404 there
   * within RECORD_TTL_MS. Unknown IDs are kept too, so a flood of made-up ones costs no reads.
   */
  const records = new Map<string, { doc: ServedRecord | null; until: number }>();
  const served = async (mediaId: string): Promise<ServedRecord | null> => {
    const now = Date.now();
    const known = records.get(mediaId);
    if (known !== undefined && known.until > now) return known.doc;
    const doc = await c.media.findOne<ServedRecord>(
      { _id: mediaId },
      { projection: { workspaceId: 1, sha256: 1, name: 1, type: 1, width: 1, height: 1 } },
    );
    records.delete(mediaId);
    if (records.size >= MAX_RECORDS) records.delete(records.keys().next().value ?? "");
    records.set(mediaId, { doc, until: now + RECORD_TTL_MS });
    return doc;
  };
  /** Small files by their cache path (never stale, as the disk's). */
  const memory = new LRUCache<string, Buffer>({
    maxSize: MEMORY_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  });
  /** Copies that cannot be made, by cache path: their 422, answered without trying again. */
  const impossible = new LRUCache<string, DomainError>({
    max: MAX_IMPOSSIBLE,
    ttl: IMPOSSIBLE_TTL_MS,
  });
  /** Copies being made on this instance, so that a burst of one URL makes it once. */
  const making = new Map<string, Promise<MediaFile>>();

  const putFile = async (filename: string, mediaId: string, source: string | Buffer) => {
    const upload = bucket.openUploadStream(filename, { metadata: { mediaId } });
    const done = new Promise<void>((resolve, reject) =>
      upload.once("finish", () => resolve()).once("error", reject),
    );
    // Awaited below; a failed write rejects it too, and is thrown by the write first.
    done.catch(() => undefined);
    if (typeof source === "string") {
      // Read a GridFS chunk at a time into one buffer, each write waited for (the driver has
      // copied it then): a stream's chunk per read would be the file once more in garbage
      // beside the driver's three copies (its chunk document, the command's BSON, the message
      // sent). Those are collected every few chunks (platform/young-garbage.ts): V8 alone lets
      // ~32 MB of them wait (BENCHMARKS.md "Media: an upload's peak memory").
      const garbage = youngGarbageBudget();
      const chunk = Buffer.allocUnsafe(upload.chunkSizeBytes);
      const file = await open(source, "r");
      try {
        for (;;) {
          const { bytesRead } = await file.read(chunk, 0, chunk.length);
          if (bytesRead === 0) break;
          await new Promise<void>((resolve, reject) =>
            upload.write(chunk.subarray(0, bytesRead), (err) => (err ? reject(err) : resolve())),
          );
          garbage.add(bytesRead);
        }
      } catch (err) {
        await upload.abort().catch(() => undefined);
        throw err;
      } finally {
        await file.close();
        garbage.end();
      }
      upload.end();
    } else upload.end(source);
    await done;
  };

  /** Fetches a stored file into the cache; false when GridFS has none of that name. */
  const fetchToCache = async (filename: string, to: string): Promise<boolean> => {
    const found = await bucket.find({ filename }, { limit: 1, projection: { _id: 1 } }).toArray();
    const first = found[0];
    if (first === undefined) return false;
    const part = `${to}.${randomBase62(8)}.part`;
    await mkdir(path.dirname(to), { recursive: true });
    await pipeline(bucket.openDownloadStream(first._id), createWriteStream(part));
    await rename(part, to);
    return true;
  };

  const sizeOf = async (file: string): Promise<number | undefined> => {
    try {
      return (await stat(file)).size;
    } catch {
      return undefined;
    }
  };

  /** A file of the disk cache as sent: read into memory when small. */
  const onDisk = async (at: string, size: number, type: ImageType, etag: string) => {
    if (size > SMALL_FILE_BYTES) return { path: at, size, type, etag };
    const bytes = await readFile(at);
    memory.set(at, bytes);
    return { path: at, bytes, size: bytes.length, type, etag };
  };

  /**
   * The file of an image's URL (openapi.yaml `getMediaFile`): the stored image, or its copy
   * for `transform`, made once (in the pool, by its workspace's turn) and kept. `not_found`
   * for an unknown or deleted image, or a name that is not its own.
   */
  async function file(mediaId: string, name: string, transform: Transform): Promise<MediaFile> {
    const doc = await served(mediaId);
    if (doc === null || doc.name !== name) throw notFound(NOT_FOUND);
    const key = variantKeyOf(transform);
    const type = transform.fm ?? doc.type;
    const at = path.join(cache, mediaId, key);
    const etag = `"${doc.sha256.slice(0, 24)}-${key}"`;
    const kept = memory.get(at);
    if (kept !== undefined) return { path: at, bytes: kept, size: kept.length, type, etag };
    const refused = impossible.get(at);
    if (refused !== undefined) throw refused;
    await ready();
    const cached = await sizeOf(at);
    if (cached !== undefined) return onDisk(at, cached, type, etag);
    const inFlight = making.get(at);
    if (inFlight !== undefined) return inFlight;
    const made = (async (): Promise<MediaFile> => {
      if (await fetchToCache(`${mediaId}/${key}`, at)) {
        return onDisk(at, (await sizeOf(at)) ?? 0, type, etag);
      }
      if (key === "original") throw notFound(NOT_FOUND);
      const original = await file(mediaId, name, {});
      const facts: ImageFacts = { type: doc.type, width: doc.width, height: doc.height };
      const source = original.bytes ?? original.path;
      const coding = doc.type === "jpeg" ? await jpegCodingOf(source) : undefined;
      const copy = await options.pool
        .run(
          doc.workspaceId,
          async () =>
            transformImage(
              original.bytes ?? (await readFile(original.path)),
              facts,
              transform,
              options.maxPixels,
            ),
          isHeavy(copyBytes(facts, transform, coding)),
        )
        .catch((err: unknown) => {
          if (err instanceof DomainError && err.code === "unprocessable") impossible.set(at, err);
          throw err;
        });
      await putFile(`${mediaId}/${key}`, mediaId, copy.bytes);
      const part = `${at}.${randomBase62(8)}.part`;
      await writeFile(part, copy.bytes);
      await rename(part, at);
      if (copy.bytes.length > SMALL_FILE_BYTES) {
        return { path: at, size: copy.bytes.length, type: copy.type, etag };
      }
      memory.set(at, copy.bytes);
      return { path: at, bytes: copy.bytes, size: copy.bytes.length, type: copy.type, etag };
    })();
    making.set(at, made);
    try {
      return await made;
    } finally {
      making.delete(at);
    }
  }

  return {
    file,

    /** Stores a new image's normalised original from `source` (a file it then moves into the cache). */
    async putOriginal(mediaId: string, source: string): Promise<void> {
      await ready();
      await putFile(`${mediaId}/original`, mediaId, source);
      await mkdir(path.join(cache, mediaId), { recursive: true });
      await rename(source, path.join(cache, mediaId, "original"));
    },

    /**
     * Deletes every file of an image (GridFS and this instance's cache); it is 404 here at once.
     * Its files are every name under `<mediaId>/` (`/` is 0x2F, `0` the next code point), a range
     * of the bucket's `filename` index: the same files as `metadata.mediaId`, which no index
     * serves (and the embedded database reads in Go: a dotted path).
     */
    async remove(mediaId: string): Promise<void> {
      records.delete(mediaId);
      const files = await bucket
        .find({ filename: { $gte: `${mediaId}/`, $lt: `${mediaId}0` } }, { projection: { _id: 1 } })
        .toArray();
      for (const found of files) await bucket.delete(found._id).catch(() => undefined);
      const dir = path.join(cache, mediaId);
      for (const at of memory.keys()) if (at.startsWith(`${dir}${path.sep}`)) memory.delete(at);
      for (const at of impossible.keys()) {
        if (at.startsWith(`${dir}${path.sep}`)) impossible.delete(at);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type MediaFiles = ReturnType<typeof mediaFiles>;

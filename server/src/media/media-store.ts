import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Db, GridFSBucket } from "mongodb";
import { parseBlogSearch, prefixTermsOf } from "../blogs/search-terms.js";
import { keysetCursor, readTime } from "../platform/cursor.js";
import type { Collections, MediaDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { notFound } from "../platform/domain-error.js";
import { newId, randomBase62 } from "../platform/ids.js";
import {
  type ImageFacts,
  normaliseImage,
  type Transform,
  transformImage,
} from "./image-processing.js";
import type { ImageType } from "./image-type.js";
import { mediaNameOf } from "./media-name.js";
import type { MediaPool } from "./media-pool.js";
import { receiveUpload } from "./media-upload.js";
import { blogsShowing, type MediaUsers } from "./media-usage.js";

const NOT_FOUND = "Image not found.";

/** How long a public URL's read of an image's record is kept (see `records` below). */
const RECORD_TTL_MS = 2000;
const MAX_RECORDS = 10_000;

/** What a public URL needs of an image's record. */
type ServedRecord = Pick<
  MediaDoc,
  "_id" | "workspaceId" | "sha256" | "name" | "type" | "width" | "height"
>;

/** The library's search terms of an image: its name's words (not the extension) and its alt's. */
const termsOf = (name: string, alt: string): string[] =>
  prefixTermsOf(`${name.replace(/\.[a-z0-9]+$/, "")} ${alt}`);

const mediaCursor = keysetCursor<string | null>({
  value: readTime,
  idPattern: /^med_[A-Za-z0-9]{1,60}$/,
  base64urlOnly: true,
  scope: {
    of: (words) => words,
    refusal: "Invalid query parameter cursor: it belongs to a list with another q.",
  },
});

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

/** A file ready to send: where it is on this instance's disk, and what it is. */
export interface MediaFile {
  readonly path: string;
  readonly size: number;
  readonly type: ImageType;
  /** Strong: the image's bytes hash and the copy's parameters never answer other bytes. */
  readonly etag: string;
}

export interface UploadInput {
  readonly workspaceId: string;
  readonly userId: string;
  readonly name: string;
  readonly alt: string;
  readonly body: Readable;
  readonly declaredLength: number | undefined;
}

export interface MediaStoreOptions {
  readonly uploadBytes: number;
  readonly maxPixels: number;
  /** This instance's own files: uploads on their way in, and a cache of stored images and copies. */
  readonly dir: string;
  readonly pool: MediaPool;
}

/**
 * The media library (admin.yaml, "Media"): each image's record in `media`, its bytes (the
 * normalised original and every copy made of it) in the GridFS bucket `mediaFiles`, so they go
 * wherever the database goes: backups, restores, every instance of one database. Reading GridFS
 * on the embedded database costs ~25 ms a MB (measured), so each instance keeps the files it
 * served in a cache under `dir`: an image's bytes never change under its ID, so the cache is
 * never stale, and a deleted image is refused by its record before any file is looked at.
 */
export function mediaStore(c: Collections, db: Db, options: MediaStoreOptions) {
  const bucket = new GridFSBucket(db, { bucketName: "mediaFiles" });
  const tmp = path.join(options.dir, "incoming");
  const cache = path.join(options.dir, "cache");
  // Made at the first upload or read, not at start: most instances may never hold an image.
  let made: Promise<unknown> | undefined;
  const ready = () => {
    made ??= Promise.all([mkdir(tmp, { recursive: true }), mkdir(cache, { recursive: true })]);
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
  /** Copies being made on this instance, so that a burst of one URL makes it once. */
  const making = new Map<string, Promise<MediaFile>>();

  const putFile = async (filename: string, mediaId: string, source: string | Buffer) => {
    const upload = bucket.openUploadStream(filename, { metadata: { mediaId } });
    if (typeof source === "string") await pipeline(createReadStream(source), upload);
    else
      await new Promise<void>((resolve, reject) =>
        upload
          .once("finish", () => resolve())
          .once("error", reject)
          .end(source),
      );
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

  const get = async (workspaceId: string, mediaId: string): Promise<MediaDoc> => {
    const doc = await c.media.findOne({ _id: mediaId, workspaceId });
    if (doc === null) throw notFound(NOT_FOUND);
    return doc;
  };

  const originalName = (doc: MediaDoc) => `${doc._id}/original`;

  return {
    /** Receives, checks, normalises and stores an upload; the image already stored for the same bytes otherwise. */
    async upload(input: UploadInput): Promise<{ media: MediaDoc; created: boolean }> {
      await ready();
      const received = await receiveUpload(
        input.body,
        input.declaredLength,
        options.uploadBytes,
        tmp,
      );
      try {
        const same = await c.media.findOne({
          workspaceId: input.workspaceId,
          sha256: received.sha256,
        });
        if (same !== null) return { media: same, created: false };
        const _id = newId("med");
        const out = path.join(tmp, `${_id}.normalised`);
        try {
          const facts = await options.pool.run(input.workspaceId, () =>
            normaliseImage(received.path, received.type, out, options.maxPixels),
          );
          const name = mediaNameOf(input.name, facts.type);
          const doc: MediaDoc = {
            _id,
            workspaceId: input.workspaceId,
            sha256: received.sha256,
            name,
            alt: input.alt,
            type: facts.type,
            width: facts.width,
            height: facts.height,
            bytes: facts.bytes,
            terms: termsOf(name, input.alt),
            createdAt: new Date(),
            createdBy: input.userId,
          };
          await putFile(originalName(doc), _id, out);
          try {
            await c.media.insertOne(doc);
          } catch (err) {
            await removeFiles(_id);
            if (!isDuplicateKey(err)) throw err;
            const winner = await c.media.findOne({
              workspaceId: input.workspaceId,
              sha256: received.sha256,
            });
            if (winner === null) throw err;
            return { media: winner, created: false };
          }
          // The file just stored is this instance's cache of it too.
          await mkdir(path.join(cache, _id), { recursive: true });
          await rename(out, path.join(cache, _id, "original"));
          return { media: doc, created: true };
        } finally {
          await rm(out, { force: true });
        }
      } finally {
        await received.discard();
      }
    },

    /** A page of the library, newest first; with `q`, images whose name or alt has each word's start. */
    async list(
      workspaceId: string,
      query: {
        readonly q?: string | undefined;
        readonly limit: number;
        readonly cursor?: string | undefined;
      },
    ): Promise<{ data: MediaDoc[]; nextCursor: string | null }> {
      // The admin blog search's words and cursor scope (blogs/search-terms.ts).
      const search = parseBlogSearch(query.q);
      const words = search?.terms ?? [];
      const scope = search?.scope ?? null;
      if (search !== null && words.length === 0) return { data: [], nextCursor: null };
      const after =
        query.cursor === undefined ? undefined : mediaCursor.decode(query.cursor, scope);
      const filter = {
        workspaceId,
        ...(words.length === 0 ? {} : { terms: { $all: words } }),
        ...(after === undefined
          ? {}
          : {
              $or: [
                { createdAt: { $lt: after.value } },
                { createdAt: after.value, _id: { $lt: after.id } },
              ],
            }),
      };
      const rows = await c.media
        .find(filter, { projection: { terms: 0 } })
        .sort({ createdAt: -1, _id: -1 })
        .limit(query.limit + 1)
        .toArray();
      const data = rows.slice(0, query.limit);
      const last = data[data.length - 1];
      const nextCursor =
        rows.length > query.limit && last !== undefined
          ? mediaCursor.encode({ value: last.createdAt, id: last._id }, scope)
          : null;
      return { data, nextCursor };
    },

    get,

    async setAlt(workspaceId: string, mediaId: string, alt: string): Promise<MediaDoc> {
      const doc = await get(workspaceId, mediaId);
      const updated = { ...doc, alt, terms: termsOf(doc.name, alt) };
      const result = await c.media.updateOne(
        { _id: mediaId, workspaceId },
        { $set: { alt, terms: updated.terms } },
      );
      if (result.matchedCount === 0) throw notFound(NOT_FOUND);
      return updated;
    },

    /**
     * Deletes the record first (its URLs are 404 from then on), then its files and this
     * instance's cache; unless `force`, only when no blog shows it (media-usage.ts), else nothing
     * is deleted and the blogs that do are the answer.
     */
    async remove(
      workspaceId: string,
      mediaId: string,
      force: boolean,
    ): Promise<{ deleted: MediaDoc } | { inUse: MediaUsers }> {
      if (!force) {
        await get(workspaceId, mediaId);
        const users = await blogsShowing(c, workspaceId, mediaId);
        if (users.total > 0) return { inUse: users };
      }
      const doc = await c.media.findOneAndDelete({ _id: mediaId, workspaceId });
      if (doc === null) throw notFound(NOT_FOUND);
      records.delete(mediaId);
      await removeFiles(mediaId);
      return { deleted: doc };
    },

    file,
  };

  /**
   * The file of an image's URL (openapi.yaml `getMediaFile`): the stored image, or its copy
   * for `transform`, made once (in the pool, by its workspace's turn) and kept. `not_found`
   * for an unknown or deleted image, or a name that is not its own.
   */
  async function file(mediaId: string, name: string, transform: Transform): Promise<MediaFile> {
    const doc = await served(mediaId);
    if (doc === null || doc.name !== name) throw notFound(NOT_FOUND);
    await ready();
    const key = variantKeyOf(transform);
    const type = transform.fm ?? doc.type;
    const at = path.join(cache, mediaId, key);
    const etag = `"${doc.sha256.slice(0, 24)}-${key}"`;
    const cached = await sizeOf(at);
    if (cached !== undefined) return { path: at, size: cached, type, etag };
    const inFlight = making.get(at);
    if (inFlight !== undefined) return inFlight;
    const made = (async (): Promise<MediaFile> => {
      if (await fetchToCache(`${mediaId}/${key}`, at)) {
        return { path: at, size: (await sizeOf(at)) ?? 0, type, etag };
      }
      if (key === "original") throw notFound(NOT_FOUND);
      const original = await file(mediaId, name, {});
      const facts: ImageFacts = { type: doc.type, width: doc.width, height: doc.height };
      const copy = await options.pool.run(doc.workspaceId, async () =>
        transformImage(await readFile(original.path), facts, transform, options.maxPixels),
      );
      await putFile(`${mediaId}/${key}`, mediaId, copy.bytes);
      const part = `${at}.${randomBase62(8)}.part`;
      await writeFile(part, copy.bytes);
      await rename(part, at);
      return { path: at, size: copy.bytes.length, type: copy.type, etag };
    })();
    making.set(at, made);
    try {
      return await made;
    } finally {
      making.delete(at);
    }
  }

  async function removeFiles(mediaId: string): Promise<void> {
    const files = await bucket
      .find({ "metadata.mediaId": mediaId }, { projection: { _id: 1 } })
      .toArray();
    for (const file of files) await bucket.delete(file._id).catch(() => undefined);
    await rm(path.join(cache, mediaId), { recursive: true, force: true });
  }
}

export type MediaStore = ReturnType<typeof mediaStore>;

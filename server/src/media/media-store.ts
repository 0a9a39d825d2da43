import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Db } from "mongodb";
import { parseBlogSearch, prefixTermsOf } from "../blogs/search-terms.js";
import { keysetCursor, readTime } from "../platform/cursor.js";
import type { Collections, MediaDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";
import { encodeAgainBytes, isHeavy, progressiveBytes } from "./image-memory.js";
import { encodeAgain, keptOrToEncode } from "./image-normalise.js";
import { jpegCodingOf } from "./image-processing.js";
import { mediaFiles, NOT_FOUND } from "./media-files.js";
import { mediaNameOf } from "./media-name.js";
import type { MediaPool } from "./media-pool.js";
import { receiveUpload } from "./media-upload.js";
import { blogsShowing, type MediaUsers } from "./media-usage.js";

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
 * The media library (admin.yaml, "Media"): each image's record in `media`; its bytes, and the
 * public URLs' files, are media-files.ts's.
 */
export function mediaStore(c: Collections, db: Db, options: MediaStoreOptions) {
  const files = mediaFiles(c, db, options);
  const tmp = path.join(options.dir, "incoming");
  // Made at the first upload, not at start: most instances may never hold an image.
  let made: Promise<unknown> | undefined;
  const ready = () => {
    made ??= mkdir(tmp, { recursive: true });
    return made;
  };

  const get = async (workspaceId: string, mediaId: string): Promise<MediaDoc> => {
    const doc = await c.media.findOne({ _id: mediaId, workspaceId });
    if (doc === null) throw notFound(NOT_FOUND);
    return doc;
  };

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
          // Two turns of the pool: checking a progressive JPEG may be heavy, and encoding again
          // (an AVIF, a WebP, a turned image: image-memory.ts). A JPEG's header says which.
          const coding = received.type === "jpeg" ? await jpegCodingOf(received.path) : undefined;
          const first = await options.pool.run(
            input.workspaceId,
            () => keptOrToEncode(received.path, received.type, out, options.maxPixels),
            isHeavy(progressiveBytes(coding)),
          );
          const facts =
            "bytes" in first
              ? first
              : await options.pool.run(
                  input.workspaceId,
                  () => encodeAgain(first),
                  isHeavy(encodeAgainBytes(first, coding)),
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
          // Stored (and this instance's cache of it) before its record names it.
          await files.putOriginal(_id, out);
          try {
            await c.media.insertOne(doc);
          } catch (err) {
            await files.remove(_id);
            if (!isDuplicateKey(err)) throw err;
            const winner = await c.media.findOne({
              workspaceId: input.workspaceId,
              sha256: received.sha256,
            });
            if (winner === null) throw err;
            return { media: winner, created: false };
          }
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
        // One equality per word, as the blog search's (blogs/editor-list.ts): what the embedded
        // database answers from `terms`' element table (an `$all` it would read in Go).
        ...(words.length === 0 ? {} : { $and: words.map((word) => ({ terms: word })) }),
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
      await files.remove(mediaId);
      return { deleted: doc };
    },

    file: files.file,
  };
}

export type MediaStore = ReturnType<typeof mediaStore>;

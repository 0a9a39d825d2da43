/**
 * The library an import on the server's machine puts its images in (attach-images.ts): the
 * workspace's media store itself, its images' URLs on `origin` (the CLI's `PUBLIC_URL`, else
 * `http://localhost:PORT`, as admin.yaml `Media.url` is on the server).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { MediaStore } from "../media/media-store.js";
import { mediaUrlOf } from "../media/media-url.js";
import type { Collections } from "../platform/db/collections.js";
import type { ImageLibrary } from "./attach-images.js";

/** Who an image put in the library by an import was uploaded by (`MediaDoc.createdBy`). */
export const IMPORT_UPLOADER = "import";

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

export function storeImageLibrary(
  c: Pick<Collections, "media">,
  store: MediaStore,
  workspaceId: string,
  origin: string,
): ImageLibrary {
  const first = async (...filters: object[]) => {
    for (const filter of filters) {
      const doc = await c.media.findOne(
        { workspaceId, ...filter },
        { projection: { _id: 1, name: 1 } },
      );
      if (doc !== null) return mediaUrlOf(origin, doc._id, doc.name);
    }
    return undefined;
  };
  return {
    async find(image) {
      const exported = image.exported;
      return first(
        ...(exported === undefined ? [] : [{ _id: exported.id }, { sha256: exported.sha256 }]),
        { sha256: await sha256Of(image.file) },
      );
    },
    async put(image, alt) {
      const { media, created } = await store.upload({
        workspaceId,
        userId: IMPORT_UPLOADER,
        name: image.name,
        alt,
        body: createReadStream(image.file),
        declaredLength: (await stat(image.file)).size,
      });
      return { url: mediaUrlOf(origin, media._id, media.name), created };
    },
  };
}

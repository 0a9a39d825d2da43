/**
 * The library images of a workspace, read by ID in one query: what a body's image sizes
 * (body-image-sizes.ts) and a page's library covers (blogs/blog-authors.ts) are made from.
 */
import type { Collection } from "mongodb";
import type { MediaDoc } from "../platform/db/collections.js";

/** A library image's record, as far as a body's sizes and a cover need it. */
export type StoredImage = Pick<MediaDoc, "_id" | "name" | "width" | "height" | "alt">;

/** Reads the library images of a workspace by ID: one query, only the fields sizes need. */
export type LibraryLookup = (
  workspaceId: string,
  ids: readonly string[],
) => Promise<ReadonlyMap<string, StoredImage>>;

/**
 * The lookup over the `media` collection: one `find` of `{_id: {$in: ids}}`, projected, keeping
 * only the images of `workspaceId`. The workspace is checked here rather than in the filter: on
 * the embedded database (FerretDB/SQLite) `workspaceId` in the filter made it walk the
 * workspace's index, the whole library, instead of reading the IDs (bench/body-image-sizes.ts:
 * 31–90 ms against 1.7 ms for 10 IDs in a library of 5,000; a page's covers at 10,000 images,
 * 308 ms); MongoDB reads `_id`'s index either way.
 */
export function libraryLookup(media: Collection<MediaDoc>): LibraryLookup {
  return async (workspaceId, ids) => {
    const found = await media
      .find<StoredImage & Pick<MediaDoc, "workspaceId">>(
        { _id: { $in: [...ids] } },
        { projection: { _id: 1, workspaceId: 1, name: 1, width: 1, height: 1, alt: 1 } },
      )
      .toArray();
    return new Map(
      found.filter((doc) => doc.workspaceId === workspaceId).map((doc) => [doc._id, doc]),
    );
  };
}

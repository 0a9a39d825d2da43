import { libraryLookup } from "../media/library-lookup.js";
import { libraryImageOf } from "../media/media-url.js";
import type { AuthorDoc, BlogDoc, Collections, MediaDoc } from "../platform/db/collections.js";
import type { Author as AdminAuthor } from "../platform/http/admin-types.js";
import type { Author, CoverImage } from "../platform/http/consumer-types.js";
import { authorIdsOf } from "./blog-rules.js";

/** An author as a blog shows them: everything but the workspace and the sort key. */
export type BlogAuthorDoc = Omit<AuthorDoc, "workspaceId" | "nameKey">;

/** The authors some blogs name, read at once: each blog's in its order, and what they depend on. */
export interface AuthorsJoined {
  /** The authors `doc` names that exist, in its order (an author removed since is left out). */
  of(doc: Pick<BlogDoc, "authorIds">): readonly BlogAuthorDoc[];
  /**
   * What a response made with these authors depends on: each author's ID and `updatedAt`, and
   * each library cover found (`coverValidatorOf`), sorted; part of its ETag, so an author's edit
   * or removal, or the deletion of a cover from the library, changes it.
   */
  readonly validators: readonly string[];
  /**
   * The blog's cover when it is an image of the workspace's media library (openapi.yaml
   * `Blog.coverImage`), read with the authors; null otherwise, and null once the image is
   * deleted. A library image's size never changes under its ID: only whether it is still there
   * goes into an ETag.
   */
  coverOf(doc: Partial<Pick<BlogDoc, "coverImageUrl" | "coverImageAlt">>): CoverImage | null;
}

/** A stored author → the consumer spec's `Author` (openapi.yaml). */
export const toConsumerAuthor = (doc: BlogAuthorDoc): Author => ({
  id: doc._id,
  slug: doc.slug,
  name: doc.name,
  bio: doc.bio,
  avatarUrl: doc.avatarUrl,
  websiteUrl: doc.websiteUrl,
});

/** A stored author → the admin spec's `Author` (admin.yaml). */
export const toAdminAuthor = (doc: BlogAuthorDoc): AdminAuthor => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  bio: doc.bio,
  avatarUrl: doc.avatarUrl,
  websiteUrl: doc.websiteUrl,
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});

const EMPTY: readonly BlogAuthorDoc[] = [];

/** Blogs that name no author and have no library cover: nothing to read. */
export const NO_AUTHORS: AuthorsJoined = { of: () => EMPTY, validators: [], coverOf: () => null };

/** A library image as a cover needs it: its name (the URL's) and its size. */
export type CoverMediaDoc = Pick<MediaDoc, "_id" | "name" | "width" | "height">;

/** What an answer showing the author depends on: who they are and when they last changed. */
export const authorValidatorOf = (author: Pick<AuthorDoc, "_id" | "updatedAt">): string =>
  `${author._id}.${author.updatedAt.getTime()}`;

/**
 * What an answer showing a library cover depends on: that the image is there (its size and name
 * never change under its ID). Prefixed, so it can never equal an author's validator.
 */
export const coverValidatorOf = (media: Pick<MediaDoc, "_id">): string => `cover.${media._id}`;

/** The validators of the authors and library covers found, in one order whichever read found them. */
const validatorsOf = (
  found: readonly Pick<AuthorDoc, "_id" | "updatedAt">[],
  covers: Iterable<Pick<MediaDoc, "_id">>,
): string[] => [...found.map(authorValidatorOf), ...[...covers].map(coverValidatorOf)].sort();

/**
 * The join of the authors found: each blog's in its order, those not found left out; and of the
 * library images found (by ID, media/library-lookup.ts), each blog's cover when its URL names one.
 */
export function authorsJoined(
  found: readonly BlogAuthorDoc[],
  coverById: ReadonlyMap<string, CoverMediaDoc> = new Map(),
): AuthorsJoined {
  const byId = new Map(found.map((author) => [author._id, author]));
  return {
    coverOf: (doc) => {
      const named = libraryImageOf(doc.coverImageUrl);
      const media = named === undefined ? undefined : coverById.get(named.mediaId);
      if (named === undefined || media === undefined || media.name !== named.name) return null;
      return {
        url: doc.coverImageUrl ?? "",
        width: media.width,
        height: media.height,
        alt: doc.coverImageAlt ?? "",
      };
    },
    of: (doc) =>
      authorIdsOf(doc)
        .map((id) => byId.get(id))
        .filter((author) => author !== undefined),
    validators: validatorsOf(found, coverById.values()),
  };
}

/** The distinct library images some blogs' covers name. */
const coversNamedBy = (docs: readonly Partial<Pick<BlogDoc, "coverImageUrl">>[]): string[] => [
  ...new Set(docs.flatMap((doc) => libraryImageOf(doc.coverImageUrl)?.mediaId ?? [])),
];

/** The distinct author IDs some blogs name. */
const namedBy = (docs: readonly Pick<BlogDoc, "authorIds">[]): string[] => [
  ...new Set(docs.flatMap((doc) => authorIdsOf(doc))),
];

/**
 * Blogs name authors by ID (`BlogDoc.authorIds`); what a blog shows of them is read when the
 * blog is (openapi.yaml, "Authors"): one query for a page's blogs, none when they name no one.
 * So an author's edit is in every blog at once, and `validators` puts it in their ETags.
 */
export interface BlogAuthors {
  /** The authors `docs` name, read whole, and their covers' library images (their sizes). */
  join(
    workspaceId: string,
    docs: readonly (Pick<BlogDoc, "authorIds"> & Partial<Pick<BlogDoc, "coverImageUrl">>)[],
  ): Promise<AuthorsJoined>;
  /**
   * `join(…).validators`, reading only the authors' IDs and times and the covers' IDs: a
   * conditional request's check. `coverImageUrl` is required here, so that no caller can leave
   * the covers out of a check whose answer joins them.
   */
  validators(
    workspaceId: string,
    docs: readonly Pick<BlogDoc, "authorIds" | "coverImageUrl">[],
  ): Promise<string[]>;
  /**
   * The ID of the workspace's author with this slug, or `""` when none has it: what the list's
   * `author` filter looks for (list-filter.ts), so an unknown slug lists no blog.
   */
  idOf(workspaceId: string, slug: string): Promise<string>;
}

export function blogAuthors({
  authors,
  media,
}: Pick<Collections, "authors" | "media">): BlogAuthors {
  const library = libraryLookup(media);
  return {
    async join(workspaceId, docs) {
      const ids = namedBy(docs);
      const coverIds = coversNamedBy(docs);
      if (ids.length === 0 && coverIds.length === 0) return NO_AUTHORS;
      const [found, covers] = await Promise.all([
        ids.length === 0
          ? []
          : authors
              .find<BlogAuthorDoc>(
                { _id: { $in: ids }, workspaceId },
                { projection: { workspaceId: 0, nameKey: 0 } },
              )
              .toArray(),
        coverIds.length === 0 ? undefined : library(workspaceId, coverIds),
      ]);
      return authorsJoined(found, covers);
    },

    async validators(workspaceId, docs) {
      const ids = namedBy(docs);
      const coverIds = coversNamedBy(docs);
      if (ids.length === 0 && coverIds.length === 0) return [];
      const [found, covers] = await Promise.all([
        ids.length === 0
          ? []
          : authors
              .find<Pick<AuthorDoc, "_id" | "updatedAt">>(
                { _id: { $in: ids }, workspaceId },
                { projection: { _id: 1, updatedAt: 1 } },
              )
              .toArray(),
        coverIds.length === 0 ? new Map() : library(workspaceId, coverIds),
      ]);
      return validatorsOf(found, covers.values());
    },

    async idOf(workspaceId, slug) {
      const found = await authors.findOne({ workspaceId, slug }, { projection: { _id: 1 } });
      return found?._id ?? "";
    },
  };
}

/**
 * An import's images put in the target workspace's library before its blogs are planned (README,
 * "Import and export"), and each token of the set (import-images.ts) replaced by the image's
 * public URL. The same for both places an import runs: the library is the media store on the
 * server's machine (cli/transfer-commands.ts) or the admin API's `uploadMedia` (`--server`).
 * - An image already there is used as it is: an exported image whose ID (a restore into the
 *   workspace it came from) or upload hash the workspace has, else the same bytes (the library
 *   is content-addressed: an import run twice stores each image once and its blogs are unchanged).
 * - A dry run uploads nothing: an image not there yet stands as a URL of the ID `med_new…`. A
 *   run that writes plans its blogs so first (`checkFirst`), before any upload: a source the plan
 *   refuses puts nothing in the library either.
 * - An upload the library refuses (not an image whole, too large, too many pixels) is a problem
 *   of the import, located by where the source names the image; the blogs are then not written,
 *   while images uploaded before it stay in the library (a fixed source imported again reuses them).
 */
import { mediaUrlOf } from "../media/media-url.js";
import { DomainError } from "../platform/domain-error.js";
import { type ImportImage, replaceTokens } from "./import-images.js";
import { ImportInputError, type ImportProblem, type ImportSet } from "./import-set.js";

export interface ImageLibrary {
  /** The URL of the workspace's image the import may use for `image` as it is, if any. */
  find(image: ImportImage): Promise<string | undefined>;
  /**
   * Uploads `image` with `alt` (cleaned by `altOf`): the URL of the library's image of its bytes,
   * and whether it is new (else those bytes were there already).
   */
  put(image: ImportImage, alt: string): Promise<{ url: string; created: boolean }>;
}

export interface AttachedImages {
  readonly set: ImportSet;
  /** Images uploaded (or, on a dry run, to be) and images already in the library. */
  readonly uploaded: number;
  readonly existing: number;
}

/** The longest alt text the library takes (admin.yaml `MediaAlt`). */
const MAX_ALT = 1000;

/** An alt text the library takes: one line of at most 1000 characters. */
export const altOf = (image: ImportImage): string =>
  image.alt
    .replace(/\p{Cc}+/gu, " ")
    .trim()
    .slice(0, MAX_ALT);

export interface AttachOptions {
  readonly dryRun: boolean;
  /** Where the library's URLs are, for the stand-ins of a dry run. */
  readonly origin: string;
  /** Plans `set` as a dry run, throwing its problems (workspace-transfer.ts `importSet`). */
  readonly checkFirst: (set: ImportSet) => Promise<unknown>;
}

/** `set` with its images in `library` and their URLs in its blogs (see the header). */
export async function attachImages(
  set: ImportSet,
  library: ImageLibrary,
  options: AttachOptions,
): Promise<AttachedImages> {
  if ((set.images ?? []).length === 0) return { set, uploaded: 0, existing: 0 };
  if (!options.dryRun)
    await options.checkFirst((await attached(set, library, true, options.origin)).set);
  return attached(set, library, options.dryRun, options.origin);
}

async function attached(
  set: ImportSet,
  library: ImageLibrary,
  dryRun: boolean,
  origin: string,
): Promise<AttachedImages> {
  const images = set.images ?? [];
  const standIn = (image: ImportImage) =>
    mediaUrlOf(origin, `med_new${image.token.replace(/\D/g, "")}`, encodeURIComponent(image.name));
  const urlOf = new Map<string, string>();
  const problems: ImportProblem[] = [];
  let uploaded = 0;
  let existing = 0;
  for (const image of images) {
    const found = await library.find(image);
    if (found !== undefined) {
      existing++;
      urlOf.set(image.token, found);
      continue;
    }
    if (dryRun) {
      uploaded++;
      urlOf.set(image.token, standIn(image));
      continue;
    }
    try {
      const { url, created } = await library.put(image, altOf(image));
      if (created) uploaded++;
      else existing++;
      urlOf.set(image.token, url);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problems.push({ where: image.origin, message: `image "${image.name}": ${err.message}` });
    }
  }
  if (problems.length > 0) throw new ImportInputError(problems);
  const relink = (text: string) => replaceTokens(text, (token) => urlOf.get(token));
  const relinkOrNull = (text: string | null) => (text === null ? null : relink(text));
  return {
    set: {
      ...set,
      blogs: set.blogs.map((b) => ({
        ...b,
        bodyMarkdown: relink(b.bodyMarkdown),
        coverImageUrl: relinkOrNull(b.coverImageUrl),
        socialImageUrl: relinkOrNull(b.socialImageUrl),
      })),
    },
    uploaded,
    existing,
  };
}

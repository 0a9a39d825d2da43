/**
 * What a library image's public URL says (openapi.yaml `getMediaFile`): its path ends in
 * `/api/consumer/media/{mediaId}/{name}`, on whatever origin the server was reached at. A blog's
 * cover set by the dashboard's picker is such a URL; anything else is an image elsewhere.
 */
const MEDIA_PATH = /\/api\/consumer\/media\/(med_[A-Za-z0-9]{1,60})\/([a-z0-9][a-z0-9._-]{0,119})$/;

/** The public URL of library image `id` named `name` on `origin` (no trailing slash). */
export const mediaUrlOf = (origin: string, id: string, name: string): string =>
  `${origin}/api/consumer/media/${id}/${name}`;

/** The library image an absolute URL names (no query, no fragment), or undefined. */
export function libraryImageOf(
  url: string | null | undefined,
): { readonly mediaId: string; readonly name: string } | undefined {
  if (url === null || url === undefined || url.includes("?") || url.includes("#")) return undefined;
  const match = MEDIA_PATH.exec(url);
  if (match === null) return undefined;
  const [, mediaId = "", name = ""] = match;
  return { mediaId, name };
}

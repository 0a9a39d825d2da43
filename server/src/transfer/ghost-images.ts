/**
 * A Ghost export's images from Ghost's `content/images` folder (`--media-dir`; README, "Import and
 * export"), for ghost-reader.ts: each `__GHOST_URL__/content/images/<path>` of a post — in its body
 * (site-relative `/content/images/<path>` once ghost-body.ts has dropped the placeholder) and its
 * `feature_image` — is the folder's file `<path>`, one of the set's images (import-images.ts), with
 * the body's alt text or `feature_image_alt`. A size copy Ghost made (`size/w600/…`, also with
 * `format/webp/`) is its original when the folder has it: the library makes its own copies. A path
 * out of the folder or a file that is no image is a problem; a file not there is a note, and the
 * body keeps its site-relative path (not shown), the cover is none. Without `--media-dir` nothing
 * changes: the body keeps those paths and the cover is dropped (ghost-reader.ts).
 */
import { type CheckedImages, imageCollector, localPathOf } from "./import-images.js";
import { rewriteMarkdownImages } from "./markdown-images.js";

const SITE_IMAGE = /^\/content\/images\/(.+)$/;
const COVER_IMAGE = /^__GHOST_URL__\/content\/images\/(.+)$/;
const SIZE_COPY = /^size\/[^/]+\/(?:format\/[^/]+\/)?(.+)$/;

/** The files a Ghost image path may be, best first: its original, then the path as written. */
function candidatesOf(path: string): string[] {
  const local = localPathOf(path);
  if (local === undefined) return [];
  const original = SIZE_COPY.exec(local)?.[1];
  return original === undefined ? [local] : [original, local];
}

export function ghostImages(mediaDir: string | undefined) {
  const images = imageCollector(mediaDir ?? ".");
  let checked: CheckedImages | undefined;
  const add = (path: string, alt: string, where: string) => {
    for (const candidate of candidatesOf(path)) images.add(candidate, alt, where);
  };
  /** The token of the first candidate found, else the first candidate's path as missing. */
  const resolve = (path: string): { token: string } | { missing: string } => {
    const candidates = candidatesOf(path);
    for (const candidate of candidates) {
      const found = images.resolved(candidate);
      if (found !== undefined && "token" in found) return found;
    }
    return { missing: candidates[0] ?? path };
  };
  return {
    /** Names the images of a post's converted body and its `feature_image`. */
    collect(markdown: string, featureImage: string | undefined, coverAlt: string, where: string) {
      if (mediaDir === undefined) return;
      rewriteMarkdownImages(markdown, (src, alt) => {
        const path = SITE_IMAGE.exec(src)?.[1];
        if (path !== undefined) add(path, alt, where);
        return undefined;
      });
      const cover = COVER_IMAGE.exec(featureImage ?? "")?.[1];
      if (cover !== undefined) add(cover, coverAlt, where);
    },

    async check(): Promise<CheckedImages> {
      checked = await images.check();
      return checked;
    },

    /** The body with its found images' tokens; each one not found noted. */
    body(markdown: string, where: string, notes: string[]): string {
      if (mediaDir === undefined) return markdown;
      return rewriteMarkdownImages(markdown, (src) => {
        const path = SITE_IMAGE.exec(src)?.[1];
        if (path === undefined) return undefined;
        const found = resolve(path);
        if ("token" in found) return found.token;
        notes.push(`${where}: image "${found.missing}" not in --media-dir; kept as a site path.`);
        return undefined;
      });
    },

    /** Whether a `feature_image` is on the Ghost site and `--media-dir` is given. */
    onSite(featureImage: string | undefined): boolean {
      return mediaDir !== undefined && COVER_IMAGE.test(featureImage ?? "");
    },

    /**
     * The cover of a `feature_image` on the Ghost site: its token, or null (noted) when its file is
     * not found; undefined when it is not such an image or there is no `--media-dir`.
     */
    cover(
      featureImage: string | undefined,
      where: string,
      notes: string[],
    ): string | null | undefined {
      const path = mediaDir === undefined ? undefined : COVER_IMAGE.exec(featureImage ?? "")?.[1];
      if (path === undefined) return undefined;
      const found = resolve(path);
      if ("token" in found) return found.token;
      notes.push(`${where}: cover image "${found.missing}" not in --media-dir; no cover.`);
      return null;
    },
  };
}

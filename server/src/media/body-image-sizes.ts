/**
 * The library images of a rendered body, sized (README "Media", openapi.yaml "Putting blogs on a
 * page"): after a body is rendered and sanitised, every `<img>` whose `src` is the public URL of
 * an image of the workspace's library, with that image's name, gets
 *
 * - `width` and `height`: the image's own size, so that a page reserves its box before it loads
 *   (no layout shift). A width the writer gave (raw HTML, a positive whole number) is the size
 *   they chose to show it at: it is kept, and the height follows the image's proportions; a
 *   height given alone is kept likewise. A writer's height never distorts the image: it is
 *   recomputed whenever a width is there.
 * - `srcset`: the image's copies at every width of `getMediaFile`'s set strictly below its own
 *   (`…?w=640 640w`; a copy is never enlarged), and the image itself at its own width;
 * - `sizes`: `(max-width: Wpx) 100vw, Wpx` for the width W it is shown at: as wide as the
 *   viewport on a narrower screen, its own width otherwise;
 * - `loading="lazy"` and `decoding="async"`;
 * - the library's alt text when the writer gave none in place (`![](url)`); an alt written in
 *   place is kept.
 *
 * Unknown IDs, another workspace's images and a wrong name are left as they are. The rewritten
 * element is in the sanitiser's format (`name="value"`, escaped by `encodeAttribute`), so
 * body-images.ts and html-text.ts read it as before. This runs when a body is rendered (saved,
 * previewed, imported), never when it is read; a body without library images costs no query.
 */
import type { BodyRenderer } from "../blogs/render-pool.js";
import type { ConsumerQuery } from "../platform/http/consumer-types.js";
import { type BodyImage, encodeAttribute, libraryImagesIn } from "./body-images.js";
import type { LibraryLookup, StoredImage } from "./library-lookup.js";

type MediaWidth = NonNullable<ConsumerQuery<"getMediaFile">["w"]>;

/** The widths `getMediaFile` makes copies at, ascending (openapi.yaml `MediaWidth`). */
export const MEDIA_WIDTHS = Object.freeze([
  64, 128, 256, 320, 480, 640, 768, 960, 1024, 1280, 1536, 1920, 2560,
] as const satisfies readonly MediaWidth[]);

// Fails to compile when the spec's set changes and this list does not.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const widthsMatchTheSpec: Same<(typeof MEDIA_WIDTHS)[number], MediaWidth> = true;
void widthsMatchTheSpec;

/** A positive whole number of pixels as an attribute gives it, or undefined. */
function pixels(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d{1,5}\s*$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

/** The size `image` is shown at: the writer's width (or height alone), in the image's proportions. */
function shownSize(image: BodyImage, stored: StoredImage): { width: number; height: number } {
  const width = pixels(image.attributes.get("width"));
  if (width !== undefined) {
    return { width, height: Math.max(1, Math.round((width * stored.height) / stored.width)) };
  }
  const height = pixels(image.attributes.get("height"));
  if (height !== undefined) {
    return { width: Math.max(1, Math.round((height * stored.width) / stored.height)), height };
  }
  return { width: stored.width, height: stored.height };
}

/** The `srcset` of a library image at `src`: its copies narrower than it, then itself. */
export function srcsetOf(src: string, ownWidth: number): string {
  const copies = MEDIA_WIDTHS.filter((w) => w < ownWidth).map((w) => `${src}?w=${w} ${w}w`);
  return [...copies, `${src} ${ownWidth}w`].join(", ");
}

/** The attributes of a library `<img>` once sized, in order: its own first, then the added. */
export function sizedAttributes(image: BodyImage, stored: StoredImage): Map<string, string> {
  const src = image.attributes.get("src") ?? "";
  const shown = shownSize(image, stored);
  const attributes = new Map(image.attributes);
  const libraryAlt = stored.alt.trim();
  if (image.alt === "" && libraryAlt !== "") attributes.set("alt", libraryAlt);
  attributes.set("width", String(shown.width));
  attributes.set("height", String(shown.height));
  attributes.set("srcset", srcsetOf(src, stored.width));
  attributes.set("sizes", `(max-width: ${shown.width}px) 100vw, ${shown.width}px`);
  attributes.set("loading", "lazy");
  attributes.set("decoding", "async");
  return attributes;
}

/** An `<img>` with `attributes`, as the sanitiser writes one. */
function element(attributes: ReadonlyMap<string, string>, selfClosing: boolean): string {
  const written = [...attributes].map(([name, value]) => `${name}="${encodeAttribute(value)}"`);
  return `<img ${written.join(" ")}${selfClosing ? " />" : ">"}`;
}

/**
 * `bodyHtml` with each of `images` (its library images, libraryImagesIn) that names an image of
 * `library` (by ID, with the same name) sized; the others as they were. Linear in the length.
 */
export function sizeImages(
  bodyHtml: string,
  images: readonly BodyImage[],
  library: ReadonlyMap<string, StoredImage>,
): string {
  let out = "";
  let at = 0;
  for (const image of images) {
    const stored = library.get(image.mediaId);
    if (stored === undefined || stored.name !== image.name || stored.width <= 0) continue;
    const written = bodyHtml.slice(image.start, image.end);
    out +=
      bodyHtml.slice(at, image.start) +
      element(sizedAttributes(image, stored), written.endsWith("/>"));
    at = image.end;
  }
  return at === 0 ? bodyHtml : out + bodyHtml.slice(at);
}

/** `bodyHtml` with its library images sized; without any, as it is and with no query. */
export async function withImageSizes(
  bodyHtml: string,
  workspaceId: string,
  lookup: LibraryLookup,
): Promise<string> {
  const images = libraryImagesIn(bodyHtml);
  if (images.length === 0) return bodyHtml;
  const ids = [...new Set(images.map((image) => image.mediaId))];
  return sizeImages(bodyHtml, images, await lookup(workspaceId, ids));
}

/**
 * `renderer` whose renders size the body's library images (everything else it does unchanged):
 * what createStores gives every path that renders a body — saves, previews and imports.
 */
export function withLibraryImageSizes(renderer: BodyRenderer, lookup: LibraryLookup): BodyRenderer {
  return {
    async render(source, tag) {
      const rendered = await renderer.render(source, tag);
      const bodyHtml = await withImageSizes(rendered.bodyHtml, tag.workspaceId, lookup);
      return bodyHtml === rendered.bodyHtml ? rendered : { ...rendered, bodyHtml };
    },
    admit: (tag) => renderer.admit(tag),
    warmUp: () => renderer.warmUp(),
    close: () => renderer.close(),
  };
}

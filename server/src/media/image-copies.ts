/**
 * Copies of a stored image (openapi.yaml `getMediaFile` with parameters): within the bounds
 * asked and a pixel limit, upright, in a format and quality of the documented sets.
 */

import { DomainError } from "../platform/domain-error.js";
import { ANIMATED, encoded, type ImageFacts, imageErrorOf, input } from "./image-processing.js";
import type { ImageType } from "./image-type.js";

/** A copy's bounds and format (openapi.yaml `getMediaFile`). */
export interface Transform {
  readonly w?: number | undefined;
  readonly h?: number | undefined;
  readonly fit?: "inside" | "cover" | "contain" | undefined;
  readonly fm?: "webp" | "avif" | "jpeg" | "png" | undefined;
  readonly q?: number | undefined;
}

/**
 * The most pixels a copy has: 2560 × 1920 (a 4:3 photo at the largest width of the set,
 * openapi.yaml `getMediaFile`). An encoder holds its whole picture: a copy of a 12-megapixel
 * photo in AVIF at its own size peaked +390 MB (4:4:4; 4:2:0 +244 MB), one of 2560 × 1920 in
 * 4:2:0 +113 MB, 2560 × 2560 +145 MB (BENCHMARKS.md "Media").
 */
export const MAX_COPY_PIXELS = 2560 * 1920;

/**
 * The bounds a copy is made within: `w` × `h` as asked (a bound not given: none), scaled alike
 * so that the copy has at most `MAX_COPY_PIXELS`. `size` is the image's upright size (one
 * frame's, for an animation).
 */
export function copyBounds(
  size: { readonly width: number; readonly height: number },
  transform: Pick<Transform, "w" | "h">,
): { readonly width?: number; readonly height?: number } {
  const { w, h } = transform;
  if (w !== undefined && h !== undefined) {
    // Within the box whatever the fit: at most w × h pixels.
    const k = Math.min(1, Math.sqrt(MAX_COPY_PIXELS / (w * h)));
    return { width: Math.floor(w * k), height: Math.floor(h * k) };
  }
  // One bound or none: the image scaled (never enlarged) to it, then within the pixel limit.
  const s = Math.min(
    1,
    w === undefined ? 1 : w / size.width,
    h === undefined ? 1 : h / size.height,
  );
  const pixels = size.width * size.height * s * s;
  if (pixels <= MAX_COPY_PIXELS) return { width: w, height: h };
  const k = s * Math.sqrt(MAX_COPY_PIXELS / pixels);
  return { width: Math.floor(size.width * k), height: Math.floor(size.height * k) };
}

/**
 * A copy of a stored image within `w` × `h` (never enlarged; with at most `MAX_COPY_PIXELS`:
 * `copyBounds`), fitted by `fit` when both are given, in `fm` (its own type by default) at
 * quality `q`, upright (a stored JPEG may keep its EXIF orientation: `normaliseImage`) and
 * without metadata. Animated images stay animated in GIF and WebP; other formats get their
 * first frame.
 */
export async function transformImage(
  stored: Buffer,
  facts: ImageFacts,
  transform: Transform,
  maxPixels: number,
): Promise<{ readonly type: ImageType; readonly bytes: Buffer }> {
  const type = transform.fm ?? facts.type;
  const keepFrames = ANIMATED.has(facts.type) && ANIMATED.has(type);
  const both = transform.w !== undefined && transform.h !== undefined;
  const fit = both ? (transform.fit ?? "inside") : "inside";
  const bounds = copyBounds(facts, transform);
  let image = input(stored, keepFrames, maxPixels).autoOrient();
  if (bounds.width !== undefined || bounds.height !== undefined) {
    image = image.resize({
      ...bounds,
      fit,
      withoutEnlargement: true,
      ...(fit === "contain"
        ? { background: type === "jpeg" ? "#ffffff" : { r: 0, g: 0, b: 0, alpha: 0 } }
        : {}),
    });
  }
  if (type === "jpeg") image = image.flatten({ background: "#ffffff" });
  try {
    return { type, bytes: await encoded(image, type, transform.q).toBuffer() };
  } catch (err) {
    const error = imageErrorOf(err, maxPixels);
    if (!(error instanceof DomainError)) throw error;
    // The stored image was taken at upload; what fails now is its data (an AVIF is not decoded
    // at upload) or a lower MEDIA_MAX_PIXELS: openapi.yaml `MediaCopyImpossible`.
    throw new DomainError(
      "unprocessable",
      error.code === "unprocessable"
        ? `No copy of this image can be made: it has more than ${maxPixels} pixels (MEDIA_MAX_PIXELS).`
        : "No copy of this image can be made: its image data does not decode.",
    );
  }
}

/**
 * Which image work holds much memory, so that the media pool runs one such job at a time
 * (media-pool.ts). Most of it streams through libvips a strip at a time, or decodes at a fraction
 * of its size (BENCHMARKS.md "Media"); what holds an image whole is counted here by the pixel:
 * libheif decodes an AVIF's whole frame whatever the copy's size, libaom and libwebp encode their
 * whole picture, an upload encoded again is turned by its EXIF orientation in memory, and libjpeg
 * holds a progressive JPEG's coefficients whatever size it is decoded at (when one is checked at
 * upload, encoded again, or a copy is made of it). Measured peaks over idle (sharp
 * 0.35.6, BENCHMARKS.md "Media: heavy jobs one at a time"), in bytes a pixel (a megabyte here is
 * 2^20 bytes):
 */

import { copyBounds, type Transform } from "./image-copies.js";
import type { ToEncode } from "./image-normalise.js";
import type { ImageFacts, JpegCoding } from "./image-processing.js";

const MB = 2 ** 20;

/**
 * Decoding an AVIF: 15.7–16.6 (8 bits, 4:2:0, at 40 and 12 megapixels), 19.7 (8 bits, 4:4:4),
 * 25.2 (10 bits, 4:4:4, 40 megapixels); the copy made from it adds little.
 */
const AVIF_DECODE = 25;

/** Encoding a copy as AVIF (4:2:0): 24.1 (2560 × 1920, image-copies.ts). */
const AVIF_COPY_ENCODE = 24;

/**
 * An AVIF upload decoded and encoded again (4:4:4): 38.2–38.7 (8 bits, 12 megapixels, untagged
 * and with a Display P3 profile), 37.3 (8 bits with that profile, 40 megapixels: +1,422 MB for
 * 15 s), 43.6 (10 bits, 40 megapixels: +1,663 MB for 75 s, before such AVIFs were kept as they
 * came).
 */
const AVIF_ENCODE_AGAIN = 44;

/**
 * Past this a job is heavy: an AVIF of more than ~2.7 megapixels decoded, a copy of more than
 * ~2.8 encoded as AVIF, an AVIF upload of more than ~1.5 encoded again. Below it a job holds
 * what the other kinds do, and runs beside anything.
 */
export const HEAVY_BYTES = 64 * MB;

/**
 * Decoding a progressive JPEG, at whatever size: libjpeg holds every DCT coefficient of the image
 * until its last scan, 2 bytes each, so 3 a pixel in 4:2:0 and 6 in 4:4:4 (checked at upload,
 * 12 megapixels: +43 MB in 4:2:0, +83 MB in 4:4:4; 4:2:0 at 20 megapixels +67 MB, at 40 +128
 * MB). Counted as if no channel were subsampled: 2 a channel, so one in 4:2:0 is counted heavy
 * from ~11 megapixels where it holds 64 MB from ~21.
 */
const PROGRESSIVE_COEFFICIENT = 2;

/** Memory decoding a JPEG coded as `coding` holds beyond a strip at a time: a progressive one's coefficients. */
export function progressiveBytes(coding: JpegCoding | undefined): number {
  return coding?.progressive === true
    ? coding.pixels * coding.channels * PROGRESSIVE_COEFFICIENT
    : 0;
}

/**
 * Memory a copy of an image with `facts` made for `transform` holds, as far as it is heavy; a
 * JPEG's `coding` read from its stored original.
 */
export function copyBytes(facts: ImageFacts, transform: Transform, coding?: JpegCoding): number {
  const source = facts.width * facts.height;
  let bytes = facts.type === "avif" ? source * AVIF_DECODE : progressiveBytes(coding);
  if ((transform.fm ?? facts.type) === "avif") {
    const { width, height } = copyBounds(facts, transform);
    // Both bounds: the box, which `contain` fills whatever the image's size (padding it), and
    // `inside` and `cover` do not pass. One or none: the image scaled to it (copyBounds leaves a
    // bound out when the image so scaled is within the limit).
    const scale = Math.min(
      1,
      width === undefined ? 1 : width / facts.width,
      height === undefined ? 1 : height / facts.height,
    );
    const box = width !== undefined && height !== undefined ? width * height : undefined;
    const pixels =
      box === undefined
        ? source * scale * scale
        : transform.fit === "contain"
          ? box
          : Math.min(box, source);
    bytes += pixels * AVIF_COPY_ENCODE;
  }
  return bytes;
}

/**
 * Turning an image encoded again by its EXIF orientation holds it whole: +75 MB at 20
 * megapixels (BENCHMARKS.md "Media: an upload's peak memory"), 3.9.
 */
const ROTATE = 4;

/**
 * A WebP upload encoded again, at libwebp's effort 2 (image-processing.ts), 12 megapixels: 12.9
 * (converted to sRGB from a profile not kept), 10.6 (turned by its EXIF orientation: libwebp then
 * reads libvips' turned image, where an upright one is copied for it, so turning adds nothing).
 */
const WEBP_ENCODE_AGAIN = 13;

/**
 * Memory an upload encoded again holds, as far as it is heavy; a JPEG's `coding` read from its
 * header.
 */
export function encodeAgainBytes(
  upload: Pick<ToEncode, "type" | "decodedPixels" | "orientation">,
  coding?: JpegCoding,
): number {
  if (upload.type === "webp") return upload.decodedPixels * WEBP_ENCODE_AGAIN;
  const turned = upload.orientation > 1 ? upload.decodedPixels * ROTATE : 0;
  const decoded =
    upload.type === "avif" ? upload.decodedPixels * AVIF_ENCODE_AGAIN : progressiveBytes(coding);
  return decoded + turned;
}

/** Whether a job holding `bytes` is heavy: the media pool runs one such at a time. */
export const isHeavy = (bytes: number): boolean => bytes > HEAVY_BYTES;

import { stat } from "node:fs/promises";
import sharp, { type Sharp } from "sharp";
import { DomainError } from "../platform/domain-error.js";
import { avifCutShort, writeAvifWithoutMetadata } from "./avif-boxes.js";
import { isSrgbProfile } from "./icc-profile.js";
import type { ImageType } from "./image-type.js";
import {
  type JpegFrame,
  NotAJpeg,
  servableAsIs,
  writeJpegWithoutMetadata,
} from "./jpeg-segments.js";
import { NOT_AN_IMAGE } from "./media-upload.js";
import { writeWebpWithoutMetadata } from "./webp-chunks.js";

/** What a stored image is: its bytes' type and its upright size. */
export interface ImageFacts {
  readonly type: ImageType;
  readonly width: number;
  readonly height: number;
}

// libvips' operation cache keeps what it decoded, and the file open, after an upload is done
// (its temporary file removed): ~7 MB more held per 20-megapixel upload, while the next step
// (GridFS) allocates. Each upload and copy here is a new input: the cache hardly ever hits.
sharp.cache(false);

const unreadable = (message: string): DomainError => new DomainError("unprocessable", message);

/** Types whose files may hold several frames: kept animated when the output can be. */
export const ANIMATED: ReadonlySet<ImageType> = new Set(["gif", "webp"]);

export function input(source: string | Buffer, animated: boolean, maxPixels: number): Sharp {
  return sharp(source, {
    limitInputPixels: maxPixels,
    animated,
    // A truncated or corrupt file is refused, not decoded as far as it goes.
    failOn: "error",
    sequentialRead: true,
  });
}

/**
 * Up to this many pixels (1920 × 1080) a stored JPEG gets optimised Huffman tables. libjpeg makes
 * them in two passes, holding every DCT coefficient of the image meanwhile (twice, in sharp's
 * mozjpeg build: ~6 bytes a pixel): +14 MB for a 1600 × 1000 upload, whose file is then a quarter
 * smaller, but +137 MB for a 20-megapixel one (7 % smaller), which without them is written a
 * strip at a time: +21 MB (BENCHMARKS.md "Media: an upload's peak memory").
 */
const OPTIMISED_HUFFMAN_MAX_PIXELS = 1920 * 1080;

/**
 * The image encoded as `type`; quality `q` for lossy formats (their defaults otherwise). An
 * upload's original (`stored`, with its pixel count) is encoded for memory and time, copies for
 * size.
 */
export function encoded(
  image: Sharp,
  type: ImageType,
  q?: number,
  stored?: { readonly pixels: number },
): Sharp {
  switch (type) {
    case "jpeg":
      // mozjpeg makes copies ~10 % smaller, at several times the CPU: not worth it for the
      // stored original, which pages rarely load whole.
      return stored === undefined
        ? image.jpeg({ quality: q ?? 80, mozjpeg: true })
        : image.jpeg({
            quality: q ?? 80,
            optimiseCoding: stored.pixels <= OPTIMISED_HUFFMAN_MAX_PIXELS,
          });
    case "png":
      return image.png({ compressionLevel: 9 });
    case "webp":
      return image.webp({ quality: q ?? 80 });
    case "avif":
      // Copies in 4:2:0, as JPEG and lossy WebP copies are: libaom holds ~23 bytes a pixel so,
      // ~35 at sharp's default 4:4:4 (kept for a stored original).
      return image.avif({
        quality: q ?? 60,
        effort: 2,
        chromaSubsampling: stored === undefined ? "4:2:0" : "4:4:4",
      });
    case "gif":
      return image.gif();
  }
}

/** A failure of this machine (a full disk, a missing directory), not of the image: its own error. */
const isSystemError = (err: unknown): boolean =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === "string";

export function imageErrorOf(err: unknown, maxPixels: number): unknown {
  if (isSystemError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) {
    return unreadable(`Image too large: more than ${maxPixels} pixels (MEDIA_MAX_PIXELS).`);
  }
  // Bytes that start like an image but are not one whole (damaged, cut short, or a polyglot
  // that is something else past its first bytes): not an image the library takes.
  return new DomainError("unsupported_type", NOT_AN_IMAGE);
}

/**
 * A JPEG, an upright WebP or a still AVIF in sRGB as it came, without its metadata
 * (jpeg-segments.ts, webp-chunks.ts, avif-boxes.ts; an sRGB colour profile goes with the rest of
 * a JPEG's or WebP's: it changes nothing, icc-profile.ts) but a JPEG's EXIF `orientation`,
 * written back alone (an AVIF's rotation is a property of its image, kept), written to `outPath`;
 * its size, or undefined when it is to be encoded again: its bytes do not walk, or its JPEG
 * frame is one a browser may not decode (arithmetic-coded, 12-bit, lossless). A JPEG or WebP
 * is then decoded whole at a fraction of its size (libjpeg and libwebp still decode all its data:
 * what they cannot decode fails here), every frame of an animation: for a 20-megapixel JPEG
 * +5–17 MB, most of it the file libvips maps, where encoding it again held +21 MB (+75 MB
 * turned: rotating needs the whole image in memory), took 0.15–0.3 s and made a second lossy
 * generation of every photo (a lossless WebP became a lossy one) (BENCHMARKS.md "Media: an
 * upload's peak memory").
 */
async function keptAsIs(
  type: ImageType,
  orientation: number,
  sourcePath: string,
  outPath: string,
  maxPixels: number,
): Promise<number | undefined> {
  if (type === "webp") {
    if (orientation !== 1 || !(await writeWebpWithoutMetadata(sourcePath, outPath))) {
      return undefined;
    }
  } else if (type === "jpeg") {
    let frame: JpegFrame | undefined;
    try {
      frame = await writeJpegWithoutMetadata(sourcePath, outPath, orientation);
    } catch (err) {
      // Bytes that do not walk as JPEG segments to an EOI (stray bytes between segments, which
      // libjpeg skips with a warning; a file cut short, which it refuses) are left to libvips.
      if (err instanceof NotAJpeg) return undefined;
      throw err;
    }
    if (!servableAsIs(frame)) return undefined;
  } else if (type === "avif") {
    // Not decoded: libheif decodes an AVIF whole, at ~15–18 bytes a pixel (+220 MB at 12
    // megapixels); its boxes and its AV1 data's framing and frame size are what is checked.
    if (orientation !== 1 || !(await writeAvifWithoutMetadata(sourcePath, outPath, maxPixels))) {
      return undefined;
    }
    return (await stat(outPath)).size;
  } else return undefined;
  await input(outPath, ANIMATED.has(type), maxPixels).resize(1).raw().toBuffer();
  return (await stat(outPath)).size;
}

/**
 * The image as the library stores it (admin.yaml `uploadMedia`), written to `outPath`: refused
 * past `maxPixels` before it is decoded (a decompression bomb costs its header) and decoded whole
 * (anything that only starts like an image fails here, `unsupported_type`). A JPEG in sRGB, and
 * an upright WebP or a still AVIF in sRGB, untagged or tagged sRGB, keeps its image data
 * (`keptAsIs`, an AVIF without being decoded; a JPEG
 * turned by its EXIF orientation keeps that tag alone, and its upright size is reported); any
 * other image is turned upright by its EXIF orientation, every metadata block dropped (sharp
 * keeps none unless asked) with colours converted to sRGB, and encoded again in its own type at
 * a high quality.
 */
export async function normaliseImage(
  sourcePath: string,
  type: ImageType,
  outPath: string,
  maxPixels: number,
): Promise<ImageFacts & { readonly bytes: number }> {
  try {
    // libheif reads only the items it decodes: a file cut short is told by its boxes.
    if (type === "avif" && (await avifCutShort(sourcePath))) {
      throw new DomainError("unsupported_type", NOT_AN_IMAGE);
    }
    const meta = await input(sourcePath, false, maxPixels).metadata();
    const { width = 0, height = 0 } = meta;
    // EXIF's orientations are 1 (upright) to 8; libvips reads any other value as 1, and so does
    // this (orientationSegment takes 2–8 only).
    const tagged = meta.orientation ?? 1;
    const orientation = tagged >= 2 && tagged <= 8 ? tagged : 1;
    if (
      (meta.space === "srgb" || meta.space === "b-w") &&
      (meta.icc === undefined || isSrgbProfile(meta.icc))
    ) {
      const kept = await keptAsIs(type, orientation, sourcePath, outPath, maxPixels);
      // Orientations 5–8 turn the image a quarter: its upright width is its stored height.
      if (kept !== undefined) {
        return orientation >= 5
          ? { type, width: height, height: width, bytes: kept }
          : { type, width, height, bytes: kept };
      }
    }
    // Turned only when its EXIF says so: rotating needs the whole image in memory, while an
    // upright one streams through libvips a strip at a time (a 20-megapixel JPEG: +75 MB turned,
    // +21 MB upright; a progressive JPEG holds its coefficients to decode: +78 MB).
    const decoded = input(sourcePath, ANIMATED.has(type), maxPixels);
    const image = orientation > 1 ? decoded.rotate() : decoded;
    const lossless = type === "png" || type === "gif";
    const info = await encoded(image, type, lossless ? undefined : 90, {
      pixels: width * height,
    }).toFile(outPath);
    const frames =
      info.pageHeight === undefined ? 1 : Math.max(1, Math.round(info.height / info.pageHeight));
    return { type, width: info.width, height: info.height / frames, bytes: info.size };
  } catch (err) {
    throw imageErrorOf(err, maxPixels);
  }
}

import sharp, { type Sharp } from "sharp";
import { DomainError } from "../platform/domain-error.js";
import type { ImageType } from "./image-type.js";
import { NOT_AN_IMAGE } from "./media-upload.js";

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

/**
 * How a JPEG is coded, as far as decoding it holds memory (image-memory.ts): read from its
 * header, before the media pool is asked for a turn.
 */
export interface JpegCoding {
  readonly progressive: boolean;
  readonly channels: number;
  /** Its width times its height, as its frame header says. */
  readonly pixels: number;
}

/** A JPEG's coding from its header (libjpeg reads its markers up to the frame's); undefined when unreadable. */
export async function jpegCodingOf(source: string | Buffer): Promise<JpegCoding | undefined> {
  try {
    const meta = await sharp(source).metadata();
    return {
      progressive: meta.isProgressive === true,
      channels: meta.channels ?? 3,
      pixels: (meta.width ?? 0) * (meta.height ?? 0),
    };
  } catch {
    // Not decodable as far as its header: the turn that checks it says why.
    return undefined;
  }
}

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
 * Up to this many pixels (1920 × 1080) a stored original is encoded as thoroughly as copies are;
 * a larger one is encoded for memory and time (BENCHMARKS.md "Media: an upload's peak memory").
 * - JPEG: optimised Huffman tables. libjpeg makes them in two passes, holding every DCT
 *   coefficient of the image meanwhile (twice, in sharp's mozjpeg build: ~6 bytes a pixel):
 *   +14 MB for a 1600 × 1000 upload, whose file is then a quarter smaller, but +137 MB for a
 *   20-megapixel one (7 % smaller), which without them is written a strip at a time: +21 MB.
 * - WebP: libwebp's effort ("method") 4, its default. From 3 up it keeps the tokens of the whole
 *   image to choose its probabilities (~2–4 bytes a pixel); at 2 it writes them as it goes: a
 *   12-megapixel WebP turned by its EXIF +124 MB instead of +152, in 1.2 s instead of 2.0, the
 *   file 0.3 % larger and 0.4 dB further from the upload (PSNR).
 */
const THOROUGH_MAX_PIXELS = 1920 * 1080;

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
            optimiseCoding: stored.pixels <= THOROUGH_MAX_PIXELS,
          });
    case "png":
      return image.png({ compressionLevel: 9 });
    case "webp":
      return image.webp({
        quality: q ?? 80,
        effort: stored === undefined || stored.pixels <= THOROUGH_MAX_PIXELS ? 4 : 2,
      });
    case "avif":
      // Copies in 4:2:0, as JPEG and lossy WebP copies are: libaom holds ~24 bytes a pixel so,
      // ~34 at sharp's default 4:4:4 (kept for a stored original).
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

/**
 * An upload as the library stores it (admin.yaml `uploadMedia`): kept as it came, its metadata
 * dropped, when its image data can be served as it is; otherwise encoded again.
 */

import { stat } from "node:fs/promises";
import type { Metadata } from "sharp";
import { DomainError } from "../platform/domain-error.js";
import {
  AvifTooLarge,
  avifCutShort,
  avifDecoding,
  writeAvifWithoutMetadata,
} from "./avif-boxes.js";
import { pastLimit } from "./avif-decoding.js";
import { describesRgbImage, isSrgbProfile } from "./icc-profile.js";
import { ANIMATED, encoded, type ImageFacts, imageErrorOf, input } from "./image-processing.js";
import type { ImageType } from "./image-type.js";
import {
  type JpegFrame,
  NotAJpeg,
  servableAsIs,
  writeJpegWithoutMetadata,
} from "./jpeg-segments.js";
import { NOT_AN_IMAGE } from "./media-upload.js";
import { libvipsConvertsBy } from "./profile-use.js";
import { writeWebpWithoutMetadata } from "./webp-chunks.js";

/**
 * A JPEG, an upright WebP or a still AVIF (in sRGB, or in the colour its code points or its
 * profile name) as it came, without its metadata (jpeg-segments.ts, webp-chunks.ts, avif-boxes.ts;
 * `colour.icc` is the profile libvips read, which an AVIF's must be, and a JPEG or WebP keeps
 * `colour.kept`, an sRGB one going with the rest) but a JPEG's EXIF `orientation`, written back
 * alone (an AVIF's rotation is a property of its image, kept), written to `outPath`; its size, or
 * undefined when it is to be encoded again: its bytes do not walk, or its JPEG frame is one a
 * browser may not decode (arithmetic-coded, 12-bit, lossless). A JPEG or WebP is then decoded
 * whole at a fraction of its size (libjpeg and libwebp still decode all its data: what they cannot
 * decode fails here), every frame of an animation: for a 20-megapixel JPEG +5–17 MB, most of it
 * the file libvips maps, where encoding it again held +21 MB (+75 MB turned: rotating needs the
 * whole image in memory), took 0.15–0.3 s and made a second lossy generation of every photo (a
 * lossless WebP became a lossy one) (BENCHMARKS.md "Media: an upload's peak memory").
 */
async function keptAsIs(
  type: ImageType,
  orientation: number,
  sourcePath: string,
  outPath: string,
  maxPixels: number,
  colour: { readonly icc: Buffer | undefined; readonly kept: Buffer | undefined },
): Promise<number | undefined> {
  const profile = colour.kept;
  if (type === "webp") {
    if (orientation !== 1 || !(await writeWebpWithoutMetadata(sourcePath, outPath, profile))) {
      return undefined;
    }
  } else if (type === "jpeg") {
    let frame: JpegFrame | undefined;
    try {
      frame = await writeJpegWithoutMetadata(sourcePath, outPath, orientation, profile);
    } catch (err) {
      // Bytes that do not walk as JPEG segments to an EOI (stray bytes between segments, which
      // libjpeg skips with a warning; a file cut short, which it refuses), or whose ICC segments
      // are not the profile libvips read, are left to libvips.
      if (err instanceof NotAJpeg) return undefined;
      throw err;
    }
    if (!servableAsIs(frame)) return undefined;
  } else if (type === "avif") {
    // Not decoded: libheif decodes an AVIF whole, at ~16–25 bytes a pixel (+220 MB at 12
    // megapixels); its boxes and its AV1 data's framing and frame size are what is checked.
    if (
      orientation !== 1 ||
      !(await writeAvifWithoutMetadata(sourcePath, outPath, maxPixels, colour.icc))
    ) {
      return undefined;
    }
    return (await stat(outPath)).size;
  } else return undefined;
  await input(outPath, ANIMATED.has(type), maxPixels).resize(1).raw().toBuffer();
  return (await stat(outPath)).size;
}

/** libvips' interpretations of an RGB image: 8 bits, or 16 (an AVIF of 10 bits). */
const RGB_SPACES: ReadonlySet<string> = new Set(["srgb", "rgb16"]);

/**
 * The profile an image keeps as it came (admin.yaml `uploadMedia`): undefined when it has none,
 * or an sRGB one (it changes nothing: a JPEG's or WebP's is dropped); the profile when it
 * describes the RGB image it tags (Display P3's, as phones and photo tools write) and libvips
 * converts by (profile-use.ts), so its colours stay as they came, copies converted by it, where
 * converting it to sRGB meant encoding it again (a second lossy generation; an AVIF at 12
 * megapixels +443 MB and 5 s: BENCHMARKS.md "Media: images with a colour profile kept"); false
 * when its colours are to be converted.
 */
async function keptProfile(meta: Metadata): Promise<Buffer | undefined | false> {
  if (meta.icc === undefined || isSrgbProfile(meta.icc)) return undefined;
  if (!RGB_SPACES.has(meta.space ?? "") || !describesRgbImage(meta.icc)) return false;
  return (await libvipsConvertsBy(meta.icc)) ? meta.icc : false;
}

/** libvips' interpretations of an image that may be kept as it came: sRGB, or grey, of 8 bits. */
const KEPT_SPACES: ReadonlySet<string> = new Set(["srgb", "b-w"]);

/**
 * An AVIF of 10 bits too, which libvips reads as 16 bits a sample: kept with its `pixi` and its
 * `colr` code points (avif-properties.ts), as an 8-bit one is, where encoding it again held ~44
 * bytes a pixel and made it an 8-bit image (BENCHMARKS.md "Media: AVIFs of 10 bits kept"). Not
 * one of 12 bits: AVIF's Baseline and Advanced profiles stop at 10 (AV1's Main and High
 * profiles), and browsers need not show one.
 */
const KEPT_AVIF_SPACES: ReadonlySet<string> = new Set(["rgb16", "grey16"]);
const KEPT_AVIF_BITS = 10;

/** An upload as the library stores it: its facts and its stored file's size. */
export type Normalised = ImageFacts & { readonly bytes: number };

/** An upload `keptOrToEncode` did not keep: what `encodeAgain` needs to store it. */
export interface ToEncode {
  readonly sourcePath: string;
  readonly type: ImageType;
  readonly outPath: string;
  readonly maxPixels: number;
  /** Its EXIF orientation, 1 (upright) to 8. */
  readonly orientation: number;
  /** Its stored (not upright) size. */
  readonly width: number;
  readonly height: number;
  /** The most pixels decoding it may make: its size, or an AVIF's largest AV1 frame. */
  readonly decodedPixels: number;
}

/**
 * The image as the library stores it (admin.yaml `uploadMedia`), written to `outPath`: refused
 * past `maxPixels` before it is decoded (a decompression bomb costs its header) and decoded whole
 * (anything that only starts like an image fails here, `unsupported_type`). A JPEG, and an
 * upright WebP or a still AVIF (of 8 or 10 bits), in sRGB (untagged or tagged with an sRGB
 * profile) or in the colours of a profile that describes it (`keptProfile`, kept whole), or an
 * AVIF described by its colour code points, keeps its image data (`keptAsIs`, an AVIF
 * without being decoded; a JPEG turned by its EXIF orientation keeps that tag alone, and its
 * upright size is reported); any other image is turned upright by its EXIF orientation, every
 * metadata block dropped (sharp keeps none unless asked) with colours converted to sRGB, and
 * encoded again in its own type at a high quality (`encodeAgain`). Its two steps,
 * `keptOrToEncode` then `encodeAgain`, are what the media pool runs apart: the second may be
 * heavy (image-memory.ts).
 */
export async function normaliseImage(
  sourcePath: string,
  type: ImageType,
  outPath: string,
  maxPixels: number,
): Promise<Normalised> {
  const first = await keptOrToEncode(sourcePath, type, outPath, maxPixels);
  return "bytes" in first ? first : encodeAgain(first);
}

/**
 * `normaliseImage`'s first step: the upload checked and, when it is one that keeps its image
 * data, stored; otherwise what `encodeAgain` is to do.
 */
export async function keptOrToEncode(
  sourcePath: string,
  type: ImageType,
  outPath: string,
  maxPixels: number,
): Promise<Normalised | ToEncode> {
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
    const spaceKept =
      KEPT_SPACES.has(meta.space ?? "") ||
      (type === "avif" &&
        KEPT_AVIF_SPACES.has(meta.space ?? "") &&
        (meta.bitsPerSample ?? Number.POSITIVE_INFINITY) <= KEPT_AVIF_BITS);
    // Its profile is read (lcms converting a pixel by it) only when the image may be kept.
    const profile = spaceKept ? await keptProfile(meta) : false;
    if (profile !== false) {
      const kept = await keptAsIs(type, orientation, sourcePath, outPath, maxPixels, {
        icc: meta.icc,
        kept: profile,
      });
      // Orientations 5–8 turn the image a quarter: its upright width is its stored height.
      if (kept !== undefined) {
        return orientation >= 5
          ? { type, width: height, height: width, bytes: kept }
          : { type, width, height, bytes: kept };
      }
    }
    let decodedPixels = width * height;
    if (type === "avif") {
      // libvips' pixel limit reads the `ispe` box, which may claim less than the AV1 data or a
      // grid holds: the sequence headers and grid descriptors bound what libheif would decode
      // (a kept AVIF's were read above).
      const decoding = await avifDecoding(sourcePath);
      if (decoding === undefined) throw new DomainError("unsupported_type", NOT_AN_IMAGE);
      if (pastLimit(decoding, maxPixels)) throw new AvifTooLarge();
      decodedPixels = Math.max(decodedPixels, decoding.frame, decoding.canvas);
    }
    return { sourcePath, type, outPath, maxPixels, orientation, width, height, decodedPixels };
  } catch (err) {
    throw imageErrorOf(err, maxPixels);
  }
}

/** `normaliseImage`'s second step: the upload `keptOrToEncode` did not keep, encoded again. */
export async function encodeAgain(upload: ToEncode): Promise<Normalised> {
  const { sourcePath, type, outPath, maxPixels, orientation } = upload;
  try {
    // Turned only when its EXIF says so: rotating needs the whole image in memory, while an
    // upright one streams through libvips a strip at a time (a 20-megapixel JPEG: +75 MB turned,
    // +21 MB upright; a progressive JPEG holds its coefficients to decode: +78 MB).
    const decoded = input(sourcePath, ANIMATED.has(type), maxPixels);
    const image = orientation > 1 ? decoded.rotate() : decoded;
    const lossless = type === "png" || type === "gif";
    const info = await encoded(image, type, lossless ? undefined : 90, {
      pixels: upload.width * upload.height,
    }).toFile(outPath);
    const frames =
      info.pageHeight === undefined ? 1 : Math.max(1, Math.round(info.height / info.pageHeight));
    return { type, width: info.width, height: info.height / frames, bytes: info.size };
  } catch (err) {
    throw imageErrorOf(err, maxPixels);
  }
}

/**
 * Whether libvips converts colours by an ICC profile: what a kept image's copies are made by
 * (image-normalise.ts `keptProfile`). icc-profile.ts reads a profile's header and tags; lcms
 * reads their contents when it builds a transform, and when it cannot (a tag of an unknown
 * type, a curve cut short, a table without the intent asked for), sharp warns and leaves the
 * samples as they are, so the copies of an image kept with that profile would look otherwise
 * than a browser that reads it shows the image. Asked of a one-pixel JPEG carrying the profile
 * (~4 ms), not of the upload, which an AVIF's decoder would hold whole (~16–25 bytes a pixel).
 */
import sharp from "sharp";

/** A profile's part of a JPEG's APP2 segment at most (ICC.1:2022 Annex B.4). */
const SEGMENT_BYTES = 65_519;

let pixel: Promise<Buffer> | undefined;

/** One grey pixel as a JPEG, made once. */
const onePixel = (): Promise<Buffer> =>
  (pixel ??= sharp({ create: { width: 1, height: 1, channels: 3, background: "#808080" } })
    .jpeg()
    .toBuffer());

/** `profile` as a JPEG's APP2 ICC segments. */
function iccSegments(profile: Buffer): Buffer[] {
  // Past 255 segments their numbers wrap, and libvips reads another profile.
  const count = Math.ceil(profile.length / SEGMENT_BYTES);
  const segments: Buffer[] = [];
  for (let n = 1; n <= count; n++) {
    const part = profile.subarray((n - 1) * SEGMENT_BYTES, n * SEGMENT_BYTES);
    const head = Buffer.from([0xff, 0xe2, 0, 0]);
    head.writeUInt16BE(2 + 14 + part.length, 2);
    segments.push(
      head,
      Buffer.from("ICC_PROFILE\0", "latin1"),
      Buffer.from([n & 255, count & 255]),
      part,
    );
  }
  return segments;
}

/**
 * Whether libvips reads `profile` whole (so it is not empty, nor longer than 255 segments hold)
 * and converts by it without a warning. sharp's warnings are read from one queue after each of its
 * jobs: a warning of a job beside this one may be taken as this one's (the image is then
 * converted, as before), or this one's as another's (the image then keeps a profile its copies are
 * not converted by).
 */
export async function libvipsConvertsBy(profile: Buffer): Promise<boolean> {
  const jpeg = await onePixel();
  const tagged = Buffer.concat([jpeg.subarray(0, 2), ...iccSegments(profile), jpeg.subarray(2)]);
  const { icc } = await sharp(tagged).metadata();
  if (icc === undefined || !icc.equals(profile)) return false;
  let warned = false;
  const image = sharp(tagged).on("warning", () => {
    warned = true;
  });
  await image.raw().toBuffer();
  return !warned;
}

/**
 * Whether an embedded ICC profile is sRGB (ICC.1:2022 §7: a 128-byte header, a tag table, tags):
 * an image whose profile is sRGB looks the same without it (browsers and libvips take untagged
 * images as sRGB), so an upright JPEG with one can be kept as it came, the profile dropped with
 * the rest of its metadata. Told by two things at once: a description naming sRGB (the `desc`
 * tag: ICC v2 `desc` or v4 `mluc` text), and red, green and blue colorants (`rXYZ`, `gXYZ`,
 * `bXYZ`) within 0.005 of sRGB's, adapted to the profile connection space's D50. A name alone
 * could be wrong; colorants alone would take a profile of sRGB's primaries with another tone
 * curve. Anything unreadable is "not sRGB": the image is then converted, as before.
 */

/** sRGB's primaries in the PCS (D50), as every sRGB profile's colorant tags hold them. */
const SRGB_COLORANTS: Readonly<Record<string, readonly [number, number, number]>> = {
  rXYZ: [0.4361, 0.2225, 0.0139],
  gXYZ: [0.3851, 0.7169, 0.0971],
  bXYZ: [0.1431, 0.0606, 0.7141],
};
const TOLERANCE = 0.005;

interface Tag {
  readonly offset: number;
  readonly size: number;
}

function tagsOf(icc: Buffer): Map<string, Tag> {
  const tags = new Map<string, Tag>();
  // A whole profile: its signature, and the size its header gives is its length.
  if (icc.length < 132 || icc.toString("latin1", 36, 40) !== "acsp") return tags;
  if (icc.readUInt32BE(0) !== icc.length) return tags;
  const count = icc.readUInt32BE(128);
  for (let i = 0; i < count && 132 + (i + 1) * 12 <= icc.length; i++) {
    const at = 132 + i * 12;
    const offset = icc.readUInt32BE(at + 4);
    const size = icc.readUInt32BE(at + 8);
    if (offset + size <= icc.length) tags.set(icc.toString("latin1", at, at + 4), { offset, size });
  }
  return tags;
}

/** The `desc` tag's text (its first record, for `mluc`); empty when unreadable. */
function descriptionOf(icc: Buffer, tag: Tag | undefined): string {
  if (tag === undefined || tag.size < 12) return "";
  const end = tag.offset + tag.size;
  const type = icc.toString("latin1", tag.offset, tag.offset + 4);
  if (type === "desc") {
    const length = icc.readUInt32BE(tag.offset + 8);
    const from = tag.offset + 12;
    return from + length <= end ? icc.toString("latin1", from, from + length) : "";
  }
  if (type === "mluc" && tag.size >= 28 && icc.readUInt32BE(tag.offset + 8) >= 1) {
    const length = icc.readUInt32BE(tag.offset + 20);
    const from = tag.offset + icc.readUInt32BE(tag.offset + 24);
    if (from + length > end) return "";
    return Buffer.from(icc.subarray(from, from + (length & ~1)))
      .swap16()
      .toString("utf16le");
  }
  return "";
}

function colorantIsSrgb(icc: Buffer, tag: Tag | undefined, want: readonly number[]): boolean {
  if (tag === undefined || tag.size < 20) return false;
  if (icc.toString("latin1", tag.offset, tag.offset + 4) !== "XYZ ") return false;
  return want.every(
    (value, i) => Math.abs(icc.readInt32BE(tag.offset + 8 + i * 4) / 65536 - value) <= TOLERANCE,
  );
}

export function isSrgbProfile(icc: Buffer): boolean {
  const tags = tagsOf(icc);
  if (!descriptionOf(icc, tags.get("desc")).includes("sRGB")) return false;
  return Object.entries(SRGB_COLORANTS).every(([name, want]) =>
    colorantIsSrgb(icc, tags.get(name), want),
  );
}

/** Device classes an image is tagged with: a display, an input device, a colour space. */
const IMAGE_CLASSES: ReadonlySet<string> = new Set(["mntr", "scnr", "spac"]);

/**
 * Whether a profile may go with an RGB image it describes, kept as it came (an AVIF's, image-
 * normalise.ts): a whole profile (ICC.1:2022 §7.2: its header's size is its length, its
 * signature `acsp`) of version 2 or 4 (browsers read no other), of a class images are tagged
 * with, turning RGB to XYZ or Lab, and whose tags lie within it after their table. RGB alone:
 * libvips reads every AVIF, a grey one (4:0:0) too, as RGB. Anything else is converted to sRGB,
 * as before: a profile that libvips or a browser then could not read would leave the kept image
 * looking as if it had none.
 */
export function describesRgbImage(icc: Buffer): boolean {
  if (icc.length < 132 || icc.readUInt32BE(0) !== icc.length) return false;
  if (icc.toString("latin1", 36, 40) !== "acsp") return false;
  if (icc[8] !== 2 && icc[8] !== 4) return false;
  if (!IMAGE_CLASSES.has(icc.toString("latin1", 12, 16))) return false;
  if (icc.toString("latin1", 16, 20) !== "RGB ") return false;
  if (!["XYZ ", "Lab "].includes(icc.toString("latin1", 20, 24))) return false;
  const count = icc.readUInt32BE(128);
  const tagsFrom = 132 + count * 12;
  if (tagsFrom > icc.length) return false;
  for (let at = 132; at < tagsFrom; at += 12) {
    const offset = icc.readUInt32BE(at + 4);
    if (offset < tagsFrom || offset + icc.readUInt32BE(at + 8) > icc.length) return false;
  }
  return true;
}

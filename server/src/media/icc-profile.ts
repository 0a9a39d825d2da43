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
 * The tags a kept profile may hold (ICC.1:2022 §9.2): those that say how its RGB turns to
 * colours, with its description, copyright and viewing conditions. Not a device's make and
 * model (`dmnd`, `dmdd`: dropped from EXIF too), its calibration (`calt`, `targ`, `vcgt`), a
 * dictionary (`meta`), nor a vendor's own tags: a profile with any is converted.
 */
const KEPT_TAGS: ReadonlySet<string> = new Set(
  [
    ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC", "wtpt", "bkpt", "chad", "lumi", "chrm"],
    ["A2B0", "A2B1", "A2B2", "B2A0", "B2A1", "B2A2", "gamt", "rig0", "rig2", "cicp"],
    ["desc", "cprt", "vued", "view", "meas", "tech"],
  ].flat(),
);
/** Colours told by three colorants and tone curves, or by a table (A2B0). */
const MATRIX_TAGS = ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"];
/**
 * At most this many bytes: a profile of colorants and curves holds a few hundred (Display P3's,
 * 480 to 560); one of tables may hold a few hundred thousand, and is converted.
 */
const MAX_KEPT_BYTES = 64 * 1024;

/**
 * Whether a profile may go with an RGB image it describes, kept as it came (image-normalise.ts
 * `keptProfile`): a whole profile (ICC.1:2022 §7.2: its header's size is its length, its
 * signature `acsp`) of at most 64 KB, of version 2 or 4 (browsers read no other), of a class
 * images are tagged with, turning RGB to XYZ or Lab by colorants and curves or by a table, whose
 * tags are each one of `KEPT_TAGS`, once, within it after their table, the last ending it. RGB
 * alone: libvips reads every AVIF, a grey one (4:0:0) too, as RGB, and a grey JPEG is not one.
 * Anything else is converted to sRGB, as before; whether lcms can use it is told apart
 * (profile-use.ts).
 */
export function describesRgbImage(icc: Buffer): boolean {
  if (icc.length > MAX_KEPT_BYTES) return false;
  if (icc.length < 132 || icc.readUInt32BE(0) !== icc.length) return false;
  if (icc.toString("latin1", 36, 40) !== "acsp") return false;
  if (icc[8] !== 2 && icc[8] !== 4) return false;
  if (!IMAGE_CLASSES.has(icc.toString("latin1", 12, 16))) return false;
  if (icc.toString("latin1", 16, 20) !== "RGB ") return false;
  if (!["XYZ ", "Lab "].includes(icc.toString("latin1", 20, 24))) return false;
  const count = icc.readUInt32BE(128);
  const tagsFrom = 132 + count * 12;
  if (tagsFrom > icc.length) return false;
  const names = new Set<string>();
  let tagsEnd = tagsFrom;
  for (let at = 132; at < tagsFrom; at += 12) {
    const name = icc.toString("latin1", at, at + 4);
    if (!KEPT_TAGS.has(name) || names.has(name)) return false;
    names.add(name);
    const offset = icc.readUInt32BE(at + 4);
    const end = offset + icc.readUInt32BE(at + 8);
    if (offset < tagsFrom || end > icc.length) return false;
    tagsEnd = Math.max(tagsEnd, end);
  }
  // Nothing after the last tag but the padding to a multiple of 4 bytes (§7.1.2).
  if (icc.length - tagsEnd > 3) return false;
  return MATRIX_TAGS.every((name) => names.has(name)) || names.has("A2B0");
}

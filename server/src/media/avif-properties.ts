/**
 * The item properties an AVIF image keeps (HEIF ISO/IEC 23008-12 §6.5, ISO/IEC 14496-12 §12.1;
 * AVIF https://aomediacodec.github.io/av1-avif/ §2.3, §4), each written back with its defined
 * fields only: bytes a box holds past them are not kept (a place to hide anything), and
 * `av1C`'s optional configuration OBUs are not either (a decoder reads them before the item's
 * data, so a sequence header there would decode a frame other than the one the data's own
 * header allows: av1-framing.ts). Any other property is not kept.
 */
import { box } from "./isobmff.js";

/** The length of a property's defined fields, from its payload; undefined when it is short. */
const DEFINED: Readonly<Record<string, (body: Buffer) => number | undefined>> = {
  // AV1CodecConfigurationRecord without configOBUs.
  av1C: () => 4,
  // Full boxes: version and flags, then their fields.
  ispe: () => 4 + 8,
  pixi: (body) => (body[4] === undefined ? undefined : 4 + 1 + body[4]),
  auxC: (body) => {
    // aux_type, a null-terminated URN; aux_subtype (anything) is not kept.
    const end = body.indexOf(0, 4);
    return end < 0 ? undefined : end + 1;
  },
  a1op: () => 1,
  irot: () => 1,
  imir: () => 1,
  lsel: () => 2,
  pasp: () => 8,
  clap: () => 32,
  clli: () => 4,
  mdcv: () => 24,
  // large_size flag: three layer sizes of 2 or 4 bytes.
  a1lx: (body) => (body[0] === undefined ? undefined : 1 + ((body[0] & 1) === 1 ? 12 : 6)),
  colr: (body) => {
    const type = body.toString("latin1", 0, 4);
    if (type === "nclx") return 4 + 7;
    // An ICC profile, which the caller has found to describe the image (icc-profile.ts), kept
    // whole.
    if (type === "prof" || type === "rICC") return body.length;
    return undefined;
  },
};

/** Whether a property of this type may be kept. */
export const isKeptProperty = (type: string): boolean => Object.hasOwn(DEFINED, type);

/**
 * The property written back with its defined fields alone; undefined when its payload is
 * shorter than they are, or it is a `colr` of a kind not known here.
 */
export function keptProperty(type: string, body: Buffer): Buffer | undefined {
  const length = DEFINED[type]?.(body);
  if (length === undefined || length > body.length) return undefined;
  return box(type, body.subarray(0, length));
}

/**
 * The framing of an AV1 image item's data (AV1 bitstream specification
 * https://aomediacodec.github.io/av1-spec/ §5.3 OBUs, §5.5 the sequence header), read without
 * decoding a pixel: the data must be whole OBUs, each with a known type and a size that ends
 * inside the item, holding one sequence header and, after it, a frame. The sequence header gives
 * the largest frame the data may decode to, which is what a pixel limit must bound: an item's
 * `ispe` box could claim less. Metadata and padding OBUs are left out of what is kept.
 */

/** Reads `length` bytes at `at` of the item's data (fewer only at its end). */
export type ItemRead = (at: number, length: number) => Promise<Buffer>;

const SEQUENCE_HEADER = 1;
const METADATA = 5;
const PADDING = 15;
/** Frame header, tile group, frame, redundant frame header. */
const PICTURE: ReadonlySet<number> = new Set([3, 4, 6, 7]);
/** OBU types an image item may hold: temporal delimiter, the picture's, metadata, padding. */
const KNOWN_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 7, 15]);
/** A still image has a few OBUs (a tile group each for many tiles): more is not one. */
const MAX_OBUS = 4096;
/** A sequence header has at most a few dozen bytes; more is not one. */
const MAX_SEQUENCE_HEADER = 512;

class Bits {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}
  read(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.at >> 3];
      if (byte === undefined) throw new RangeError("sequence header cut short");
      value = value * 2 + ((byte >> (7 - (this.at & 7))) & 1);
      this.at++;
    }
    return value;
  }
  /** uvlc(), §4.10.3. */
  uvlc(): number {
    let zeros = 0;
    while (this.read(1) === 0) zeros++;
    return zeros >= 32 ? 2 ** 32 - 1 : this.read(zeros) + 2 ** zeros - 1;
  }
}

/** max_frame_width_minus_1 + 1 and its height from a sequence header OBU's payload (§5.5.1). */
export function largestFrame(payload: Buffer): { width: number; height: number } {
  const bits = new Bits(payload);
  bits.read(3); // seq_profile
  bits.read(1); // still_picture
  if (bits.read(1) === 1) {
    bits.read(5); // reduced_still_picture_header: seq_level_idx[0] only
  } else {
    let decoderModel = false;
    let bufferDelayBits = 0;
    if (bits.read(1) === 1) {
      // timing_info()
      bits.read(32);
      bits.read(32);
      if (bits.read(1) === 1) bits.uvlc();
      decoderModel = bits.read(1) === 1;
      if (decoderModel) {
        bufferDelayBits = bits.read(5) + 1;
        bits.read(32);
        bits.read(5);
        bits.read(5);
      }
    }
    const initialDisplayDelay = bits.read(1) === 1;
    const operatingPoints = bits.read(5) + 1;
    for (let i = 0; i < operatingPoints; i++) {
      bits.read(12); // operating_point_idc
      if (bits.read(5) > 7) bits.read(1); // seq_level_idx, seq_tier
      if (decoderModel && bits.read(1) === 1) {
        bits.read(bufferDelayBits);
        bits.read(bufferDelayBits);
        bits.read(1);
      }
      if (initialDisplayDelay && bits.read(1) === 1) bits.read(4);
    }
  }
  const widthBits = bits.read(4) + 1;
  const heightBits = bits.read(4) + 1;
  return { width: bits.read(widthBits) + 1, height: bits.read(heightBits) + 1 };
}

/** leb128() (§4.10.5) at the start of `bytes`: its value and length, or undefined. */
function leb128(bytes: Buffer): { value: number; length: number } | undefined {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[i];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return { value, length: i + 1 };
  }
  return undefined;
}

/** Where, in an item's data, the OBUs kept lie. */
export interface Span {
  readonly at: number;
  readonly length: number;
}

/**
 * The largest frame the AV1 data of `length` bytes may decode to, and the spans of it to keep
 * (every OBU but metadata and padding, which may hold anything); undefined when it is not at
 * most MAX_OBUS whole OBUs of known types holding one sequence header and, after it, a frame
 * (or a frame header).
 */
export async function av1Image(
  read: ItemRead,
  length: number,
): Promise<{ width: number; height: number; kept: Span[] } | undefined> {
  let largest: { width: number; height: number } | undefined;
  let framed = false;
  const kept: Span[] = [];
  let count = 0;
  for (let at = 0; at < length; ) {
    if (++count > MAX_OBUS) return undefined;
    const head = await read(at, Math.min(10, length - at));
    const header = head[0];
    // forbidden bit and reserved bit zero; §5.3.2
    if (header === undefined || (header & 0x81) !== 0) return undefined;
    const type = (header >> 3) & 0x0f;
    const extension = (header & 0x04) !== 0;
    const sized = (header & 0x02) !== 0;
    if (!KNOWN_TYPES.has(type)) return undefined;
    const start = 1 + (extension ? 1 : 0);
    let payload: number;
    let headerLength = start;
    if (sized) {
      const size = leb128(head.subarray(start));
      if (size === undefined) return undefined;
      payload = size.value;
      headerLength += size.length;
    } else {
      // Without a size, an OBU runs to the end of the data (AV1-ISOBMFF §2.4: the last one only).
      payload = length - at - start;
    }
    const end = at + headerLength + payload;
    if (end > length) return undefined;
    if (type === SEQUENCE_HEADER) {
      if (largest !== undefined || payload > MAX_SEQUENCE_HEADER) return undefined;
      try {
        largest = largestFrame(await read(at + headerLength, payload));
      } catch {
        return undefined;
      }
    }
    if (PICTURE.has(type)) {
      // A frame before the sequence header would be decoded with another's (§7.5).
      if (largest === undefined) return undefined;
      framed = true;
    }
    if (type !== METADATA && type !== PADDING) {
      const last = kept.at(-1);
      if (last !== undefined && last.at + last.length === at) {
        kept[kept.length - 1] = { at: last.at, length: end - last.at };
      } else kept.push({ at, length: end - at });
    }
    at = end;
  }
  return framed && largest !== undefined ? { ...largest, kept } : undefined;
}

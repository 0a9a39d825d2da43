/**
 * The framing of an AV1 image item's data (AV1 bitstream specification
 * https://aomediacodec.github.io/av1-spec/ §5.3 OBUs, §5.5 the sequence header), read without
 * decoding a pixel: the data must be whole OBUs, each with a known type and a size that ends
 * inside the item, holding one sequence header and a frame. The sequence header gives the
 * largest frame the data may decode to, which is what a pixel limit must bound: an item's `ispe`
 * box could claim less.
 */

/** Reads `length` bytes at `at` of the item's data (fewer only at its end). */
export type ItemRead = (at: number, length: number) => Promise<Buffer>;

const SEQUENCE_HEADER = 1;
const FRAME_HEADER = 3;
const FRAME = 6;
/** OBU types an image item may hold: temporal delimiter, frame and tile parts, metadata, padding. */
const KNOWN_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 7, 8, 15]);
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

/**
 * The largest frame the AV1 data of `length` bytes may decode to, or undefined when it is not
 * whole OBUs of known types holding one sequence header and a frame (or a frame header).
 */
export async function av1LargestFrame(
  read: ItemRead,
  length: number,
): Promise<{ width: number; height: number } | undefined> {
  let largest: { width: number; height: number } | undefined;
  let framed = false;
  for (let at = 0; at < length; ) {
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
    if (type === FRAME || type === FRAME_HEADER) framed = true;
    at = end;
  }
  return framed ? largest : undefined;
}

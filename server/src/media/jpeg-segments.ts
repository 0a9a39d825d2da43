/**
 * A JPEG without its metadata, its compressed image data byte for byte as it was: the segment
 * walk of ITU-T T.81 (the JPEG standard) Annex B. Each marker segment outside the entropy-coded
 * data is kept or dropped by its marker; what follows an SOS header is copied up to the next
 * marker that is not part of it (`FF 00` is a stuffed data byte, `FF D0`–`FF D7` restart
 * markers); everything after EOI is dropped, so a file appended to an image (a ZIP, a second
 * image of an MPF or Ultra HDR JPEG) is not stored with it.
 *
 * Kept: the frame and scan headers and tables (SOFn, DHT, DQT, DAC, DRI, SOS, DNL, EXP), a
 * JFIF APP0 without a thumbnail, the Adobe APP14 (its transform flag tells RGB from YCbCr) and,
 * when asked, the APP2 segments of an ICC profile (ICC.1:2022 Annex B.4), which must then hold
 * that profile exactly. Dropped: every other APPn (EXIF with GPS and its thumbnail, XMP, MPF,
 * Photoshop/IPTC, JFXX thumbnails, …) and COM. Streamed: a segment is held whole (≤ 64 KB),
 * image data is not.
 * A photo turned by its EXIF orientation gets an EXIF segment of our own that says only that
 * (`orientationSegment`), where EXIF goes: after SOI and a JFIF APP0.
 */
import { open } from "node:fs/promises";

/** What the walk saw of the frame: how it is coded (`0xC0` baseline … `0xCF`) and its precision. */
export interface JpegFrame {
  readonly sof: number;
  readonly precision: number;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;
const APP15 = 0xef;
const COM = 0xfe;

const startsWith = (segment: Buffer, text: string): boolean =>
  segment.length >= 4 + text.length && segment.toString("latin1", 4, 4 + text.length) === text;

/** SOF0–SOF15 without DHT (C4), JPG (C8) and DAC (CC). */
const isFrameHeader = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function kept(marker: number, segment: Buffer): boolean {
  if (marker === APP0) {
    // JFIF's thumbnail size is its payload's bytes 12 and 13 (after "JFIF\0", version, units
    // and densities): a thumbnail may show what a crop removed.
    return startsWith(segment, "JFIF\0") && segment[4 + 12] === 0 && segment[4 + 13] === 0;
  }
  if (marker === APP14) return startsWith(segment, "Adobe");
  return !((marker > APP0 && marker <= APP15) || marker === COM);
}

export class NotAJpeg extends Error {}

/**
 * A JPEG's ICC profile, checked as its APP2 segments go by: `ICC_PROFILE\0`, a sequence number
 * from 1, their count (the same in each), then the profile's next bytes. Kept when they are
 * `profile` exactly, in order, before the first scan (what libvips read, so what copies are
 * converted by; browsers read the segments so too); any other segment that starts as one
 * (libvips takes `ICC_PROFILE` with any byte after it), a repeat, a gap, a count that differs,
 * one after the profile's end or after a scan began, throws, and the JPEG is encoded again.
 */
class IccSegments {
  private at = 0;
  private next = 1;
  private count: number | undefined;
  constructor(private readonly profile: Buffer) {}

  /**
   * Whether `segment` (an APP2, from its marker; `scanned` when a scan began before it) is the
   * profile's next part; throws if it is an ICC segment that is not.
   */
  take(segment: Buffer, scanned: boolean): boolean {
    if (!startsWith(segment, "ICC_PROFILE")) return false;
    if (segment[4 + 11] !== 0 || scanned) throw new NotAJpeg("ICC segments other than the profile");
    const [sequence, count] = [segment[4 + 12], segment[4 + 13]];
    const data = segment.subarray(4 + 14);
    this.count ??= count;
    if (
      sequence !== this.next ||
      count !== this.count ||
      data.length === 0 ||
      !this.profile.subarray(this.at, this.at + data.length).equals(data)
    ) {
      throw new NotAJpeg("ICC segments other than the profile");
    }
    this.next += 1;
    this.at += data.length;
    // The profile's last part is the last segment the count gives.
    if (this.at === this.profile.length && count !== sequence) {
      throw new NotAJpeg("ICC segments other than the profile");
    }
    return true;
  }

  get whole(): boolean {
    return this.at === this.profile.length;
  }
}

/**
 * An APP1 EXIF segment holding one tag, Orientation (0x0112, a SHORT), `orientation` 2–8: a TIFF
 * header (big-endian), an IFD0 of that one entry and no next IFD (the EXIF standard, CIPA DC-008).
 * Browsers turn a JPEG by it when they show it (CSS `image-orientation: from-image`, their
 * default), as does libvips when asked to (`autoOrient`).
 */
export function orientationSegment(orientation: number): Buffer {
  if (!Number.isInteger(orientation) || orientation < 2 || orientation > 8) {
    throw new RangeError(`not an EXIF orientation of a turned image: ${orientation}`);
  }
  const tiff = Buffer.alloc(26);
  tiff.write("MM", 0, "latin1"); // big-endian
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after this header
  tiff.writeUInt16BE(1, 8); // one entry:
  tiff.writeUInt16BE(0x0112, 10); // Orientation,
  tiff.writeUInt16BE(3, 12); // a SHORT,
  tiff.writeUInt32BE(1, 14); // one of it,
  tiff.writeUInt16BE(orientation, 18); // its value, left-justified in the 4 bytes; then no next IFD
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/**
 * The walk's state between two reads: `step` takes the bytes read so far that it has not
 * consumed, copies what is kept into `out` and says how far it got; a segment cut by the read's
 * end is consumed by a later step, once whole.
 */
class JpegWalk {
  started = false;
  inScan = false;
  /** An SOS has been met: restart markers belong to its data. */
  scanned = false;
  ended = false;
  frame: JpegFrame | undefined;

  /**
   * @param pending a segment to write before the first kept one that is not APP0.
   * @param icc the ICC segments to keep, if any.
   */
  constructor(
    private pending: Buffer | undefined,
    private readonly icc: IccSegments | undefined,
  ) {}

  step(buf: Buffer, out: Buffer): { readonly consumed: number; readonly written: number } {
    const end = buf.length;
    let at = 0;
    let written = 0;
    const emit = (from: number, to: number) => {
      written += buf.copy(out, written, from, to);
    };
    if (!this.started) {
      if (end < 2) return { consumed: 0, written };
      if (buf[0] !== 0xff || buf[1] !== SOI) throw new NotAJpeg("no SOI");
      emit(0, 2);
      at = 2;
      this.started = true;
    }
    for (;;) {
      if (this.inScan) {
        // Entropy-coded data: up to an `FF` that is neither stuffing (`FF 00`) nor a restart.
        let ff = buf.indexOf(0xff, at);
        while (ff >= 0 && ff + 1 < end) {
          const next = buf[ff + 1] ?? 0;
          if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) break;
          ff = buf.indexOf(0xff, ff + 2);
        }
        if (ff < 0 || ff + 1 >= end) {
          const to = ff < 0 ? end : ff;
          emit(at, to);
          return { consumed: to, written };
        }
        emit(at, ff);
        at = ff;
        this.inScan = false;
      }
      // A marker: `FF`, any fill `FF`s, its code, then (but for standalone markers) a length.
      if (end - at < 2) return { consumed: at, written };
      if (buf[at] !== 0xff) throw new NotAJpeg("bytes where a marker belongs");
      const marker = buf[at + 1] ?? 0;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker === EOI) {
        if (this.icc !== undefined && !this.icc.whole) throw new NotAJpeg("ICC profile cut short");
        emit(at, at + 2);
        this.ended = true;
        return { consumed: at + 2, written };
      }
      if (marker === SOI || marker === 0x00) throw new NotAJpeg("misplaced marker");
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        // A restart marker met here came after fill bytes inside a scan: the scan goes on.
        emit(at, at + 2);
        at += 2;
        this.inScan = this.scanned;
        continue;
      }
      if (end - at < 4) return { consumed: at, written };
      const length = ((buf[at + 2] ?? 0) << 8) | (buf[at + 3] ?? 0);
      if (length < 2) throw new NotAJpeg("segment length");
      if (end - at < 2 + length) return { consumed: at, written };
      const segment = buf.subarray(at, at + 2 + length);
      if (isFrameHeader(marker)) this.frame ??= { sof: marker, precision: segment[4] ?? 0 };
      if (
        kept(marker, segment) ||
        (marker === APP2 && this.icc?.take(segment, this.scanned) === true)
      ) {
        if (this.pending !== undefined && marker !== APP0) {
          written += this.pending.copy(out, written);
          this.pending = undefined;
        }
        emit(at, at + 2 + length);
      }
      at += 2 + length;
      if (marker === SOS) {
        this.inScan = true;
        this.scanned = true;
      }
    }
  }
}

/** Bytes read at a time; the buffer also holds a cut segment (≤ 64 KB + its marker) carried over. */
const READ_BYTES = 256 * 1024;
const CARRY_BYTES = 64 * 1024 + 4;
/** Room in the output for the orientation segment beside what a step copies. */
const ADDED_BYTES = 64;

/**
 * Writes the JPEG at `source` to `dest` without its metadata, reading and writing through two
 * buffers of its own (an upload's bytes are not allocated again while the garbage of receiving
 * them waits for a collection); returns the frame header it met. An `orientation` of 2–8 (the
 * EXIF orientation the upload had) is written back alone (`orientationSegment`); 1 writes none.
 * A `profile` keeps its ICC segments (`IccSegments`). Throws `NotAJpeg` for bytes that do not
 * walk as a JPEG to its EOI, or whose ICC segments are not `profile` exactly.
 */
export async function writeJpegWithoutMetadata(
  source: string,
  dest: string,
  orientation = 1,
  profile?: Buffer,
): Promise<JpegFrame | undefined> {
  const walk = new JpegWalk(
    orientation === 1 ? undefined : orientationSegment(orientation),
    profile === undefined ? undefined : new IccSegments(profile),
  );
  const buf = Buffer.allocUnsafe(CARRY_BYTES + READ_BYTES);
  const out = Buffer.allocUnsafe(CARRY_BYTES + READ_BYTES + ADDED_BYTES);
  const input = await open(source, "r");
  try {
    const output = await open(dest, "w");
    try {
      let held = 0;
      while (!walk.ended) {
        const { bytesRead } = await input.read(buf, held, READ_BYTES);
        if (bytesRead === 0) throw new NotAJpeg("ends before EOI");
        const end = held + bytesRead;
        const { consumed, written } = walk.step(buf.subarray(0, end), out);
        if (written > 0) await output.write(out, 0, written);
        buf.copyWithin(0, consumed, end);
        held = end - consumed;
        if (held > CARRY_BYTES) throw new NotAJpeg("segment longer than its length allows");
      }
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
  return walk.frame;
}

/** Frames a browser decodes and whose data is kept as it is: 8-bit Huffman, sequential or progressive. */
export const servableAsIs = (frame: JpegFrame | undefined): boolean =>
  frame !== undefined &&
  frame.precision === 8 &&
  (frame.sof === 0xc0 || frame.sof === 0xc1 || frame.sof === 0xc2);

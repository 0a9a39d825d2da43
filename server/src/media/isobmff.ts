/**
 * Boxes of the ISO base media file format (ISO/IEC 14496-12 §4.2), the container of AVIF: a
 * 32-bit size (1: a 64-bit one follows the type; 0: to the end, for the file's last box only) and
 * a four-character type. Reading past what a box holds throws a RangeError.
 */
import type { FileHandle } from "node:fs/promises";

export interface Box {
  readonly type: string;
  /** The payload, after the header. */
  readonly body: Buffer;
}

/** Where a top-level box lies in a file. */
export interface BoxAt {
  readonly type: string;
  readonly start: number;
  readonly size: number;
  readonly headerSize: number;
}

/** An unsigned big-endian integer of 0 to 8 bytes (up to 2^53). */
export function uint(bytes: Buffer, at: number, length: number): number {
  if (at + length > bytes.length) throw new RangeError("box cut short");
  let value = 0;
  for (let i = 0; i < length; i++) value = value * 256 + (bytes[at + i] ?? 0);
  if (value > Number.MAX_SAFE_INTEGER) throw new RangeError("box size out of range");
  return value;
}

function header(bytes: Buffer, at: number, end: number): { size: number; headerSize: number } {
  let size = uint(bytes, at, 4);
  let headerSize = 8;
  if (size === 1) {
    size = uint(bytes, at + 8, 8);
    headerSize = 16;
  } else if (size === 0) {
    size = end - at;
  }
  if (size < headerSize || at + size > end) throw new RangeError("box out of bounds");
  return { size, headerSize };
}

/** The boxes that make up `bytes` whole. */
export function boxes(bytes: Buffer): Box[] {
  const found: Box[] = [];
  for (let at = 0; at < bytes.length; ) {
    const { size, headerSize } = header(bytes, at, bytes.length);
    found.push({
      type: bytes.toString("latin1", at + 4, at + 8),
      body: bytes.subarray(at + headerSize, at + size),
    });
    at += size;
  }
  return found;
}

/** A full box's version, flags and what follows them. */
export function fullBox(box: Pick<Box, "body">): { version: number; flags: number; body: Buffer } {
  return { version: uint(box.body, 0, 1), flags: uint(box.body, 1, 3), body: box.body.subarray(4) };
}

/**
 * The top-level boxes of a file of `size` bytes, up to the first that does not fit in it (what
 * follows is not the file's: bytes appended to it, or the file was cut short, which the boxes
 * that point into the part missing tell) and at most `limit` of them (a file of millions of
 * empty boxes costs no more than one of a few).
 */
export async function readBoxesOf(file: FileHandle, size: number, limit: number): Promise<BoxAt[]> {
  const found: BoxAt[] = [];
  const head = Buffer.alloc(16);
  for (let at = 0; at < size && found.length < limit; ) {
    const { bytesRead } = await file.read(head, 0, 16, at);
    try {
      const { size: boxSize, headerSize } = header(head.subarray(0, bytesRead), 0, size - at);
      found.push({ type: head.toString("latin1", 4, 8), start: at, size: boxSize, headerSize });
      at += boxSize;
    } catch (err) {
      if (err instanceof RangeError) break;
      throw err;
    }
  }
  return found;
}

/** A box of `type` holding `parts`. */
export const box = (type: string, ...parts: Buffer[]): Buffer => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, ...parts]);
};
/** A full box: version and flags, then `parts`. */
export const full = (type: string, version: number, flags: number, ...parts: Buffer[]): Buffer =>
  box(type, Buffer.from([version, flags >> 16, (flags >> 8) & 255, flags & 255]), ...parts);
/** An unsigned big-endian integer of `bytes` bytes. */
export const int = (value: number, bytes: number): Buffer => {
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(value, 0, bytes);
  return out;
};

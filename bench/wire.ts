/**
 * Just enough of the MongoDB wire protocol for bench/db-counter.ts to see what passes between a
 * server and the database: messages framed from a byte stream, the command of an OP_MSG
 * request, and the documents of a cursor reply, read where they lie in the bytes (BSON element
 * headers only; no value is decoded that the count does not need).
 *
 * Wire protocol: https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 * BSON: https://bsonspec.org/spec.html
 */

export const OP_MSG = 2013;

export interface Message {
  requestId: number;
  responseTo: number;
  opCode: number;
  bytes: Buffer;
}

/**
 * Splits a byte stream into whole messages (the first int32 of each is its length). The chunks
 * of a message are joined once, when its last one has come.
 */
export function messageReader(onMessage: (message: Message) => void): (chunk: Buffer) => void {
  let chunks: Buffer[] = [];
  let buffered = 0;
  return (chunk) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= 16) {
      const first = chunks[0];
      const head = first !== undefined && first.length >= 4 ? first : Buffer.concat(chunks);
      const length = head.readInt32LE(0);
      if (length < 16) throw new Error(`wire: a message of ${length} bytes`);
      if (buffered < length) return;
      const all = chunks.length === 1 && first !== undefined ? first : Buffer.concat(chunks);
      const bytes = all.subarray(0, length);
      const rest = all.subarray(length);
      chunks = rest.length === 0 ? [] : [rest];
      buffered = rest.length;
      onMessage({
        requestId: bytes.readInt32LE(4),
        responseTo: bytes.readInt32LE(8),
        opCode: bytes.readInt32LE(12),
        bytes,
      });
    }
  };
}

/** An element of a BSON document: its type byte, name, and where its value lies. */
interface Element {
  type: number;
  name: string;
  start: number;
  end: number;
}

function cstringEnd(buf: Buffer, at: number): number {
  const end = buf.indexOf(0, at);
  if (end < 0) throw new Error("BSON: unterminated name");
  return end;
}

/** Bytes of a value of `type` at `at` (BSON spec, "element"). */
function valueLength(buf: Buffer, type: number, at: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return 4 + buf.readInt32LE(at);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return buf.readInt32LE(at);
    case 0x05: // binary: length, subtype, bytes
      return 5 + buf.readInt32LE(at);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0b: // regex: two cstrings
      return cstringEnd(buf, cstringEnd(buf, at) + 1) + 1 - at;
    case 0x0c: // DBPointer: string, ObjectId
      return 4 + buf.readInt32LE(at) + 12;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      throw new Error(`BSON: unknown element type 0x${type.toString(16)}`);
  }
}

/** The elements of the document (or array) starting at `at`. */
export function* elements(buf: Buffer, at: number): Generator<Element> {
  const end = at + buf.readInt32LE(at) - 1;
  let i = at + 4;
  while (i < end) {
    const type = buf.readUInt8(i);
    const nameEnd = cstringEnd(buf, i + 1);
    const start = nameEnd + 1;
    const length = valueLength(buf, type, start);
    yield { type, name: buf.toString("latin1", i + 1, nameEnd), start, end: start + length };
    i = start + length;
  }
}

/** The element `name` of the document at `at`, if it has one. */
export function field(buf: Buffer, at: number, name: string): Element | undefined {
  for (const element of elements(buf, at)) if (element.name === name) return element;
  return undefined;
}

/** A string element's value. */
export const stringOf = (buf: Buffer, e: Element): string =>
  buf.toString("utf8", e.start + 4, e.start + 4 + buf.readInt32LE(e.start) - 1);

/** An OP_MSG's body (its section of kind 0) and its document sequences (kind 1), by name. */
export interface OpMsg {
  bytes: Buffer;
  body: number;
  sequences: Map<string, number>;
}

/** Reads an OP_MSG: flag bits, then sections (kind 0: one document; kind 1: a sequence). */
export function readOpMsg(message: Message): OpMsg {
  const { bytes } = message;
  const checksum = (bytes.readUInt32LE(16) & 1) === 1 ? 4 : 0;
  const sequences = new Map<string, number>();
  let body = -1;
  let i = 20;
  while (i < bytes.length - checksum) {
    const kind = bytes.readUInt8(i);
    if (kind === 0) {
      body = i + 1;
      i = body + bytes.readInt32LE(body);
    } else if (kind === 1) {
      const size = bytes.readInt32LE(i + 1);
      const nameEnd = cstringEnd(bytes, i + 5);
      let count = 0;
      for (let d = nameEnd + 1; d < i + 1 + size; d += bytes.readInt32LE(d)) count += 1;
      sequences.set(bytes.toString("latin1", i + 5, nameEnd), count);
      i = i + 1 + size;
    } else {
      throw new Error(`OP_MSG: unknown section kind ${kind}`);
    }
  }
  if (body < 0) throw new Error("OP_MSG without a body");
  return { bytes, body, sequences };
}

/** A command's name and the collection it names (`{find: "blogs", …}`), if a string. */
export function commandOf(msg: OpMsg): { name: string; collection: string | undefined } {
  const first = elements(msg.bytes, msg.body).next();
  if (first.done) throw new Error("OP_MSG: empty command");
  const e = first.value;
  return { name: e.name, collection: e.type === 0x02 ? stringOf(msg.bytes, e) : undefined };
}

/** The documents of a cursor reply (`cursor.firstBatch` or `cursor.nextBatch`), by offset. */
export function cursorBatch(msg: OpMsg): { ns: string; docs: number[] } | undefined {
  const cursor = field(msg.bytes, msg.body, "cursor");
  if (cursor === undefined || cursor.type !== 0x03) return undefined;
  let ns = "";
  const docs: number[] = [];
  for (const e of elements(msg.bytes, cursor.start)) {
    if (e.name === "ns" && e.type === 0x02) ns = stringOf(msg.bytes, e);
    if ((e.name === "firstBatch" || e.name === "nextBatch") && e.type === 0x04) {
      for (const doc of elements(msg.bytes, e.start)) docs.push(doc.start);
    }
  }
  return { ns, docs };
}

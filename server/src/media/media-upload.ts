import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DomainError } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import { youngGarbageBudget } from "../platform/young-garbage.js";
import { type ImageType, imageTypeOf, SNIFF_BYTES } from "./image-type.js";

/** An upload as it arrived, in a file of its own that the caller removes (`discard`). */
export interface ReceivedUpload {
  readonly path: string;
  readonly type: ImageType;
  /** SHA-256 of the bytes as sent, hex. */
  readonly sha256: string;
  readonly size: number;
  discard(): Promise<void>;
}

export const tooLarge = (limit: number): DomainError =>
  new DomainError(
    "too_large",
    `Image too large: at most ${limit} bytes (MEDIA_UPLOAD_LIMIT_BYTES).`,
  );

export const NOT_AN_IMAGE =
  "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.";

/**
 * Reads what is left of a refused body and drops it, so that the answer reaches a client still
 * sending a small body (closing on it makes browsers report the request aborted); past `limit`
 * more bytes the body is destroyed instead.
 */
function drain(body: Readable, limit: number): void {
  let left = limit;
  body.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) body.destroy();
  });
  body.on("error", () => undefined);
  body.resume();
}

/**
 * Streams an upload's body into a file under `dir`, hashing it on the way and never holding
 * more than a chunk in memory (admin.yaml `uploadMedia`). Refused at once, before a byte is
 * read, when `Content-Length` says more than `limit`; refused as soon as more than `limit`
 * bytes arrived otherwise (the rest is not read: the caller answers and closes the
 * connection); refused when the first bytes are no image type the library takes (the rest is
 * read and dropped, up to `limit`). On any refusal, a write that fails, or the sender going
 * away mid-body, the partial file is removed: nothing is left.
 */
export async function receiveUpload(
  body: Readable,
  declaredLength: number | undefined,
  limit: number,
  dir: string,
): Promise<ReceivedUpload> {
  if (declaredLength !== undefined && declaredLength > limit) throw tooLarge(limit);
  const file = path.join(dir, `upload-${randomBase62(16)}`);
  const discard = () => rm(file, { force: true });
  const out = createWriteStream(file, { flags: "wx" });
  // A failed write (a full disk) is this upload's error, never an uncaught one.
  let writeFailed: Error | undefined;
  out.on("error", (err) => {
    writeFailed ??= err;
  });
  const hash = createHash("sha256");
  // The request's chunks are garbage once written: collected as they go (young-garbage.ts).
  const garbage = youngGarbageBudget();
  let size = 0;
  let head = Buffer.alloc(0);
  let type: ImageType | undefined;
  try {
    // Events, not `for await`: leaving that loop early destroys the request, and with it the
    // socket the refusal is to be answered on.
    let reading = true;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        reading = false;
        body.off("data", onData);
        body.off("end", onEnd);
        body.off("error", onError);
        body.off("close", onClose);
        if (err === undefined) resolve();
        else reject(err);
      };
      const onData = (bytes: Buffer) => {
        size += bytes.length;
        if (size > limit) return done(tooLarge(limit));
        if (writeFailed !== undefined) return done(writeFailed);
        if (type === undefined) {
          head = Buffer.concat([head, bytes.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) {
            type = imageTypeOf(head);
            if (type === undefined) return done(new DomainError("unsupported_type", NOT_AN_IMAGE));
          }
        }
        hash.update(bytes);
        garbage.add(bytes.length);
        if (!out.write(bytes)) {
          body.pause();
          out.once("drain", () => {
            if (reading) body.resume();
          });
        }
      };
      const onEnd = () => done();
      const onError = (err: Error) => done(err);
      const onClose = () => {
        if (!body.readableEnded) done(new Error("The upload was cut off before its end."));
      };
      body.on("data", onData);
      body.once("end", onEnd);
      body.once("error", onError);
      body.once("close", onClose);
    });
    type ??= imageTypeOf(head);
    if (type === undefined) throw new DomainError("unsupported_type", NOT_AN_IMAGE);
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    if (writeFailed !== undefined) throw writeFailed;
    garbage.end();
    return { path: file, type, sha256: hash.digest("hex"), size, discard };
  } catch (err) {
    if (err instanceof DomainError && err.code === "unsupported_type" && !body.readableEnded) {
      drain(body, limit);
    } else {
      body.pause();
    }
    // Closed before the file is removed: a stream still opening would make it again.
    if (!out.closed) {
      const closed = new Promise<void>((resolve) => out.once("close", () => resolve()));
      out.destroy();
      await closed;
    }
    await discard();
    throw err;
  }
}

import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DomainError } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
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
 * Streams an upload's body into a file under `dir`, hashing it on the way and never holding
 * more than a chunk in memory (admin.yaml `uploadMedia`). Refused at once, before a byte is
 * read, when `Content-Length` says more than `limit`; refused as soon as more than `limit`
 * bytes arrived otherwise (the rest is not read: the caller answers and closes the
 * connection); refused when the first bytes are no image type the library takes. On any
 * refusal, or the sender going away mid-body, the partial file is removed: nothing is left.
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
  const hash = createHash("sha256");
  let size = 0;
  let head = Buffer.alloc(0);
  let type: ImageType | undefined;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > limit) throw tooLarge(limit);
      if (type === undefined) {
        head = Buffer.concat([head, bytes.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) {
          type = imageTypeOf(head);
          if (type === undefined) throw new DomainError("unsupported_type", NOT_AN_IMAGE);
        }
      }
      hash.update(bytes);
      if (!out.write(bytes))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    type ??= imageTypeOf(head);
    if (type === undefined) throw new DomainError("unsupported_type", NOT_AN_IMAGE);
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return { path: file, type, sha256: hash.digest("hex"), size, discard };
  } catch (err) {
    body.pause();
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

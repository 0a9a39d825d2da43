import { randomBytes } from "node:crypto";
import type { Collections } from "./collections.js";
import { isDuplicateKey } from "./duplicate-key.js";

/**
 * A random 32-byte key made once per database and kept in `markers` under `markerId`, so every
 * instance uses the same one with nothing to configure. Read (or made) on first use and kept;
 * a failed read is tried again by the next call.
 */
export function databaseSecret(
  { markers }: Pick<Collections, "markers">,
  markerId: string,
): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const readOrMake = async (): Promise<Buffer> => {
    const found = await markers.findOne({ _id: markerId });
    if (found?.value !== undefined) return Buffer.from(found.value, "base64url");
    const made = randomBytes(32).toString("base64url");
    try {
      await markers.insertOne({ _id: markerId, at: new Date(), value: made });
      return Buffer.from(made, "base64url");
    } catch (err) {
      // Another instance made it first: use theirs.
      if (!isDuplicateKey(err)) throw err;
      const theirs = await markers.findOne({ _id: markerId });
      if (theirs?.value === undefined) throw err;
      return Buffer.from(theirs.value, "base64url");
    }
  };
  return () => {
    key ??= readOrMake().catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  };
}

import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { BASE62, randomBase62 } from "../platform/ids.js";

/**
 * Workspace API keys, in the manner of GitHub's token format:
 * `cp_live_` + 36 random base62 characters (≈ 214 bits) + a 6-character base62 CRC32 of that
 * body. The checksum lets a mistyped or made-up key be refused without touching the database.
 */
export const KEY_PREFIX = "cp_live_";
const BODY_LENGTH = 36;
const CHECKSUM_LENGTH = 6;
/** Characters kept for display: `cp_live_` and the first 4 of the body. */
export const DISPLAY_PREFIX_LENGTH = 12;
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface MintedKey {
  /** Shown once, never stored. */
  readonly raw: string;
  readonly hash: string;
  readonly prefix: string;
}

export function generateKey(): MintedKey {
  const body = randomBase62(BODY_LENGTH);
  const raw = `${KEY_PREFIX}${body}${checksum(body)}`;
  return { raw, hash: hashKey(raw), prefix: displayPrefix(raw) };
}

/** True when `raw` has the key's shape and a matching checksum. No I/O. */
export function isWellFormedKey(raw: string): boolean {
  if (!KEY_SHAPE.test(raw)) return false;
  const body = raw.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return raw.slice(KEY_PREFIX.length + BODY_LENGTH) === checksum(body);
}

/** SHA-256 hex of the raw key: what is stored and looked up. */
export function hashKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

export const displayPrefix = (raw: string): string => raw.slice(0, DISPLAY_PREFIX_LENGTH);

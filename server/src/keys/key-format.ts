import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
/**
 * Workspace API keys, in the manner of GitHub's token format: a prefix naming the key's kind,
 * 36 random base62 characters (≈ 214 bits) and a 6-character base62 CRC32 of that body. The
 * checksum lets a mistyped or made-up key be refused without touching the database; the prefix
 * tells which base path a key belongs to before any lookup (openapi.yaml, "Preview").
 */
import type { KeyKind } from "../platform/db/collections.js";
import { BASE62, randomBase62 } from "../platform/ids.js";

export type { KeyKind };

export const KEY_PREFIXES: Readonly<Record<KeyKind, string>> = {
  live: "cp_live_",
  preview: "cp_preview_",
};
/** The live prefix, for messages and examples. */
export const KEY_PREFIX = KEY_PREFIXES.live;
const BODY_LENGTH = 36;
const CHECKSUM_LENGTH = 6;
/** Characters of the body kept for display after the kind's prefix. */
const DISPLAYED_BODY = 4;
export const shapeOf = (prefix: string): RegExp =>
  new RegExp(`^${prefix}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
const SHAPES: Readonly<Record<KeyKind, RegExp>> = {
  live: shapeOf(KEY_PREFIXES.live),
  preview: shapeOf(KEY_PREFIXES.preview),
};

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

/** A new secret in this format after `prefix` (a key's kind, or an access token's `pr_pat_`). */
export function mintSecret(prefix: string): MintedKey {
  const body = randomBase62(BODY_LENGTH);
  const raw = `${prefix}${body}${checksum(body)}`;
  return { raw, hash: hashKey(raw), prefix: raw.slice(0, prefix.length + DISPLAYED_BODY) };
}

/** True when `raw` is `prefix`, a body and its checksum, in this format. No I/O. */
export function isWellFormedSecret(raw: string, prefix: string, shape = shapeOf(prefix)): boolean {
  if (!shape.test(raw)) return false;
  const body = raw.slice(prefix.length, prefix.length + BODY_LENGTH);
  return raw.slice(prefix.length + BODY_LENGTH) === checksum(body);
}

export const generateKey = (kind: KeyKind = "live"): MintedKey => mintSecret(KEY_PREFIXES[kind]);

/** True when `raw` has the shape of a key of `kind` and a matching checksum. No I/O. */
export const isWellFormedKey = (raw: string, kind: KeyKind = "live"): boolean =>
  isWellFormedSecret(raw, KEY_PREFIXES[kind], SHAPES[kind]);

/** SHA-256 hex of the raw key: what is stored and looked up. */
export function hashKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** The kind's prefix and the first characters of the body: `cp_live_M1Pl`, `cp_preview_M1Pl`. */
export const displayPrefix = (raw: string, kind: KeyKind = "live"): string =>
  raw.slice(0, KEY_PREFIXES[kind].length + DISPLAYED_BODY);

import { randomInt } from "node:crypto";

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters drawn uniformly from base62 by a CSPRNG (log2(62) ≈ 5.95 bits each). */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** Public identifiers: a type prefix and 16 random base62 characters (≈ 95 bits). */
export const newId = (
  prefix: "ws" | "b" | "key" | "usr" | "inv" | "we" | "evt" | "dlv" | "tok" | "au" | "med",
): string => `${prefix}_${randomBase62(16)}`;

import { createHash } from "node:crypto";
import { BASE62 } from "../platform/ids.js";

/**
 * The id of the blog an import makes of entry `sourceKey` in workspace `workspaceId`: `b_` and
 * 16 base62 characters of SHA-256(workspace id, NUL, source key), the length and alphabet of
 * every blog id (platform/ids.ts). The same entry imported again finds the same blog by `_id` — an exact
 * lookup on MongoDB and the embedded database alike, with no index of its own — and two
 * concurrent imports of it insert the same `_id`: one of them only.
 */
export function importBlogId(workspaceId: string, sourceKey: string): string {
  const digest = createHash("sha256").update(`${workspaceId}\u0000${sourceKey}`).digest();
  let n = BigInt(`0x${digest.toString("hex")}`);
  let out = "";
  for (let i = 0; i < 16; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return `b_${out}`;
}

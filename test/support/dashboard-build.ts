import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The newest modification time of any file under `dir`, in ms (0 for an empty tree). */
export function newestFileTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestFileTime(full) : statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SDK_DIR = fileURLToPath(new URL("../../sdk/", import.meta.url));

async function mtimes(dir: string, suffix: string): Promise<number[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith(suffix));
  return Promise.all(files.map(async (e) => (await stat(path.join(e.parentPath, e.name))).mtimeMs));
}

/**
 * Tests of the built package (npm pack, the examples) use sdk/dist as `npm run build` left it;
 * they never rebuild it, so parallel test files never see it half-written. This fails fast when
 * dist is missing or older than a source file.
 */
export async function assertBuiltSdk(): Promise<void> {
  const built = await mtimes(path.join(SDK_DIR, "dist"), ".js").catch(() => []);
  if (built.length === 0) throw new Error("sdk/dist is missing: run `npm run build` first");
  const sources = await mtimes(path.join(SDK_DIR, "src"), ".ts");
  if (Math.max(...sources) > Math.min(...built)) {
    throw new Error("sdk/dist is older than sdk/src: run `npm run build:sdk` first");
  }
}

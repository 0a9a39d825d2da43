// Go's module hash ("h1:…", as in go.sum and sum.golang.org) of a module zip:
// dirhash.HashZip with dirhash.Hash1 (golang.org/x/mod/sumdb/dirhash).
import { createHash } from "node:crypto";
import { openPromise } from "yauzl";

/** Opens a zip for reading entry by entry (yauzl refuses absolute and ".." names). */
export const openZip = (file: string) => openPromise(file, { lazyEntries: true, autoClose: false });

/**
 * The zip's h1: hash: SHA-256 over the lines "<sha256 hex of the file>  <name>\n" of all its
 * files sorted by name (bytewise, as Go sorts strings), base64.
 */
export async function hashZip(file: string): Promise<string> {
  const zip = await openZip(file);
  const lines: [Buffer, string][] = [];
  const names = new Set<string>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.includes("\n") || names.has(entry.fileName)) {
        throw new Error(`zip entry name refused: ${JSON.stringify(entry.fileName)}`);
      }
      names.add(entry.fileName);
      const hash = createHash("sha256");
      for await (const chunk of await zip.openReadStreamPromise(entry)) hash.update(chunk);
      lines.push([Buffer.from(entry.fileName), `${hash.digest("hex")}  ${entry.fileName}\n`]);
    }
  } finally {
    zip.close();
  }
  lines.sort(([a], [b]) => Buffer.compare(a, b)); // Go sorts the names bytewise
  const summary = createHash("sha256");
  for (const [, line] of lines) summary.update(line);
  return `h1:${summary.digest("base64")}`;
}

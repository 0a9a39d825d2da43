/**
 * The image files of an export (README, "Import and export"): each library image of the export's
 * `media` (admin.yaml `ExportedMedia`) as the stored image's bytes, in a folder beside the JSON
 * (pressroom-media.ts `mediaFolderOf`), named `{id}-{name}` — what `pressroom import` reads back.
 * The folder is made readable by its owner only (0700, its files 0600), as the export is: it holds
 * the images of drafts. Each file is written under a temporary name and renamed when whole; a file
 * already there with the record's size is kept (an export again into the same folder copies only
 * new images).
 */
import { createWriteStream } from "node:fs";
import { chmod, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBase62 } from "../platform/ids.js";
import type { ExportedMedia } from "./export-workspace.js";
import { exportedFileName } from "./pressroom-media.js";

export async function writeMediaFiles(
  media: readonly ExportedMedia[],
  dir: string,
  bytesOf: (record: ExportedMedia) => Promise<Readable>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ written: number; kept: number }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let written = 0;
  let kept = 0;
  for (const [i, record] of media.entries()) {
    const file = path.join(dir, exportedFileName(record));
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === record.bytes) {
      kept++;
    } else {
      const part = path.join(dir, `.${exportedFileName(record)}.${randomBase62(8)}.part`);
      try {
        await pipeline(
          await bytesOf(record),
          createWriteStream(part, { mode: 0o600, flags: "wx" }),
        );
        await chmod(part, 0o600);
        await rename(part, file);
      } finally {
        await rm(part, { force: true });
      }
      written++;
    }
    onProgress?.(i + 1, media.length);
  }
  return { written, kept };
}

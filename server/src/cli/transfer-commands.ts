/**
 * `pressroom export` and `pressroom import` (transfer/): a workspace to Pressroom's own JSON and
 * its images to a folder beside it, and a source (that JSON, or the formats in READERS) with its
 * images into a workspace, idempotently.
 */

import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { renderPool } from "../blogs/render-pool.js";
import { MIGRATIONS } from "../migrations.js";
import type { Config } from "../platform/config.js";
import { collections } from "../platform/db/collections.js";
import { openDatabase } from "../platform/db/database.js";
import { DomainError } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import { createStores } from "../stores.js";
import { attachImages } from "../transfer/attach-images.js";
import { writeMediaFiles } from "../transfer/export-media.js";
import { exportWorkspace, writeExport } from "../transfer/export-workspace.js";
import { readGhostExport } from "../transfer/ghost-reader.js";
import { RENDERS_AT_ONCE } from "../transfer/import-plan.js";
import { importReport } from "../transfer/import-report.js";
import { ImportInputError, type ImportReader, type ImportSet } from "../transfer/import-set.js";
import { parseJsonSource, readJsonText } from "../transfer/json-source.js";
import { readMarkdownFolder } from "../transfer/markdown-reader.js";
import { readPressroomExport } from "../transfer/pressroom-format.js";
import { mediaFolderOf } from "../transfer/pressroom-media.js";
import { storeImageLibrary } from "../transfer/store-image-library.js";
import { type CommandInput, optional, positional, required, UsageError } from "./args.js";
import { printImport, progressLine } from "./import-output.js";
import type { Output } from "./output.js";
import { cliMediaStore, imagesLine, mediaFilesLine, publicOriginOf } from "./transfer-media.js";

type Format = ImportSet["format"];
const FORMATS: readonly Format[] = ["pressroom", "ghost", "markdown"];

/** The reader of each source format (`--from`). */
const READERS: Readonly<Record<Format, ImportReader>> = {
  pressroom: readPressroomExport,
  ghost: readGhostExport,
  markdown: readMarkdownFolder,
};

/** `--from`, or what SOURCE is: a folder → markdown; JSON of an export → pressroom; Ghost's → ghost. */
async function formatOf(
  source: string,
  from: string | undefined,
  maxJsonBytes: number,
): Promise<Format> {
  if (from !== undefined) {
    if (!FORMATS.includes(from as Format))
      throw new UsageError(`--from takes ${FORMATS.join(", ")}.`);
    return from as Format;
  }
  const info = await stat(source).catch(() => null);
  if (info === null) throw new UsageError(`No such file or folder: ${source}`);
  if (info.isDirectory()) return "markdown";
  const text = await readJsonText(source, path.basename(source), maxJsonBytes);
  if (!/^\s*[[{]/.test(text)) {
    throw new UsageError(`Cannot tell the format of ${source}; give --from ${FORMATS.join("|")}.`);
  }
  const doc = parseJsonSource(text, path.basename(source)) as Record<string, unknown> | null;
  if (doc?.format === "pressroom.workspace-export") return "pressroom";
  const ghostDb = (doc?.db as { data?: { posts?: unknown } }[] | undefined)?.[0];
  if (Array.isArray(ghostDb?.data?.posts)) return "ghost";
  throw new UsageError(`Cannot tell the format of ${source}; give --from ${FORMATS.join("|")}.`);
}

async function importCommand(config: Config, input: CommandInput, out: Output): Promise<void> {
  const workspaceId = required(input, "workspace");
  const { format, source, set, dryRun } = await readSource(config, input, out);
  const database = await openDatabase(config, MIGRATIONS, { onProgress: (line) => out.note(line) });
  // The CLI's own pool serves this one import (one workspace): all of its threads, and at least
  // the renders the plan keeps going at once.
  const renderer = renderPool({
    timeoutMs: config.renderTimeoutMs,
    threads: config.renderPool.threads,
    nice: config.renderPool.nice,
    niceAfterMs: config.renderPool.niceAfterMs,
    workspaceRunning: config.renderPool.threads,
    workspacePending: RENDERS_AT_ONCE,
    previewPerUser: 1,
  });
  const media = await cliMediaStore(config, database.db);
  try {
    const c = collections(database.db);
    const { transfer } = createStores(database.db, {
      renderer,
      changesRetentionMs: config.changesRetentionMs,
    });
    const origin = publicOriginOf(config);
    const plan = (entries: ImportSet, planOnly: boolean) =>
      transfer.importSet(workspaceId, entries, {
        dryRun: planOnly,
        source: `${format} ${path.resolve(source)}`,
        now: new Date(),
        onProgress: progressLine(out),
        // Said once, by the run that writes (or the dry run asked for), not by its check.
        onUnfinished: (unfinished) =>
          planOnly !== dryRun ||
          out.note(
            `An import into ${workspaceId} (${unfinished.source}) started ${unfinished.startedAt.toISOString()} did not finish; running it again completes it.`,
          ),
      });
    const attached = await attachImages(
      set,
      storeImageLibrary(c, media.store, workspaceId, origin),
      { dryRun, origin, checkFirst: (entries) => plan(entries, true) },
    );
    const { plan: planned, applied } = await plan(attached.set, dryRun);
    printImport(importReport(planned, applied), set, out);
    if (set.images !== undefined && set.images.length > 0) out.note(imagesLine(attached, dryRun));
  } finally {
    await media.close();
    await renderer.close();
    await database.close();
  }
}

/** An import's SOURCE read on this machine, by its format's reader: the same in both modes. */
export async function readSource(
  config: Pick<Config, "importMaxBytes">,
  input: CommandInput,
  out: Output,
): Promise<{ format: Format; source: string; set: ImportSet; dryRun: boolean }> {
  const source = positional(input, "SOURCE");
  const format = await formatOf(source, optional(input, "from"), config.importMaxBytes);
  const mediaDir = optional(input, "media-dir");
  if (mediaDir !== undefined) {
    if (format === "markdown") {
      throw new UsageError(
        "--media-dir is for a Ghost or Pressroom export: a Markdown folder's images are read beside its files.",
      );
    }
    if (!(await stat(mediaDir).catch(() => null))?.isDirectory()) {
      throw new UsageError(`--media-dir ${mediaDir} is not a folder.`);
    }
  }
  const set = await READERS[format](source, {
    onProgress: progressLine(out),
    maxJsonBytes: config.importMaxBytes,
    mediaDir,
  });
  return { format, source, set, dryRun: input.options["dry-run"] === true };
}

async function exportCommand(config: Config, input: CommandInput, out: Output): Promise<void> {
  const workspaceId = required(input, "workspace");
  if (input.args.length > 0) throw new UsageError("export takes no positional arguments.");
  const file = optional(input, "out");
  const mediaDir =
    optional(input, "media-dir") ?? (file === undefined ? undefined : mediaFolderOf(file));
  const database = await openDatabase(config, MIGRATIONS, { onProgress: (line) => out.note(line) });
  const media = await cliMediaStore(config, database.db);
  try {
    const doc = await exportWorkspace(collections(database.db), workspaceId, new Date());
    // The images first: an export whose images failed leaves no JSON naming them.
    if (doc.media.length > 0 && mediaDir !== undefined) {
      const files = await writeMediaFiles(doc.media, mediaDir, async (m) =>
        createReadStream((await media.store.file(m.id, m.name, {})).path),
      );
      out.note(mediaFilesLine(doc.media.length, files, mediaDir));
    } else if (doc.media.length > 0) {
      out.note(
        `${doc.media.length} image(s) listed, not written: give --media-dir DIR for their files.`,
      );
    }
    if (file === undefined) await writeExport(doc, process.stdout);
    else await exportToFile(file, (stream) => writeExport(doc, stream));
    const summary = `Exported ${doc.blogs.length} blogs, ${doc.keys.length} keys and ${doc.webhookEndpoints.length} webhook endpoints (metadata only, no secrets) of workspace ${workspaceId}${file === undefined ? "" : ` to ${file}`}.`;
    if (file !== undefined && out.json) {
      out.result(
        { file, blogs: doc.blogs.length, media: doc.media.length, keys: doc.keys.length },
        summary,
      );
    } else out.note(summary);
  } finally {
    await media.close();
    await database.close();
  }
}

/**
 * Writes an export (`write` hands it to the stream) to a temporary file next to `file`, renamed
 * to `file` once complete: a failure midway (disk full, a missing folder, a server gone) leaves
 * no partial export, and is one line.
 */
export async function exportToFile(
  file: string,
  write: (stream: Writable) => Promise<void>,
): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBase62(8)}.tmp`);
  try {
    // 0600 from the start, as a backup is: the export holds drafts and removed blogs. The rename
    // replaces an existing file with this one, mode and all.
    const handle = await open(temp, "wx", 0o600);
    const stream = handle.createWriteStream();
    try {
      await write(stream);
      stream.end();
      await finished(stream);
    } finally {
      stream.destroy();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof DomainError) throw err; // the export's own failure, not the file's
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "its folder does not exist" : (code ?? (err as Error).message);
    throw new DomainError("invalid", `Cannot write the export to ${file}: ${reason}.`);
  }
}

/** `pressroom export|import …`; a source that cannot be imported exits 1 with every problem. */
export async function runTransfer(
  config: Config,
  command: "export" | "import",
  input: CommandInput,
  out: Output,
): Promise<void> {
  try {
    await (command === "export" ? exportCommand : importCommand)(config, input, out);
  } catch (err) {
    if (err instanceof ImportInputError) throw new DomainError(err.kind, err.message);
    throw err;
  }
}

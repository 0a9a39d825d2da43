/**
 * `pressroom export` and `pressroom import` (transfer/): a workspace to Pressroom's own JSON, and
 * a source (that JSON, or the formats in READERS) into a workspace, idempotently.
 */

import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import type { Db } from "mongodb";
import { renderPool } from "../blogs/render-pool.js";
import { recordEveryMark } from "../changes/change-recorder.js";
import { MIGRATIONS } from "../migrations.js";
import type { Config } from "../platform/config.js";
import { collections } from "../platform/db/collections.js";
import { openDatabase } from "../platform/db/database.js";
import { DomainError } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import { createStores } from "../stores.js";
import {
  exportWorkspace,
  type WorkspaceExport,
  writeExport,
} from "../transfer/export-workspace.js";
import { readGhostExport } from "../transfer/ghost-reader.js";
import { applyImport, unfinishedImport } from "../transfer/import-apply.js";
import {
  type ImportPlan,
  planCounts,
  planImport,
  RENDERS_AT_ONCE,
} from "../transfer/import-plan.js";
import {
  ImportInputError,
  type ImportReader,
  type ImportSet,
  type OnProgress,
} from "../transfer/import-set.js";
import { parseJsonSource, readJsonText } from "../transfer/json-source.js";
import { readMarkdownFolder } from "../transfer/markdown-reader.js";
import { readPressroomExport } from "../transfer/pressroom-format.js";
import { type CommandInput, optional, positional, required, UsageError } from "./args.js";
import { type Output, table } from "./output.js";

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

/** A progress line on stderr at most once a second, and the last one. */
function progressLine(out: Output): OnProgress {
  let last = Date.now();
  let printed = false;
  return (step, done, total) => {
    const now = Date.now();
    if (now - last < 1000 && !(done === total && printed)) return;
    last = now;
    printed = done < total;
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    out.note(
      `${step}: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} blogs (${pct}%)`,
    );
  };
}

function printPlan(plan: ImportPlan, dryRun: boolean, out: Output, applied?: object): void {
  const counts = planCounts(plan);
  const entries = plan.entries.map((e) => ({
    origin: e.blog.origin,
    id: e.id,
    slug: e.blog.slug,
    action: e.action,
    status: e.blog.status,
    ...(e.reason === undefined ? {} : { reason: e.reason }),
  }));
  const shown = dryRun ? entries : entries.filter((e) => e.action === "conflict");
  const text = [
    `${dryRun ? "Dry run, nothing written: would" : "Imported:"} create ${counts.create}, update ${counts.update}, leave ${counts.unchanged} unchanged; ${counts.conflict} conflict(s), ${counts.skipped} skipped.`,
    ...(shown.length === 0
      ? []
      : [
          table(
            ["ORIGIN", "SLUG", "ACTION", "STATUS"],
            shown.map((e) => [
              e.origin,
              e.slug,
              e.reason ? `${e.action}: ${e.reason}` : e.action,
              e.status,
            ]),
          ),
        ]),
    ...plan.set.skipped.map((s) => `skipped ${s.origin}: ${s.reason}`),
    ...plan.set.notes,
  ].join("\n");
  out.result(
    { dryRun, counts, entries, skipped: plan.set.skipped, notes: plan.set.notes, ...applied },
    text,
  );
}

async function importCommand(config: Config, input: CommandInput, out: Output): Promise<void> {
  const workspaceId = required(input, "workspace");
  const source = positional(input, "SOURCE");
  const format = await formatOf(source, optional(input, "from"), config.importMaxBytes);
  const reader = READERS[format];
  const dryRun = input.options["dry-run"] === true;
  const onProgress = progressLine(out);
  const set = await reader(source, { onProgress, maxJsonBytes: config.importMaxBytes });
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
  try {
    const c = collections(database.db);
    const unfinished = await unfinishedImport(c, workspaceId);
    if (unfinished !== null) {
      out.note(
        `An import into ${workspaceId} (${unfinished.source}) started ${unfinished.startedAt.toISOString()} did not finish; running it again completes it.`,
      );
    }
    const plan = await planImport(c, renderer, workspaceId, set, onProgress);
    if (dryRun) return printPlan(plan, true, out);
    const applied = await applyImport(c, plan, {
      source: `${format} ${path.resolve(source)}`,
      now: new Date(),
      onProgress,
    });
    await recordForTheFeed(config, database.db, workspaceId, onProgress);
    printPlan(plan, false, out, { applied });
  } finally {
    await renderer.close();
    await database.close();
  }
}

/**
 * The import marked each blog it released or changed for the changes feed, as a release does;
 * recording those marks here, before the import exits, spares a site's first changes call or
 * sync after it the work (README, "How the changes feed stays exact without transactions"). It is
 * the server's own recording, exact across processes; if the import stops midway, the feed's
 * calls record the rest.
 */
async function recordForTheFeed(
  config: Config,
  db: Db,
  workspaceId: string,
  onProgress: OnProgress,
): Promise<void> {
  const waiting = await collections(db).blogs.countDocuments({ workspaceId, feedPending: true });
  if (waiting === 0) return;
  const { feedRecorder } = createStores(db, { changesRetentionMs: config.changesRetentionMs });
  const step = "Recording for the changes feed";
  onProgress(step, 0, waiting);
  await recordEveryMark(feedRecorder, workspaceId, (recorded) =>
    onProgress(step, Math.min(recorded, waiting), waiting),
  );
}

async function exportCommand(config: Config, input: CommandInput, out: Output): Promise<void> {
  const workspaceId = required(input, "workspace");
  if (input.args.length > 0) throw new UsageError("export takes no positional arguments.");
  const file = optional(input, "out");
  const database = await openDatabase(config, MIGRATIONS, { onProgress: (line) => out.note(line) });
  try {
    const doc = await exportWorkspace(collections(database.db), workspaceId, new Date());
    if (file === undefined) await writeExport(doc, process.stdout);
    else await exportToFile(doc, file);
    const summary = `Exported ${doc.blogs.length} blogs, ${doc.keys.length} keys and ${doc.webhookEndpoints.length} webhook endpoints (metadata only, no secrets) of workspace ${workspaceId}${file === undefined ? "" : ` to ${file}`}.`;
    if (file !== undefined && out.json) {
      out.result({ file, blogs: doc.blogs.length, keys: doc.keys.length }, summary);
    } else out.note(summary);
  } finally {
    await database.close();
  }
}

/**
 * Writes the export to a temporary file next to `file`, renamed to `file` once complete: a
 * failure midway (disk full, a missing folder) leaves no partial export, and is one line.
 */
async function exportToFile(doc: WorkspaceExport, file: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBase62(8)}.tmp`);
  try {
    // 0600 from the start, as a backup is: the export holds drafts and removed blogs. The rename
    // replaces an existing file with this one, mode and all.
    const handle = await open(temp, "wx", 0o600);
    const stream = handle.createWriteStream();
    try {
      await writeExport(doc, stream);
      stream.end();
      await finished(stream);
    } finally {
      stream.destroy();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
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
    if (err instanceof ImportInputError) throw new DomainError("invalid", err.message);
    throw err;
  }
}

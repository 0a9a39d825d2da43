// `pressroom db backup --out FILE [--force]` and `pressroom db restore FILE`.
import { loadConfig } from "../platform/config.js";
import { backupEmbedded, type FileReport } from "../platform/embedded-db/backup.js";
import { restoreEmbedded } from "../platform/embedded-db/restore.js";
import { UsageError } from "./args.js";
import { type Output, table } from "./output.js";

const size = (bytes: number): string =>
  bytes >= 1 << 20
    ? `${(bytes / (1 << 20)).toFixed(1)} MB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${bytes} bytes`;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const counts = (collections: FileReport["collections"]): string =>
  table(
    ["collection", "documents"],
    collections.map((c) => [c.name, String(c.documents)]),
  );

/** Runs `db backup` or `db restore` with the positionals after it. */
export async function runBackupCommand(
  command: "backup" | "restore",
  args: readonly string[],
  options: Readonly<Record<string, string | boolean | undefined>>,
  out: Output,
): Promise<void> {
  const config = loadConfig();
  const onProgress = (line: string) => out.note(line);
  if (command === "backup") {
    const file = options.out;
    if (typeof file !== "string" || file === "") throw new UsageError("--out FILE is required.");
    if (args.length > 0) throw new UsageError(`Unexpected argument: ${args.join(" ")}`);
    const r = await backupEmbedded(config, {
      out: file,
      force: options.force === true,
      onProgress,
    });
    out.result(
      r,
      [
        `Backup written: ${r.file} (${size(r.bytes)}) in ${seconds(r.tookMs)}`,
        `From: ${r.source} (checked: SQLite integrity ok)`,
        counts(r.collections),
      ].join("\n"),
    );
    return;
  }
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) throw new UsageError("Expected exactly one FILE.");
  const r = await restoreEmbedded(config, { file, onProgress });
  out.result(
    r,
    [
      `Restored ${r.file} (${size(r.bytes)}) into ${r.target} in ${seconds(r.tookMs)}`,
      "Checked first: SQLite integrity ok, and FerretDB opened it and read every document.",
      r.savedTo === null
        ? "There was no database to replace."
        : `The database it replaced is kept in ${r.savedTo} (delete it once you no longer need it).`,
      counts(r.collections),
    ].join("\n"),
  );
}

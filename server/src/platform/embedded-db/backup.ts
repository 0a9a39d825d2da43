// `pressroom db backup`: a consistent copy of the embedded database, made by the launcher's
// one-shot modes (server/embedded-db/backup.go), whether or not a server is running.
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.js";
import { DomainError } from "../domain-error.js";
import { ensureEmbeddedDbBinary } from "./launcher.js";

/** What the launcher's `-backup-from`/`-verify` print (backup.go `fileReport`). */
export interface FileReport {
  readonly file: string;
  readonly bytes: number;
  readonly tables: number;
  readonly collections: readonly { readonly name: string; readonly documents: number }[];
}

export interface BackupResult extends FileReport {
  /** The database file copied. */
  readonly source: string;
  readonly tookMs: number;
}

/** Where the embedded database `name` of `dataDir` lives (database.ts starts it on `<dataDir>/ferretdb`). */
export const embeddedFile = (dataDir: string, name: string): string =>
  path.join(dataDir, "ferretdb", `${name}.sqlite`);

/** Refuses with MONGODB_URI: these commands copy the embedded database's file only. */
export function refuseExternal(config: Config, command: "backup" | "restore"): void {
  if (config.mongodbUri === undefined) return;
  const tool =
    command === "backup"
      ? `mongodump --uri "$MONGODB_URI" --db ${config.mongodbDb} --archive=FILE --gzip`
      : `mongorestore --uri "$MONGODB_URI" --archive=FILE --gzip --drop`;
  throw new DomainError(
    "invalid",
    `MONGODB_URI is set: \`pressroom db ${command}\` works on the embedded database only. ` +
      `Use MongoDB's own tools (${tool}) or your provider's backups (MongoDB Atlas: Cloud Backup).`,
  );
}

const isFileReport = (value: unknown): value is FileReport => {
  const r = value as Partial<FileReport> | null;
  return (
    typeof r?.file === "string" &&
    typeof r.bytes === "number" &&
    typeof r.tables === "number" &&
    Array.isArray(r.collections) &&
    r.collections.every((c) => typeof c?.name === "string" && typeof c.documents === "number")
  );
};

/**
 * Runs the launcher in a one-shot mode and returns its report. A refusal (exit 1: a file that
 * exists, is not a database, fails its check) becomes a DomainError with the launcher's message.
 */
export async function runLauncherMode(
  args: readonly string[],
  onProgress: (line: string) => void,
): Promise<FileReport> {
  const bin = await ensureEmbeddedDbBinary(onProgress);
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) {
    const message = stderr.trim().replace(/^pressroom-db: /gm, "");
    throw new DomainError("invalid", message || `the embedded database tool exited ${code}`);
  }
  const report: unknown = JSON.parse(stdout);
  if (!isFileReport(report)) throw new Error(`unexpected report from ${bin}: ${stdout}`);
  return report;
}

export interface BackupOptions {
  readonly out: string;
  readonly force: boolean;
  readonly onProgress: (line: string) => void;
}

/** Copies the app's embedded database to `out` (backup.go: consistent while a server writes). */
export async function backupEmbedded(
  config: Config,
  options: BackupOptions,
): Promise<BackupResult> {
  refuseExternal(config, "backup");
  const started = Date.now();
  const source = embeddedFile(config.dataDir, config.mongodbDb);
  try {
    await stat(source);
  } catch {
    throw new DomainError(
      "not_found",
      `No embedded database "${config.mongodbDb}" in ${config.dataDir} (expected ${source}).`,
    );
  }
  const args = ["-backup-from", source, "-backup-to", path.resolve(options.out)];
  if (options.force) args.push("-force");
  const report = await runLauncherMode(args, options.onProgress);
  return { ...report, source, tookMs: Date.now() - started };
}

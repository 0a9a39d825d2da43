import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Db, MongoClient } from "mongodb";
import type { Config } from "../config.js";
import { conflict } from "../domain-error.js";
import { tryDataDirLock } from "../embedded-db/data-dir-lock.js";
import { type EmbeddedDb, startEmbeddedDb } from "../embedded-db/launcher.js";
import { isProcessAlive } from "../embedded-db/process-alive.js";
import { ensureIndexes } from "./indexes.js";
import { type Migration, runMigrations } from "./migrations.js";
import { connectMongo, type OnMonitorStuck } from "./mongo.js";

export interface Database {
  readonly db: Db;
  readonly client: MongoClient;
  /** Where the data lives, for humans: a URI without credentials, or the embedded data dir. */
  readonly description: string;
  /** Closes the driver, and stops the embedded database if this process started it. */
  close(): Promise<void>;
}

interface EmbeddedState {
  uri: string;
  pid: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const stateFile = (dataDir: string): string => path.join(dataDir, "embedded-db.json");

/** The embedded database already serving `dataDir` (started by `npm start` or `pressroom db`). */
export async function runningEmbedded(dataDir: string): Promise<EmbeddedState | null> {
  try {
    const state = JSON.parse(await readFile(stateFile(dataDir), "utf8")) as Partial<EmbeddedState>;
    if (
      typeof state.uri === "string" &&
      typeof state.pid === "number" &&
      isProcessAlive(state.pid)
    ) {
      return { uri: state.uri, pid: state.pid };
    }
  } catch {
    // No state file, or a broken one: nothing is running.
  }
  return null;
}

/** Takes the data dir's lock to start on it: waits for another start, refuses during a restore. */
async function lockToStart(dataDir: string): Promise<() => Promise<void>> {
  for (;;) {
    const attempt = await tryDataDirLock(dataDir, "start");
    if ("release" in attempt) return attempt.release;
    if (attempt.heldBy.holder === "restore") {
      throw conflict(
        `A restore is replacing the embedded database of ${dataDir} (\`pressroom db restore\`, ` +
          `process ${attempt.heldBy.pid}). Start again once it has finished.`,
      );
    }
    await sleep(200); // another process is starting it: it records itself, then releases
  }
}

/**
 * Starts the embedded database on `dataDir` and records its URI there, so the CLI and other
 * processes of this machine find it while it runs. Holds the data dir's lock (data-dir-lock.ts)
 * until it is recorded; refuses while `pressroom db restore` holds it. The record is removed
 * only once the database has stopped: a restore never swaps a file a launcher still writes.
 */
export async function startRecordedEmbeddedDb(
  dataDir: string,
  port = 0,
  onProgress?: (line: string) => void,
): Promise<EmbeddedDb> {
  await mkdir(dataDir, { recursive: true });
  const release = await lockToStart(dataDir);
  let embedded: EmbeddedDb;
  try {
    embedded = await startEmbeddedDb({
      dataDir: path.join(dataDir, "ferretdb"),
      port,
      onProgress,
    });
    await writeFile(
      stateFile(dataDir),
      `${JSON.stringify({ uri: embedded.uri, pid: process.pid })}\n`,
    );
  } finally {
    await release();
  }
  return {
    uri: embedded.uri,
    dataDir: embedded.dataDir,
    stop: async () => {
      try {
        await embedded.stop();
      } finally {
        await rm(stateFile(dataDir), { force: true });
      }
    },
  };
}

const withoutCredentials = (uri: string): string => uri.replace(/\/\/[^@/]*@/, "//***@");

/**
 * The database named by the configuration: `MONGODB_URI` when set; otherwise the embedded
 * database of `DATA_DIR` — the running one if there is one, else one started now. Ensures the
 * indexes, then runs `migrations` (the composition root's list, server/src/migrations.ts).
 */
export async function openDatabase(
  config: Config,
  migrations: readonly Migration[],
  onProgress?: (line: string) => void,
  onMonitorStuck?: OnMonitorStuck,
): Promise<Database> {
  let embedded: EmbeddedDb | undefined;
  let uri = config.mongodbUri;
  let description = uri === undefined ? "" : withoutCredentials(uri);
  if (uri === undefined) {
    const running = await runningEmbedded(config.dataDir);
    if (running === null) embedded = await startRecordedEmbeddedDb(config.dataDir, 0, onProgress);
    uri = running?.uri ?? embedded?.uri ?? "";
    description = `embedded database in ${config.dataDir} (${uri})`;
  }
  try {
    // Command events only for metrics (METRICS_PORT) or tracing (OTEL_*): nobody reads them otherwise.
    const client = await connectMongo(
      uri,
      config.dbTimeoutMs,
      onMonitorStuck,
      config.metrics !== undefined || config.tracing !== undefined,
    );
    const db = client.db(config.mongodbDb);
    await ensureIndexes(db);
    await runMigrations(db, migrations);
    return {
      db,
      client,
      description: `${description}, database "${config.mongodbDb}"`,
      close: async () => {
        await client.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

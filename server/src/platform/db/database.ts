import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Db, MongoClient } from "mongodb";
import type { Config } from "../config.js";
import { conflict } from "../domain-error.js";
import { tryDataDirLock } from "../embedded-db/data-dir-lock.js";
import { isProcessAlive } from "../embedded-db/process-alive.js";
import {
  type LauncherEvent,
  launcherEventLog,
  type SupervisedEmbeddedDb,
  superviseEmbeddedDb,
} from "../embedded-db/supervisor.js";
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

/** `<dataDir>/embedded-db.json`, while an embedded database serves `dataDir`. */
interface EmbeddedState {
  uri: string;
  /** The process that started the launcher and supervises it: while it lives, `uri` is served. */
  pid: number;
  /** The launcher running now; a restart changes it (absent in files of older versions). */
  launcherPid?: number;
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
      return {
        uri: state.uri,
        pid: state.pid,
        ...(typeof state.launcherPid === "number" ? { launcherPid: state.launcherPid } : {}),
      };
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

/** Writes the state file whole (a temporary file renamed over it): readers never see half. */
async function writeState(dataDir: string, state: EmbeddedState): Promise<void> {
  const tmp = `${stateFile(dataDir)}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state)}\n`);
  await rename(tmp, stateFile(dataDir));
}

/**
 * Starts the embedded database on `dataDir` and records its URI there, so the CLI and other
 * processes of this machine find it while it runs. Holds the data dir's lock (data-dir-lock.ts)
 * until it is recorded; refuses while `pressroom db restore` holds it. The record is removed
 * only once the database has stopped: a restore never swaps a file a launcher still writes.
 * This process supervises it (supervisor.ts): a restart records the new launcher's pid before
 * `onEvent` hears of it, and giving up removes the record before `onEvent` hears that.
 */
export async function startRecordedEmbeddedDb(
  dataDir: string,
  port = 0,
  onProgress?: (line: string) => void,
  onEvent: (event: LauncherEvent) => void = () => {},
): Promise<SupervisedEmbeddedDb> {
  await mkdir(dataDir, { recursive: true });
  const release = await lockToStart(dataDir);
  let [uri, launcherPid] = ["", 0];
  const record = () => writeState(dataDir, { uri, pid: process.pid, launcherPid });
  // The record's changes, one at a time and in order, each writing what is known when it runs:
  // a record never outlives the one after it, nor its removal.
  let records = Promise.resolve();
  const queue = (step: () => Promise<void>): Promise<void> => {
    const next = records.then(step);
    records = next.catch(() => {}); // a failed change does not stop the ones after it
    return next;
  };
  let embedded: SupervisedEmbeddedDb;
  try {
    embedded = await superviseEmbeddedDb({
      dataDir: path.join(dataDir, "ferretdb"),
      port,
      onProgress,
      onEvent: (event) => {
        if (event.kind === "restarted") [uri, launcherPid] = [event.uri, event.pid];
        const step =
          event.kind === "restarted"
            ? record
            : event.kind === "gave-up"
              ? () => rm(stateFile(dataDir), { force: true })
              : async () => {};
        // The record is for other processes: this one carries on if it cannot be written.
        void queue(step)
          .catch(() => {})
          .then(() => onEvent(event));
      },
    });
    [uri, launcherPid] = [embedded.uri, embedded.pid];
    await queue(record);
  } finally {
    await release();
  }
  return {
    uri: embedded.uri,
    get dataDir() {
      return embedded.dataDir;
    },
    get pid() {
      return embedded.pid;
    },
    stop: async () => {
      try {
        await embedded.stop();
        await records;
      } finally {
        await rm(stateFile(dataDir), { force: true });
      }
    },
  };
}

const withoutCredentials = (uri: string): string => uri.replace(/\/\/[^@/]*@/, "//***@");

/** What `openDatabase` tells its caller about, all optional. */
export interface DatabaseHooks {
  /** Build progress and status lines for humans (launcher.ts). */
  onProgress?: (line: string) => void;
  onMonitorStuck?: OnMonitorStuck;
  /**
   * What befalls the embedded database this process started (supervisor.ts); default: its
   * message to `onProgress`. After "gave-up" nothing restarts it: the caller should exit non-zero.
   */
  onLauncherEvent?: (event: LauncherEvent) => void;
}

/**
 * The database named by the configuration: `MONGODB_URI` when set; otherwise the embedded
 * database of `DATA_DIR` — the running one if there is one (its starter supervises it), else one
 * started and supervised now. Ensures the indexes, then runs `migrations` (the composition
 * root's list, server/src/migrations.ts).
 */
export async function openDatabase(
  config: Config,
  migrations: readonly Migration[],
  { onProgress, onMonitorStuck, onLauncherEvent }: DatabaseHooks = {},
): Promise<Database> {
  let embedded: SupervisedEmbeddedDb | undefined;
  let uri = config.mongodbUri;
  let description = uri === undefined ? "" : withoutCredentials(uri);
  if (uri === undefined) {
    const running = await runningEmbedded(config.dataDir);
    if (running === null) {
      const onEvent =
        onLauncherEvent ?? ((event: LauncherEvent) => onProgress?.(launcherEventLog(event).msg));
      embedded = await startRecordedEmbeddedDb(config.dataDir, 0, onProgress, onEvent);
    }
    uri = running?.uri ?? embedded?.uri ?? "";
    description = `embedded database in ${config.dataDir} (${uri})`;
  }
  let client: MongoClient | undefined;
  try {
    // Command events only for metrics (METRICS_PORT) or tracing (OTEL_*): nobody reads them otherwise.
    client = await connectMongo(
      uri,
      config.dbTimeoutMs,
      onMonitorStuck,
      config.metrics !== undefined || config.tracing !== undefined,
    );
    const connected = client;
    const db = connected.db(config.mongodbDb);
    await ensureIndexes(db);
    await runMigrations(db, migrations);
    return {
      db,
      client: connected,
      description: `${description}, database "${config.mongodbDb}"`,
      close: async () => {
        await connected.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    // The driver's pool and monitors would keep the process alive: a start that failed here
    // must end (exit 1, for a process manager to start it again), not hang.
    await client?.close().catch(() => {});
    await embedded?.stop();
    throw err;
  }
}

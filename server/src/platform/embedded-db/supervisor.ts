// Keeps the embedded database running for the process that started it (`npm start`, `pressroom
// db`, a CLI command that found none running): a launcher that dies (a crash, the kernel's OOM
// killer, kill -9) is started again on the same port, after a growing pause, and each death is
// reported with its cause. Too many failures in a row stop the supervision: the owner then exits
// non-zero, so that a process manager takes over (README, "Embedded database supervision").
import net from "node:net";
import {
  type EmbeddedDb,
  type EmbeddedDbExit,
  type EmbeddedDbOptions,
  runEmbeddedDb,
  startEmbeddedDb,
} from "./launcher.js";

/** The pause before each restart, by the number of failures in the window (1st, 2nd, …). */
export const RESTART_DELAYS_MS: readonly number[] = [100, 200, 500, 1000, 2000];
/** Failures (a death, a restart that failed) counted for giving up are those of the last minute. */
export const FAILURE_WINDOW_MS = 60_000;
/** Restarts allowed within FAILURE_WINDOW_MS: one failure more and supervision gives up. */
export const MAX_RESTARTS = RESTART_DELAYS_MS.length;
/** How long a restart waits for its port while another process holds it. */
const PORT_WAIT_MS = 5000;

export type LauncherEvent =
  /** The launcher exited unasked; `restartInMs` null: this was one failure too many. */
  | { kind: "died"; pid: number; exit: EmbeddedDbExit; restartInMs: number | null }
  | { kind: "restart-failed"; error: Error; restartInMs: number | null }
  | { kind: "restarted"; pid: number; uri: string; downMs: number }
  /** Supervision is over: nothing will restart the launcher. */
  | { kind: "gave-up"; error: Error };

export interface SupervisedEmbeddedDb {
  /** The same across restarts: a restart listens on the port the first start got. */
  readonly uri: string;
  readonly dataDir: string;
  /** The launcher running now (or last, while it is down). */
  readonly pid: number;
  /** Stops supervising, then stops the launcher. */
  stop(): Promise<void>;
}

export interface SupervisionOptions extends EmbeddedDbOptions {
  onEvent: (event: LauncherEvent) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Binds 127.0.0.1:`port` for a moment: undefined if it could, else why not. */
function tryBind(port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () =>
      server.close(() => resolve(undefined)),
    );
  });
}

/**
 * Waits (up to PORT_WAIT_MS) for `port` to be free: another process may hold it for a moment
 * (a connection of this machine given it as its local port while nothing listened there).
 */
async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    const err = await tryBind(port);
    if (err === undefined) return;
    if (err.code !== "EADDRINUSE" || Date.now() >= deadline) {
      throw new Error(
        `port ${port} of 127.0.0.1, where the embedded database must come back (its clients ` +
          `keep that URI), is not free (${err.code ?? err.message})`,
      );
    }
    await sleep(100);
  }
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * A failed start's error in one line: its first line, and its last if there are more (a failed
 * start's message ends with the launcher's last stderr line, which most often names the cause).
 */
function summary(error: Error): string {
  const lines = error.message.split("\n").filter((line) => line.trim() !== "");
  const [first = error.message, last] = [lines[0], lines.at(-1)];
  return last === undefined || last === first ? first : `${first} … ${last.trim()}`;
}

/** How a launcher ended, in words: its exit code or signal, and a Go crash's first line. */
export function describeExit(exit: EmbeddedDbExit): string {
  const how =
    exit.signal === "SIGKILL"
      ? "killed by SIGKILL (kill -9, or the kernel's out-of-memory killer)"
      : exit.signal !== null
        ? `killed by ${exit.signal}`
        : `exited with code ${exit.code}`;
  return exit.crash === undefined ? how : `${how}: ${exit.crash}`;
}

/** An event as a log record: level, fields and message (stderr lines as a field). */
export function launcherEventLog(event: LauncherEvent): {
  level: "info" | "error" | "fatal";
  fields: Record<string, unknown>;
  msg: string;
} {
  const next = (ms: number | null) =>
    ms === null ? "too many failures" : `restarting it in ${seconds(ms)}`;
  switch (event.kind) {
    case "died":
      return {
        level: "error",
        fields: {
          launcherPid: event.pid,
          exitCode: event.exit.code,
          signal: event.exit.signal,
          stderr: event.exit.stderr,
        },
        msg: `embedded database died (launcher ${event.pid} ${describeExit(event.exit)}); ${next(event.restartInMs)}`,
      };
    case "restart-failed":
      return {
        level: "error",
        fields: { detail: event.error.message },
        msg: `embedded database restart failed (${summary(event.error)}); ${next(event.restartInMs)}`,
      };
    case "restarted":
      return {
        level: "info",
        fields: { launcherPid: event.pid, downMs: Math.round(event.downMs) },
        msg: `embedded database restarted (launcher ${event.pid}, ${event.uri}) after ${seconds(event.downMs)} down`,
      };
    case "gave-up":
      return { level: "fatal", fields: {}, msg: event.error.message };
  }
}

/**
 * Starts the embedded database (as `startEmbeddedDb`) and keeps it running until `stop()`: each
 * time the launcher exits unasked, it is started again on the same port after
 * RESTART_DELAYS_MS[n - 1], n being the failures (deaths and failed restarts) of the last
 * FAILURE_WINDOW_MS; past MAX_RESTARTS of them it gives up. `onEvent` hears each step.
 */
export async function superviseEmbeddedDb(
  options: SupervisionOptions,
): Promise<SupervisedEmbeddedDb> {
  const { onEvent } = options;
  let current: EmbeddedDb = await startEmbeddedDb(options);
  const port = Number(new URL(current.uri).port);
  const failures: number[] = [];
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;

  /** Counts a failure: the pause before the next restart, or null to give up. */
  const failed = (): number | null => {
    const now = Date.now();
    failures.push(now);
    while ((failures[0] ?? now) <= now - FAILURE_WINDOW_MS) failures.shift();
    return RESTART_DELAYS_MS[failures.length - 1] ?? null;
  };

  const giveUp = (last: string): void => {
    onEvent({
      kind: "gave-up",
      error: new Error(
        `The embedded database failed ${failures.length} times within ` +
          `${FAILURE_WINDOW_MS / 1000} s (last: ${last}); it is not restarted again.`,
      ),
    });
  };

  const restart = async (diedAt: number): Promise<void> => {
    let db: EmbeddedDb;
    try {
      await waitForPort(port);
      if (stopping) return;
      db = await runEmbeddedDb(current.bin, {
        dataDir: current.dataDir,
        port,
        onProgress: () => {},
      });
    } catch (err) {
      if (stopping) return;
      const error = err instanceof Error ? err : new Error(String(err));
      const restartInMs = failed();
      onEvent({ kind: "restart-failed", error, restartInMs });
      if (restartInMs === null) giveUp(`a restart failed: ${summary(error)}`);
      else schedule(restartInMs, diedAt);
      return;
    }
    if (stopping) {
      await db.stop();
      return;
    }
    current = db;
    watch(db);
    onEvent({ kind: "restarted", pid: db.pid, uri: db.uri, downMs: Date.now() - diedAt });
  };

  const schedule = (ms: number, diedAt: number): void => {
    timer = setTimeout(() => {
      timer = undefined;
      restarting = restart(diedAt).finally(() => {
        restarting = undefined;
      });
    }, ms);
    timer.unref(); // the owner's own work keeps it running, not a pending restart
  };

  const watch = (db: EmbeddedDb): void => {
    void db.exited.then((exit) => {
      if (stopping || exit.stopped) return;
      const restartInMs = failed();
      onEvent({ kind: "died", pid: db.pid, exit, restartInMs });
      if (restartInMs === null) giveUp(`launcher ${db.pid} ${describeExit(exit)}`);
      else schedule(restartInMs, Date.now());
    });
  };
  watch(current);

  let stopped: Promise<void> | undefined;
  return {
    uri: current.uri,
    get dataDir() {
      return current.dataDir;
    },
    get pid() {
      return current.pid;
    },
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        clearTimeout(timer);
        await restarting;
        await current.stop();
      })()),
  };
}

/**
 * The processes of bench/db-scaling.ts: the embedded database's launcher
 * (server/embedded-db/bin/pressroom-db) on a data directory, stock or patched, and the app as
 * `npm start` runs it, each read for the address it prints; their peak RSS from /proc.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { NODE_FLAGS } from "../start-flags.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Proc {
  pid: number;
  stop(): Promise<void>;
}

/** The children of this run: each is killed if the run ends early (exit, Ctrl-C, SIGTERM). */
export interface Children {
  /** Registers `child`; `stop()` ends it (SIGTERM, then SIGKILL after 15 s). */
  track(child: ChildProcess, name: string): Proc;
  /** Registers `child` until it exits. */
  watch(child: ChildProcess): void;
}

export function children(): Children {
  const running = new Set<ChildProcess>();
  const killAll = () => {
    for (const child of running) child.kill("SIGKILL");
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  const watch = (child: ChildProcess) => {
    running.add(child);
    child.once("exit", () => running.delete(child));
  };
  return {
    watch,
    track(child, name) {
      watch(child);
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      const pid = child.pid;
      if (pid === undefined) throw new Error(`${name} did not start`);
      return {
        pid,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
          await exited;
          clearTimeout(timer);
        },
      };
    },
  };
}

/** Resolves with the first line of `child`'s stdout that `pick` accepts; then drains the rest. */
function lineOf<T>(
  child: ChildProcess,
  name: string,
  pick: (line: string) => T | undefined,
  tail: string[],
): Promise<T> {
  const stdout = child.stdout;
  if (stdout === null) throw new Error(`${name}: no stdout`);
  const lines = createInterface({ input: stdout });
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => fail("gave no address within 120 s"), 120_000);
    function fail(why: string) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${name} ${why}. Last lines:\n${tail.join("\n")}`));
    }
    child.once("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    lines.on("line", (line) => {
      if (done) return;
      tail.push(line);
      if (tail.length > 30) tail.shift();
      const value = pick(line);
      if (value === undefined) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export function keepTail(child: ChildProcess, tail: string[]): void {
  if (child.stderr === null) return;
  createInterface({ input: child.stderr }).on("line", (line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
  });
}

/** The launcher binary on `dataDir`; `stock`: FerretDB's own query path. */
export async function startLauncher(
  group: Children,
  bin: string,
  dataDir: string,
  stock: boolean,
  port = "0",
): Promise<Proc & { uri: string }> {
  const flags = ["-listen", `127.0.0.1:${port}`, "-data-dir", dataDir, "-exit-on-stdin-close"];
  if (stock) flags.push("-exact-pushdown=false");
  const child = spawn(bin, flags, { stdio: ["pipe", "pipe", "pipe"] });
  const proc = group.track(child, "launcher");
  const tail: string[] = [];
  keepTail(child, tail);
  const uri = await lineOf(
    child,
    "the embedded database",
    (line) => {
      try {
        const { uri } = JSON.parse(line) as { uri?: unknown };
        return typeof uri === "string" ? uri : undefined;
      } catch {
        return undefined;
      }
    },
    tail,
  );
  return { ...proc, uri };
}

/** The standard OTEL_* variables of this process that turn the app's tracing on, if set. */
function tracingEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[0].startsWith("OTEL_") && e[1] !== undefined,
    ),
  );
}

/** The app as `npm start` runs it, on `uri`; resolves once it listens. */
export async function startApp(
  group: Children,
  uri: string,
  dbName: string,
  /** More of the app's settings (bench/editorial.ts turns the consumer rate limit off). */
  env: Record<string, string> = {},
): Promise<Proc & { url: string }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, "server/bin/pressroom.js", "start"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      MONGODB_URI: uri,
      MONGODB_DB: dbName,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      // A stock list at 50,000 blogs outlasts the default 5 s.
      DB_TIMEOUT_MS: "120000",
      // The app's tracing (README "Tracing"), when the run is traced: a span per request and
      // per database command, to see where a measure's time goes (the figures then include it).
      ...tracingEnv(),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = group.track(child, "app");
  const tail: string[] = [];
  keepTail(child, tail);
  const url = await lineOf(
    child,
    "the app",
    (line) => {
      try {
        const { url } = JSON.parse(line) as { url?: unknown };
        return typeof url === "string" ? url : undefined;
      } catch {
        return undefined;
      }
    },
    tail,
  );
  // Its access log (one JSON line per request) is read and dropped from here on.
  return { ...proc, url };
}

/** `VmHWM` (peak resident set since the process started) and `VmRSS` of `pid`, in bytes. */
export function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { peak: kB("VmHWM"), now: kB("VmRSS") };
}

/** The port of a `mongodb://host:port/` URI. */
export const portOf = (uri: string): string => {
  const port = /:(\d+)\/?$/.exec(uri)?.[1];
  if (port === undefined) throw new Error(`no port in ${uri}`);
  return port;
};

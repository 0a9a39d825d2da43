/**
 * The three servers bench/run.ts compares, each in its own child process, as production runs:
 * compiled JavaScript on plain `node` (no `--import tsx`, whose loader alone adds ~30 MB of RSS)
 * with the V8 flags of `npm start`. `compile` builds what they run first: server/dist
 * (`tsc -p server`, as `npm run build` does) and bench/dist (`tsc -p bench`, which also
 * type-checks bench/). The two that speak to the database (Pressroom and the driver baseline)
 * reach it through a bench/db-counter.ts of their own; the SQLite floor reads its file itself.
 * A server's stats carry the database process's CPU time too (0 for the floor, whose database
 * work is in its own process): the windows of the servers never overlap, so the database's CPU
 * in a window is the work of the server measured in it.
 */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ControlMessage, ServerStats } from "./child-control.js";
import type { DbCounters } from "./db-counter.js";
import type { Child, Stats } from "./measure.js";
import { treeCpuMs } from "./process-cpu.js";
import { NODE_FLAGS } from "./start-flags.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where `tsc -p bench` puts the compiled bench/*.ts (bench/tsconfig.json: rootDir "..", outDir "dist"). */
const COMPILED = path.join(ROOT, "bench", "dist", "bench");

/** Runs the repository's own TypeScript compiler on a project; its messages go to stderr. */
export function compile(project: string, log: (line: string) => void): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  log(`tsc -p ${project}…`);
  execFileSync(process.execPath, [tsc, "-p", project], { cwd: ROOT, stdio: ["ignore", 2, 2] });
}

/** Forks a compiled bench script; resolves with the `ready` value it sends once it serves. */
async function forkReady(
  name: string,
  script: string,
  env: Record<string, string>,
  execArgv: string[],
): Promise<{ child: ChildProcess; ready: string }> {
  const child = fork(path.join(COMPILED, script), [], {
    cwd: ROOT,
    // Plain node, not this process's tsx loader (which fork would pass on by default).
    execArgv,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    // Pressroom logs one JSON line per request to stdout, as in production; it goes nowhere.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const ready = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${name} exited (${code})`)));
    child.on("message", (m: { ready?: string }) => {
      if (m.ready !== undefined) resolve(m.ready);
    });
  });
  return { child, ready };
}

/** A control message before `asker` gives it its id. */
type Request = ControlMessage extends infer M ? (M extends unknown ? Omit<M, "id"> : never) : never;

/** Sends `message` with a fresh id; resolves with the `stats` of the answer carrying that id. */
function asker(child: ChildProcess) {
  let next = 0;
  return <T>(message: Request) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      const onMessage = (m: { id?: number; stats?: T }) => {
        if (m.id !== id || m.stats === undefined) return;
        child.off("message", onMessage);
        resolve(m.stats);
      };
      child.on("message", onMessage);
      child.send({ ...message, id });
    });
}

const NO_DB_COUNTS: DbCounters = { apiKeyUpdates: 0, blogDocs: 0, blogDocsWithBody: 0 };

/** Starts the SQLite floor (floor-server.js) on the database file `sqliteFile`. */
export async function startFloor(sqliteFile: string): Promise<Child> {
  const server = await forkReady("floor server", "floor-server.js", { FLOOR_SQLITE: sqliteFile }, [
    ...NODE_FLAGS,
    "--disable-warning=ExperimentalWarning",
  ]);
  const askServer = asker(server.child);
  const ask = async (message: Request): Promise<Stats> => {
    const own = await askServer<ServerStats>(message);
    return { ...own, dbCpuMicros: 0, counters: { ...own.counters, ...NO_DB_COUNTS } };
  };
  return child("floor", server.ready, () => server.child.kill("SIGKILL"), ask);
}

function child(
  name: Child["name"],
  url: string,
  kill: () => void,
  ask: (message: Request) => Promise<Stats>,
): Child {
  return {
    name,
    url,
    idleCpuPerSec: 0,
    idleDbCpuPerSec: 0,
    kill,
    stats: () => ask({ type: "stats" }),
    resetPeak: () => ask({ type: "reset-peak" }),
    profileStart: () => ask({ type: "profile-start" }),
    profileStop: (file) => ask({ type: "profile-stop", file }),
  };
}

/**
 * Starts `script` (baseline-server.js or pressroom-server.js) on the database at `dbUri`,
 * through a db-counter of its own; `env` is added to the server's environment. `dbPid` is the
 * database's process, whose CPU time the stats carry.
 */
export async function startServer(
  name: Child["name"],
  script: string,
  dbUri: string,
  dbPid: number,
  env: Record<string, string>,
): Promise<Child> {
  const counter = await forkReady(
    `${name}'s db-counter`,
    "db-counter.js",
    {
      DB_COUNTER_TARGET: dbUri,
    },
    [],
  );
  const server = await forkReady(
    `${name} server`,
    script,
    { ...env, MONGODB_URI: counter.ready },
    NODE_FLAGS,
  ).catch((err: unknown) => {
    counter.child.kill("SIGKILL");
    throw err;
  });
  const askServer = asker(server.child);
  const askCounter = asker(counter.child);
  const ask = async (message: Request): Promise<Stats> => {
    const [own, db] = await Promise.all([
      askServer<ServerStats>(message),
      askCounter<DbCounters>({ type: "stats" }),
    ]);
    return { ...own, dbCpuMicros: treeCpuMs(dbPid) * 1000, counters: { ...own.counters, ...db } };
  };
  const kill = () => {
    server.child.kill("SIGKILL");
    counter.child.kill("SIGKILL");
  };
  return child(name, server.ready, kill, ask);
}

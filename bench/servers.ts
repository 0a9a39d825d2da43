/**
 * The two servers bench/run.ts compares, each in its own child process, as production runs:
 * compiled JavaScript on plain `node` (no `--import tsx`, whose loader alone adds ~30 MB of RSS)
 * with the V8 flags of `npm start`. `compile` builds what they run first: server/dist
 * (`tsc -p server`, as `npm run build` does) and bench/dist (`tsc -p bench`, which also
 * type-checks bench/).
 */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ControlMessage, Stats } from "./child-control.js";
import type { Child } from "./measure.js";
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

/** Starts `script` (baseline-server.js or pressroom-server.js); `env` is added to its environment. */
export async function startServer(
  name: Child["name"],
  script: string,
  env: Record<string, string>,
): Promise<Child> {
  const server = await forkReady(`${name} server`, script, env, NODE_FLAGS);
  const ask = asker(server.child);
  return {
    name,
    url: server.ready,
    idleCpuPerSec: 0,
    kill: () => server.child.kill("SIGKILL"),
    stats: () => ask<Stats>({ type: "stats" }),
    resetPeak: () => ask<Stats>({ type: "reset-peak" }),
    profileStart: () => ask<Stats>({ type: "profile-start" }),
    profileStop: (file) => ask<Stats>({ type: "profile-stop", file }),
  };
}

// Embedded MongoDB-compatible server (FerretDB + SQLite) for development and tests.
// The Go program in server/embedded-db/ is built on first use; see its README for limits.
// Longer than our ~250-line rule on purpose: building the binary (source stamp, FerretDB
// preparation, `go build` under a lock) and starting it share one set of paths and are
// described as one unit, "launcher.ts", by server/embedded-db/README.md.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { findGo, type GoCommand } from "./go-toolchain.js";
import { withLockFile } from "./lock-file.js";

export interface EmbeddedDbOptions {
  dataDir: string;
  /** Default 0 = pick a free port. */
  port?: number;
  /** Build progress and status lines for humans; default: write to process.stderr. */
  onProgress?: (line: string) => void;
  /** Where the built binary is kept; default server/embedded-db/bin. */
  binDir?: string;
  /** The environment `go` is looked up in (PATH) and run with; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** How a launcher ended. */
export interface EmbeddedDbExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Whether `stop()` asked for it. */
  readonly stopped: boolean;
  /**
   * Its last lines on stderr (at most 10, each cut to 500 characters), without FerretDB's dumps
   * of failed commands' requests and responses: those are about a command, not about the exit,
   * and may quote its values.
   */
  readonly stderr: readonly string[];
  /** The line a Go crash begins with (`panic: …`, `fatal error: …`), when it crashed so. */
  readonly crash: string | undefined;
}

export interface EmbeddedDb {
  readonly uri: string;
  readonly dataDir: string;
  /** The launcher's process id. */
  readonly pid: number;
  /** The binary it runs, to start it again without the build check (`runEmbeddedDb`). */
  readonly bin: string;
  /** Settles once the launcher has exited, whatever ended it (never rejects). */
  readonly exited: Promise<EmbeddedDbExit>;
  /** SIGTERM, wait for exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

// Both src/platform/embedded-db/launcher.ts and its dist/ twin sit three levels below server/.
const SOURCE_DIR = fileURLToPath(new URL("../../../embedded-db/", import.meta.url));
const DEFAULT_BIN_DIR = path.join(SOURCE_DIR, "bin");
const BIN_NAME = "pressroom-db";
const START_TIMEOUT_MS = 60_000;
const defaultProgress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Keeps the last 50 lines of `input` in `tail`, calling `onLine` for each. */
function keepTail(input: Readable, tail: string[], onLine?: (line: string) => void): void {
  createInterface({ input }).on("line", (line) => {
    tail.push(line);
    if (tail.length > 50) tail.shift();
    onLine?.(line);
  });
}

async function sourceStamp(): Promise<string> {
  const hash = createHash("sha256");
  const goFiles = (await readdir(SOURCE_DIR))
    .filter((name) => name.endsWith(".go") && !name.endsWith("_test.go"))
    .sort();
  // ferretdb.patch and the script that applies it make the FerretDB we build (prepare-ferretdb.mjs).
  for (const name of [...goFiles, "go.mod", "go.sum", "ferretdb.patch", "prepare-ferretdb.mjs"]) {
    hash.update(name);
    hash.update(await readFile(path.join(SOURCE_DIR, name)));
  }
  return hash.digest("hex");
}

async function isUpToDate(binPath: string, stamp: string): Promise<boolean> {
  try {
    await stat(binPath);
    return (await readFile(`${binPath}.stamp`, "utf8")).trim() === stamp;
  } catch {
    return false;
  }
}

/** Makes .ferretdb/, the patched FerretDB that go.mod points at (see prepare-ferretdb.mjs). */
async function prepareFerretDb(go: GoCommand, onProgress: (line: string) => void): Promise<void> {
  onProgress("  FerretDB v1.24.2: downloading it unless cached, applying ferretdb.patch…");
  const child = spawn(process.execPath, [path.join(SOURCE_DIR, "prepare-ferretdb.mjs")], {
    cwd: SOURCE_DIR,
    env: go.env, // its `go mod download` runs the go first on this PATH
    stdio: ["ignore", "ignore", "pipe"],
  });
  const tail: string[] = [];
  keepTail(child.stderr, tail, (line) => onProgress(`  ${line}`));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) {
    throw new Error(`preparing the patched FerretDB failed (exit ${code}):\n${tail.join("\n")}`);
  }
}

/**
 * The packages of the build (`go list -deps`), for "N of M packages compiled"; undefined if
 * unknown. Its stderr lines (Go's module downloads) go to onStderr.
 */
function listPackages(
  go: GoCommand,
  children: ChildProcess[],
  onStderr: (line: string) => void,
): Promise<string[] | undefined> {
  const child = spawn(go.go, ["list", "-mod=readonly", "-deps", "."], {
    cwd: SOURCE_DIR,
    env: buildEnv(go),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const packages: string[] = [];
  keepTail(child.stderr, [], onStderr);
  createInterface({ input: child.stdout }).on("line", (line) => packages.push(line));
  return new Promise((resolve) => {
    child.once("error", () => resolve(undefined));
    child.once("close", (code) => resolve(code === 0 ? packages : undefined));
  });
}

/**
 * Never another toolchain (GOTOOLCHAIN=local), and no cgo: the program is pure Go (SQLite is
 * modernc's), so no C compiler is needed, nor used if one is found (on macOS a /usr/bin/clang
 * stub that asks for the Xcode tools would otherwise turn cgo on and fail the build).
 */
const buildEnv = (go: GoCommand) => ({ ...go.env, GOTOOLCHAIN: "local", CGO_ENABLED: "0" });

/** The Go to build with: PATH's if new enough, else the pinned toolchain (go-toolchain.ts). */
export async function findBuildGo(env: NodeJS.ProcessEnv, onProgress: (line: string) => void) {
  const goMod = await readFile(path.join(SOURCE_DIR, "go.mod"), "utf8");
  const minimum = /^go (\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
  if (!minimum) throw new Error("server/embedded-db/go.mod has no go line");
  const pin = JSON.parse(await readFile(path.join(SOURCE_DIR, "go-toolchain.json"), "utf8"));
  return findGo({ env, minimum, pin, onProgress });
}

async function goBuild(
  binPath: string,
  env: NodeJS.ProcessEnv,
  onProgress: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const elapsed = () => Math.round((Date.now() - started) / 1000);
  const go = await findBuildGo(env, onProgress);
  onProgress(`  Go: ${go.go === "go" ? "`go` on PATH" : go.go} (${go.version})`);
  await prepareFerretDb(go, onProgress);
  onProgress("  compiling (go build); Go first downloads the modules it lacks…");
  const tmp = `${path.dirname(binPath)}/.${BIN_NAME}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const args = ["build", "-v", "-trimpath", "-mod=readonly", "-buildvcs=false", "-o", tmp, "."];
  const children: ChildProcess[] = [];
  const downloads = new Set<string>();
  const onDownload = (line: string) => {
    if (!line.startsWith("go: downloading ")) return;
    if (downloads.size === 0) onProgress("  downloading Go modules…");
    downloads.add(line);
  };
  // Listed alongside the build: both wait for the same downloads (Go locks its module cache).
  let all: string[] | undefined;
  void listPackages(go, children, onDownload).then((packages) => {
    all = packages;
  });
  const child = spawn(go.go, args, {
    cwd: SOURCE_DIR,
    env: buildEnv(go),
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  const tail: string[] = [];
  let packages = 0;
  let latest = "";
  keepTail(child.stderr, tail, (line) => {
    if (line.startsWith("go: ")) onDownload(line);
    else if (/^[\w.\-/]+$/.test(line)) [packages, latest] = [packages + 1, line];
  });
  const ticker = setInterval(() => {
    const dl = downloads.size > 0 ? `${downloads.size} modules downloaded, ` : "";
    const of = all ? ` of ${all.length}` : "";
    // go build -v names the main package last, once it is compiled; linking follows.
    const now = latest && latest === all?.at(-1) ? ", linking" : latest ? ` (${latest})` : "";
    onProgress(`  … ${elapsed()} s: ${dl}${packages}${of} packages compiled${now}`);
  }, 10_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    });
    const failed = `go build of the embedded database failed (exit ${code})`;
    if (code !== 0) throw new Error(`${failed}:\n${tail.join("\n")}`);
    await rename(tmp, binPath);
  } finally {
    clearInterval(ticker);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
    await rm(tmp, { force: true });
  }
  onProgress(`Embedded database built in ${elapsed()} s.`);
}

const building = new Map<string, Promise<string>>();

/**
 * Builds `<binDir>/pressroom-db` (default server/embedded-db/bin) if missing or out of date;
 * returns its path. `env` is where `go` is looked up and what it runs with.
 */
export function ensureEmbeddedDbBinary(
  onProgress = defaultProgress,
  { binDir = DEFAULT_BIN_DIR, env = process.env }: Pick<EmbeddedDbOptions, "binDir" | "env"> = {},
): Promise<string> {
  const binPath = path.join(path.resolve(binDir), BIN_NAME);
  const pending = building.get(binPath);
  if (pending) return pending;
  const build = (async () => {
    const stamp = await sourceStamp();
    if (await isUpToDate(binPath, stamp)) return binPath;
    await mkdir(path.dirname(binPath), { recursive: true });
    const waiting = () => onProgress("Another process is building the embedded database; waiting…");
    return withLockFile(`${binPath}.lock`, waiting, async () => {
      if (await isUpToDate(binPath, stamp)) return binPath; // built by whoever held the lock
      onProgress(
        "Building the embedded database (FerretDB): first run or changed sources; a cold build takes a few minutes…",
      );
      await goBuild(binPath, env, onProgress);
      await writeFile(`${binPath}.stamp.${process.pid}`, stamp);
      await rename(`${binPath}.stamp.${process.pid}`, `${binPath}.stamp`);
      return binPath;
    });
  })().finally(() => building.delete(binPath));
  building.set(binPath, build);
  return build;
}

async function waitForUri(child: ChildProcess, tail: string[]): Promise<string> {
  const stdout = child.stdout;
  if (!stdout) throw new Error("embedded database: no stdout pipe");
  const lines = createInterface({ input: stdout });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      const fail = (why: string) =>
        reject(new Error(`Embedded database ${why}.\nLast log lines:\n${tail.join("\n")}`));
      const limit = `gave no URI within ${START_TIMEOUT_MS / 1000} s`;
      timer = setTimeout(() => fail(limit), START_TIMEOUT_MS);
      child.once("error", (err) => fail(`could not start: ${err.message}`));
      child.once("exit", (code, signal) =>
        fail(`exited before it was ready (${signal ?? `code ${code}`})`),
      );
      lines.once("line", (line) => {
        try {
          const { uri } = JSON.parse(line) as { uri?: unknown };
          if (typeof uri !== "string") throw new Error("no uri field");
          resolve(uri);
        } catch (err) {
          fail(`printed an unexpected line ${JSON.stringify(line)} (${String(err)})`);
        }
      });
    });
  } finally {
    clearTimeout(timer);
    lines.close();
    stdout.resume(); // keep draining; nothing else is expected
  }
}

/**
 * Starts the embedded database. The child exits when this process does (its stdin closes),
 * and it does not keep the Node event loop alive on its own.
 */
export async function startEmbeddedDb(options: EmbeddedDbOptions): Promise<EmbeddedDb> {
  const onProgress = options.onProgress ?? defaultProgress;
  return runEmbeddedDb(await ensureEmbeddedDbBinary(onProgress, options), {
    ...options,
    onProgress,
  });
}

/** A line of stderr as kept for an exit's report. */
const cutLine = (line: string): string => (line.length > 500 ? `${line.slice(0, 500)}…` : line);
/** FerretDB's log lines dumping one command's request or response (conn.go, logResponse). */
const COMMAND_DUMP = /\bmsg="(proxy )?(request|response) (header|message):/i;

/** `startEmbeddedDb` with the binary `bin` as it is (no build check): what a restart runs. */
export async function runEmbeddedDb(
  bin: string,
  options: Pick<EmbeddedDbOptions, "dataDir" | "port" | "onProgress">,
): Promise<EmbeddedDb> {
  const onProgress = options.onProgress ?? defaultProgress;
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}`);
  const dataDir = path.resolve(options.dataDir);
  const args = ["-listen", `127.0.0.1:${port}`, "-data-dir", dataDir, "-exit-on-stdin-close"];
  const child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"] });
  const tail: string[] = [];
  const report: string[] = []; // the last 10 lines of `tail` that are not command dumps
  let crash: string | undefined;
  keepTail(child.stderr, tail, (line) => {
    if (/^(panic|fatal error): /.test(line)) crash ??= cutLine(line);
    if (COMMAND_DUMP.test(line)) return;
    report.push(cutLine(line));
    if (report.length > 10) report.shift();
  });
  let stopped = false;
  // "close": after the exit and the end of its output, so the tail is whole.
  const exited = new Promise<EmbeddedDbExit>((resolve) =>
    child.once("close", (code, signal) =>
      resolve({ code, signal, stopped, stderr: [...report], crash }),
    ),
  );

  let uri: string;
  try {
    uri = await waitForUri(child, tail);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as { unref?: () => void } | null)?.unref?.();
  }

  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    stopped = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  onProgress(`Embedded database (FerretDB/SQLite) at ${uri}, data in ${dataDir}`);
  return {
    uri,
    dataDir,
    pid: child.pid ?? 0,
    bin,
    exited,
    stop: () => (stopping ??= stop()),
  };
}

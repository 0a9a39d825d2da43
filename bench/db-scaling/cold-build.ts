/**
 * `--cold-build` of bench/db-scaling.ts: the launcher built from nothing (empty GOMODCACHE and
 * GOCACHE), from a `git worktree` of HEAD so that .ferretdb/ of this checkout is not touched:
 * prepare-ferretdb.mjs, then go build, each timed.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Children, keepTail } from "./processes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ColdBuild {
  prepareS: number;
  buildS: number;
}

function timed(
  group: Children,
  command: string,
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    group.watch(child);
    const tail: string[] = [];
    let packages = 0;
    keepTail(child, tail);
    child.stderr?.on("data", (chunk: Buffer) => {
      packages += chunk.toString().split("\n").length - 1;
    });
    const ticker = setInterval(() => {
      const s = Math.round((performance.now() - started) / 1000);
      log(`  … ${s} s: ${command} ${argv[0] ?? ""} (${packages} lines of progress)`);
    }, 15_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearInterval(ticker);
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`${command} ${argv.join(" ")} exited ${code}:\n${tail.join("\n")}`));
    });
  });
}

export async function coldBuild(group: Children, log: (line: string) => void): Promise<ColdBuild> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-coldbuild-"));
  const tree = path.join(tmp, "src");
  log(`Cold build of the launcher: git worktree of HEAD in ${tree}, empty GOMODCACHE and GOCACHE…`);
  execFileSync("git", ["worktree", "add", "--detach", tree, "HEAD"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  try {
    const env = {
      ...process.env,
      GOMODCACHE: path.join(tmp, "gomodcache"),
      GOCACHE: path.join(tmp, "gocache"),
      GOTOOLCHAIN: "local",
    };
    const dir = path.join(tree, "server", "embedded-db");
    const prepareS = await timed(group, process.execPath, ["prepare-ferretdb.mjs"], dir, env, log);
    log(`  prepare-ferretdb.mjs: ${prepareS.toFixed(1)} s`);
    const out = path.join(tmp, "pressroom-db");
    const buildS = await timed(
      group,
      "go",
      ["build", "-v", "-trimpath", "-mod=readonly", "-buildvcs=false", "-o", out, "."],
      dir,
      env,
      log,
    );
    log(`  go build: ${buildS.toFixed(1)} s`);
    return { prepareS, buildS };
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
    // The module cache is read-only, as Go makes it.
    execFileSync("chmod", ["-R", "u+w", tmp], { stdio: "ignore" });
    await rm(tmp, { recursive: true, force: true });
  }
}

import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { SDK_DIR } from "./sdk-build.js";

/**
 * The SDK as a consumer gets it: `npm pack` of sdk/ (dist/ as `npm run build` left it — packing
 * runs no build script), installed from the tarball into a fresh project outside this repository.
 */

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects with its output when it exits non-zero or outlives `timeoutMs`. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 150_000,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

export interface Packed {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** The paths inside the package, sorted. */
  files: string[];
}

/** What `npm pack --json` says of one package it packed. */
export interface PackEntry {
  filename: string;
  files: { path: string }[];
}

/**
 * The one package `npm pack --json` packed. npm 11 and older print an array of entries; npm 12
 * prints an object keyed by package name (npm/cli#9247, "sync json output of pack and publish").
 */
export function packedOne(stdout: string): PackEntry {
  const parsed = JSON.parse(stdout) as PackEntry[] | Record<string, PackEntry>;
  const entries = Array.isArray(parsed) ? parsed : Object.values(parsed);
  const [info] = entries;
  if (entries.length !== 1 || info === undefined || typeof info.filename !== "string") {
    throw new Error(`npm pack printed not one package:\n${stdout}`);
  }
  return info;
}

/** `npm pack` of sdk/ into `dest`. */
export async function packSdk(dest: string): Promise<Packed> {
  const packed = await run("npm", ["pack", "--json", "--pack-destination", dest], SDK_DIR);
  const info = packedOne(packed.stdout);
  return {
    tarball: path.join(dest, info.filename),
    files: info.files.map((f) => f.path).sort(),
  };
}

/**
 * A new ESM project in `dir` with the tarball (and `extra` packages, e.g. typescript) installed
 * by `npm install` — from the registry, or npm's cache when it has them.
 */
export async function consumerProject(
  dir: string,
  tarball: string,
  extra: string[] = [],
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await run("npm", ["init", "-y"], dir);
  await run("npm", ["pkg", "set", "type=module"], dir);
  await run(
    "npm",
    ["install", tarball, ...extra, "--no-audit", "--no-fund", "--prefer-offline"],
    dir,
  );
}

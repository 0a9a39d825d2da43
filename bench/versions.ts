/** The versions, machine and commit a bench/run.ts report names. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const git = (...args: string[]): string => {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
};

const installed = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

export function versions(): Record<string, string> {
  const goMod = readFileSync(path.join(ROOT, "server/embedded-db/go.mod"), "utf8");
  const cpus = os.cpus();
  const clean = git("status", "--porcelain", "server", "bench") === "";
  return {
    date: new Date().toISOString(),
    machine: `${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    express: installed("express"),
    validator: installed("express-openapi-validator"),
    mongodb: installed("mongodb"),
    autocannon: installed("autocannon"),
    ferretdb: /FerretDB\/FerretDB (v[\d.]+)/.exec(goMod)?.[1] ?? "unknown",
    commit: `${git("rev-parse", "--short", "HEAD")}${clean ? "" : " + uncommitted changes"}`,
  };
}

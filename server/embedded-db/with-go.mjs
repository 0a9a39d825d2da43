#!/usr/bin/env node
// Runs a command with the Go that builds the embedded database first on PATH: the `go` on PATH if
// it is new enough, else the official toolchain that server/src/platform/embedded-db/launcher.ts fetches (see README.md, "Without
// Go"). `npm run test:db` runs `go test` through it. Needs server/dist (npm run build).
//   node with-go.mjs <command> [args…]
import { spawnSync } from "node:child_process";

const { findBuildGo } = await import("../dist/platform/embedded-db/launcher.js");
const go = await findBuildGo(process.env, (line) => process.stderr.write(`${line}\n`));
const [command = "go", ...args] = process.argv.slice(2);
const run = spawnSync(command, args, {
  stdio: "inherit",
  env: { ...go.env, GOTOOLCHAIN: "local" },
});
if (run.error) throw run.error;
process.exit(run.status ?? 1);

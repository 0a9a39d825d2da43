#!/usr/bin/env node
// Writes go-toolchain.json: the Go toolchain that server/src/platform/embedded-db/launcher.ts fetches when no suitable `go` is on
// PATH, and the h1: hash of its module zip per platform, as go.sum and sum.golang.org record it.
// Run by a maintainer, with a Go of their own: `node pin-go-toolchain.mjs go1.26.8`.
// `go mod download` checks each zip against the checksum database (GOSUMDB=sum.golang.org; Go
// reaches it through the module proxy when sum.golang.org itself is unreachable) and prints the
// hash it verified. The zips go to a throwaway module cache (4 × ~70 MB), deleted afterwards.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];
const OUT = fileURLToPath(new URL("go-toolchain.json", import.meta.url));
const version = process.argv[2] ?? "";
if (!/^go1\.\d+\.\d+$/.test(version)) {
  process.stderr.write("usage: node pin-go-toolchain.mjs go1.N.P\n");
  process.exit(2);
}

const modcache = mkdtempSync(path.join(tmpdir(), "pin-go-toolchain-"));
const h1 = {};
try {
  for (const platform of PLATFORMS) {
    const module = `golang.org/toolchain@v0.0.1-${version}.${platform}`;
    const env = { ...process.env, GOTOOLCHAIN: "local", GOMODCACHE: modcache };
    // Nothing may switch the checksum database off for this module.
    Object.assign(env, { GOSUMDB: "sum.golang.org", GOFLAGS: "-modcacherw" });
    for (const name of ["GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GOINSECURE"]) delete env[name];
    const run = spawnSync("go", ["mod", "download", "-json", module], {
      cwd: modcache,
      env,
      encoding: "utf8",
    });
    const info = run.status === 0 ? JSON.parse(run.stdout) : {};
    if (!info.Sum?.startsWith("h1:")) {
      process.stderr.write(`${module}: ${info.Error ?? run.stderr ?? run.error}\n`);
      process.exit(1);
    }
    h1[platform] = info.Sum;
    process.stderr.write(`${module} ${info.Sum}\n`);
  }
} finally {
  rmSync(modcache, { recursive: true, force: true });
}
writeFileSync(OUT, `${JSON.stringify({ version, h1 }, null, 2)}\n`);
process.stderr.write(`wrote ${OUT}\n`);

#!/usr/bin/env node
// Produces server/embedded-db/.ferretdb/, the patched FerretDB that go.mod's `replace` points at:
// FerretDB v1.24.2 as the Go module proxy serves it (downloaded by `go mod download`, which
// checks it against go.sum; its hash is compared with go.sum here too), plus ferretdb.patch,
// applied strictly (every context line must match at its stated line; no fuzz, no offsets).
// Deterministic and idempotent: skipped when .ferretdb/ was made from the same inputs.
// Run before any `go` command in this directory (server/src/platform/embedded-db/launcher.ts and `npm run test:db` do).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MODULE = "github.com/FerretDB/FerretDB";
const VERSION = "v1.24.2";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, ".ferretdb");
const PATCH = path.join(HERE, "ferretdb.patch");
const STAMP = path.join(OUT, ".pressroom-stamp");

const fail = (message) => {
  process.stderr.write(`prepare-ferretdb: ${message}\n`);
  process.exit(1);
};

const patch = readFileSync(PATCH, "utf8");
const stamp = createHash("sha256")
  .update(`${MODULE}@${VERSION}\n`)
  .update(patch)
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest("hex");
if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp) process.exit(0);

// The pristine module, verified by Go against go.sum.
const download = spawnSync("go", ["mod", "download", "-json", `${MODULE}@${VERSION}`], {
  cwd: HERE,
  env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" },
  encoding: "utf8",
});
if (download.error) fail(`cannot run go: ${download.error.message}`);
if (download.status !== 0) fail(`go mod download failed:\n${download.stdout}${download.stderr}`);
const info = JSON.parse(download.stdout);
const wantSum = readFileSync(path.join(HERE, "go.sum"), "utf8")
  .split("\n")
  .find((line) => line.startsWith(`${MODULE} ${VERSION} h1:`))
  ?.split(" ")[2];
if (info.Error || !info.Dir || info.Sum !== wantSum) {
  fail(`${MODULE}@${VERSION}: ${info.Error ?? `sum ${info.Sum}, go.sum has ${wantSum}`}`);
}

// A fresh copy (the module cache is read-only), patched, then moved into place.
const tmp = `${OUT}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
cpSync(info.Dir, tmp, { recursive: true });
const makeWritable = (dir) => {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
};
makeWritable(tmp);

/** Applies a unified diff (as `diff -ruN a b` writes it) to the tree at root, strictly. */
function applyPatch(root, text) {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let i = 0;
  while (i < lines.length) {
    if (!lines[i].startsWith("--- ") || !lines[i + 1]?.startsWith("+++ b/")) {
      fail(`ferretdb.patch line ${i + 1}: expected a "--- a/…" and "+++ b/…" header`);
    }
    const file = lines[i + 1].slice("+++ b/".length);
    const target = path.join(root, file);
    if (!target.startsWith(root + path.sep))
      fail(`ferretdb.patch: path outside the module: ${file}`);
    i += 2;
    const old = existsSync(target) ? readFileSync(target, "utf8").split("\n") : [""];
    const out = [];
    let pos = 0; // index in old of the next line not yet copied
    while (i < lines.length && lines[i].startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i]);
      if (!m) fail(`ferretdb.patch line ${i + 1}: bad hunk header`);
      const oldStart = Number(m[1]);
      const oldLen = m[2] === undefined ? 1 : Number(m[2]);
      const start = oldLen === 0 ? oldStart : oldStart - 1;
      if (start < pos) fail(`ferretdb.patch line ${i + 1}: overlapping hunks in ${file}`);
      out.push(...old.slice(pos, start));
      pos = start;
      i += 1;
      while (i < lines.length && /^[ +\-\\]/.test(lines[i]) && !lines[i].startsWith("--- ")) {
        const [tag, body] = [lines[i][0], lines[i].slice(1)];
        if (tag === "\\")
          fail(`ferretdb.patch line ${i + 1}: "No newline at end of file" is not supported`);
        if (tag === "+") out.push(body);
        else {
          if (old[pos] !== body)
            fail(`ferretdb.patch line ${i + 1}: ${file}:${pos + 1} does not match`);
          if (tag === " ") out.push(body);
          pos += 1;
        }
        i += 1;
      }
    }
    out.push(...old.slice(pos));
    writeFileSync(target, out.join("\n"));
  }
}

applyPatch(tmp, patch);
writeFileSync(path.join(tmp, ".pressroom-stamp"), stamp);
rmSync(OUT, { recursive: true, force: true });
renameSync(tmp, OUT);
process.stderr.write(`prepare-ferretdb: ${OUT} = ${MODULE}@${VERSION} + ferretdb.patch\n`);

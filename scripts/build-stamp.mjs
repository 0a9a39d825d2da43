// `npm start` builds only when something changed since the last `npm run build` (README,
// "Scripts and CI"). The stamp is a hash of every file git knows in the working tree (tracked, or
// untracked and not ignored: what a build could read), kept in node_modules/.cache/pressroom/.
//
//   node scripts/build-stamp.mjs begin   the first step of `npm run build`: the hash as it starts
//   node scripts/build-stamp.mjs end     its last step: that build is done
//   node scripts/build-stamp.mjs start   `npm start`'s first step: `npm run build` unless the
//                                        last build is of the files as they are and its outputs
//                                        are all there
//
// The hash is taken before the build reads anything, so a file saved while a build runs makes the
// next start build again. Without git (a tree that is not a clone) every start builds, as before.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What `npm start` serves from: each must exist for the build to count as done. */
const OUTPUTS = [
  "server/dist/cli/main.js",
  "server/dist/docs/index.html",
  "dashboard/dist/index.html",
  "packages/tag-rule/dist/tag-rule.js",
];

/** Where the stamp lives: beside the installed packages, so `npm ci` starts without one. */
const stampPath = (root) =>
  path.join(root, "node_modules", ".cache", "pressroom", "build-stamp.json");

/**
 * The hash of the working tree's files as git lists them (`--cached --others
 * --exclude-standard`), each by its path and content (a file listed but gone counts as gone); or
 * null when git cannot list them.
 */
function treeHash(root) {
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  if (listed.status !== 0 || listed.stdout === null) return null;
  const files = [...new Set(listed.stdout.toString("utf8").split("\0").filter(Boolean))].sort();
  const hash = createHash("sha256");
  for (const file of files) {
    let content;
    try {
      content = createHash("sha256")
        .update(readFileSync(path.join(root, file)))
        .digest("hex");
    } catch {
      content = "gone";
    }
    hash.update(`${file}\0${content}\n`);
  }
  return hash.digest("hex");
}

function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root), "utf8"));
    return typeof stamp === "object" && stamp !== null ? stamp : {};
  } catch {
    return {};
  }
}

function writeStamp(root, stamp) {
  const file = stampPath(root);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(stamp)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** `begin`: the tree's hash now, for `end` to record once the build is done. */
function begin(root) {
  writeStamp(root, { building: treeHash(root) });
}

/** `end`: the build that `begin` started is done. */
function end(root) {
  const { building } = readStamp(root);
  writeStamp(root, typeof building === "string" ? { built: building } : {});
}

/** Why the last build is not of the tree as it is, or null when it is. */
function staleness(root) {
  const missing = OUTPUTS.find((output) => !existsSync(path.join(root, output)));
  if (missing !== undefined) return `${missing} is missing`;
  const now = treeHash(root);
  if (now === null) return "git cannot list the files to tell";
  const { built } = readStamp(root);
  if (built === undefined) return "no build of this checkout has finished";
  if (built !== now) return "files changed since the last build";
  return null;
}

function main(command) {
  if (command === "begin") return begin(ROOT);
  if (command === "end") return end(ROOT);
  if (command === "start") {
    const why = staleness(ROOT);
    if (why === null) {
      process.stdout.write("Build is current: no file changed since the last `npm run build`.\n");
      return;
    }
    process.stdout.write(`Building first: ${why}.\n`);
    // The npm that runs `npm start` (npm_execpath), else the one on PATH.
    const npm = process.env.npm_execpath || undefined;
    const built =
      npm === undefined
        ? spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit", shell: false })
        : spawnSync(process.execPath, [npm, "run", "build"], { cwd: ROOT, stdio: "inherit" });
    process.exitCode = built.status ?? 1;
    return;
  }
  process.stderr.write("Usage: node scripts/build-stamp.mjs begin|end|start\n");
  process.exitCode = 2;
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  main(process.argv[2]);
}

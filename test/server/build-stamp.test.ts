import { execFile, execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/build-stamp.mjs", import.meta.url));

// What the stand-in build writes: the outputs `npm start` serves from, and one line per build in
// an ignored file, so that the test counts builds. FAKE_BUILD_FAILS=1 makes it fail; a file named
// `edit-during-build` makes it change a tracked file while it runs (once: it removes the name).
const FAKE_BUILD = `
const fs = require("node:fs");
if (process.env.FAKE_BUILD_FAILS === "1") process.exit(1);
if (fs.existsSync("edit-during-build")) {
  fs.appendFileSync("src.txt", "edited meanwhile\\n");
  fs.rmSync("edit-during-build");
}
for (const f of ${JSON.stringify([
  "server/dist/cli/main.js",
  "server/dist/docs/index.html",
  "dashboard/dist/index.html",
  "packages/tag-rule/dist/tag-rule.js",
])}) {
  fs.mkdirSync(require("node:path").dirname(f), { recursive: true });
  fs.writeFileSync(f, "built");
}
fs.appendFileSync("builds.log", "built\\n");
`;

/** A checkout of its own: the real script, a build that only writes its outputs, and git. */
function checkout(withGit = true): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "pressroom-build-stamp-"));
  made.push(root);
  mkdirSync(path.join(root, "scripts"));
  copyFileSync(SCRIPT, path.join(root, "scripts", "build-stamp.mjs"));
  writeFileSync(path.join(root, "fake-build.cjs"), FAKE_BUILD);
  writeFileSync(
    path.join(root, "package.json"),
    JSON.stringify({
      name: "stamp-test",
      private: true,
      scripts: {
        build:
          "node scripts/build-stamp.mjs begin && node fake-build.cjs && node scripts/build-stamp.mjs end",
      },
    }),
  );
  writeFileSync(path.join(root, ".gitignore"), "node_modules/\ndist/\nbuilds.log\nignored.txt\n");
  writeFileSync(path.join(root, "src.txt"), "the source\n");
  if (withGit) {
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["add", "-A"], { cwd: root });
  }
  return root;
}

const made: string[] = [];

// The script runs the npm that runs it (npm_execpath) when there is one; here, the one on PATH.
const { npm_execpath: _npm, ...npmOnPath } = process.env;

/** `npm start`'s first step in `root`: its output and exit code, and how many builds ran so far. */
function start(
  root: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; builds: number }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "scripts", "build-stamp.mjs"), "start"],
      { cwd: root, env: { ...npmOnPath, ...env } },
      (err, stdout, stderr) => {
        let builds = 0;
        try {
          builds = readFileSync(path.join(root, "builds.log"), "utf8").split("\n").length - 1;
        } catch {}
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ code, out: stdout + stderr, builds });
      },
    );
  });
}

// README ("Scripts and CI"): `npm start` runs `npm run build` first only when a file changed since
// the last build finished (or an output is missing); the build takes ~25–45 s on 2 cores.
describe("npm start builds only when something changed since the last build", () => {
  afterAll(() => {
    for (const root of made) rmSync(root, { recursive: true, force: true });
  });

  it("builds when no build has finished, then not again while nothing changes, a new mtime included", async () => {
    const root = checkout();
    const first = await start(root);
    expect(first).toMatchObject({ code: 0, builds: 1 });
    expect(first.out).toContain("Building first: server/dist/cli/main.js is missing.");
    const again = await start(root);
    expect(again).toMatchObject({ code: 0, builds: 1 });
    expect(again.out).toContain("Build is current");
    utimesSync(path.join(root, "src.txt"), new Date(), new Date(Date.now() + 60_000));
    expect(await start(root)).toMatchObject({ code: 0, builds: 1 });
  });

  it("builds again after a file's content changes, a file is added or removed, or an output goes", async () => {
    const root = checkout();
    await start(root);
    writeFileSync(path.join(root, "src.txt"), "the source, edited\n");
    const edited = await start(root);
    expect(edited).toMatchObject({ code: 0, builds: 2 });
    expect(edited.out).toContain("files changed since the last build");
    writeFileSync(path.join(root, "new.txt"), "not yet added to git\n");
    expect(await start(root)).toMatchObject({ builds: 3 });
    writeFileSync(path.join(root, "ignored.txt"), "git ignores it, so the build does too\n");
    expect(await start(root)).toMatchObject({ builds: 3 });
    rmSync(path.join(root, "src.txt"));
    expect(await start(root)).toMatchObject({ builds: 4 });
    rmSync(path.join(root, "dashboard", "dist", "index.html"));
    const missing = await start(root);
    expect(missing).toMatchObject({ builds: 5 });
    expect(missing.out).toContain("dashboard/dist/index.html is missing");
  });

  it("a failed build fails the start, and the next start builds again", async () => {
    const root = checkout();
    await start(root);
    writeFileSync(path.join(root, "src.txt"), "changed\n");
    const failed = await start(root, { FAKE_BUILD_FAILS: "1" });
    expect(failed.code).not.toBe(0);
    expect(failed.builds).toBe(1);
    // The same files as when the failed build began.
    expect(await start(root)).toMatchObject({ code: 0, builds: 2 });
  });

  it("a file saved while a build runs makes the next start build again", async () => {
    const root = checkout();
    writeFileSync(path.join(root, "edit-during-build"), "");
    expect(await start(root)).toMatchObject({ code: 0, builds: 1 });
    // The tree differs from the one the build began with (the edit, and the name it removed).
    expect(await start(root)).toMatchObject({ code: 0, builds: 2 });
    expect(await start(root)).toMatchObject({ code: 0, builds: 2 });
  });

  it("without git, every start builds, as before", async () => {
    const root = checkout(false);
    await start(root);
    const again = await start(root);
    expect(again).toMatchObject({ code: 0, builds: 2 });
    expect(again.out).toContain("git cannot list the files");
  });
});

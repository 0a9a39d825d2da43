import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url);

interface LockEntry {
  hasInstallScript?: boolean;
  link?: boolean;
}
const lock = JSON.parse(readFileSync(new URL("package-lock.json", ROOT), "utf8")) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
};

/** The dependencies the lockfile says have an install script, by name (the root's own are not a dependency's). */
function withInstallScripts(): string[] {
  const names = new Set<string>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.includes("node_modules/") || entry.link || !entry.hasInstallScript) continue;
    names.add(where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
  }
  return [...names].sort();
}

/** npm's version on PATH, as [major, minor]. */
async function npmVersion(): Promise<[number, number]> {
  const { stdout } = await promisify(execFile)("npm", ["--version"]);
  const [major = 0, minor = 0] = stdout.trim().split(".").map(Number);
  return [major, minor];
}
const [major, minor] = await npmVersion();
// `npm install-scripts` came with npm 11.18.
const npmListsInstallScripts = major > 11 || (major === 11 && minor >= 18);

// README ("Install scripts of dependencies"): npm 12 runs a dependency's install script only when
// package.json's allowScripts allows it, so one it does not name is skipped without a failure and
// the package may not work (bun does not).
describe("install scripts of dependencies", () => {
  it("every dependency with an install script is named in allowScripts, and every entry names one", () => {
    const reviewed = Object.keys(manifest.allowScripts ?? {}).sort();
    // Entries are by name: npm matches a `name@version` one against the lockfile's `resolved`
    // URL, which this lockfile leaves out.
    for (const key of reviewed)
      expect(key, "an entry by name, without @version").toMatch(/^(@[^@/]+\/)?[^@/]+$/);
    expect(reviewed).toEqual(withInstallScripts());
  });

  it("only the reviewed scripts are allowed: argon2, bun and esbuild run theirs, @scarf/scarf's install analytics are denied", () => {
    expect(manifest.allowScripts).toEqual({
      argon2: true,
      bun: true,
      esbuild: true,
      "@scarf/scarf": false,
    });
    // npm before 11.16 reads no allowScripts; Scarf's own opt-out stops its report there.
    expect(manifest.scarfSettings).toEqual({ enabled: false });
  });

  it.skipIf(!npmListsInstallScripts)(
    "npm finds no install script in the installed tree that allowScripts leaves unreviewed",
    async () => {
      const { stdout } = await promisify(execFile)("npm", ["install-scripts", "ls", "--json"], {
        cwd: ROOT,
        timeout: 60_000,
      });
      expect(JSON.parse(stdout)).toEqual({ allowScripts: [] });
    },
  );
});

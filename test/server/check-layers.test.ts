// Each floor of server/src imports only its own and those below (README, "Architecture"):
// `npm run lint` runs test/tools/check-layers.ts, which fails when a file of server/src/platform
// imports anything of server/src outside it, or a feature imports an edge or a composition file. Each case runs the real check, as lint does, on a scratch copy of
// server/src with one import added.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TSX = path.resolve("node_modules", ".bin", "tsx");
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "pressroom-check-layers-"));
  cpSync("server/src", path.join(root, "server/src"), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function check(): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(TSX, ["test/tools/check-layers.ts", root], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs `check` with `line` appended to `file` (in the copy), then puts the file back. */
function checkWith(file: string, line: string) {
  const full = path.join(root, file);
  const before = readFileSync(full, "utf8");
  appendFileSync(full, `\n${line}\n`);
  try {
    return check();
  } finally {
    writeFileSync(full, before);
  }
}

describe("each floor imports nothing above it (npm run lint)", () => {
  it("passes on the repository's tree", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("imports a floor above its own");
    expect(run.status).toBe(0);
  });

  it("fails, naming the file and the import, when a platform file imports a feature", () => {
    const run = checkWith(
      "server/src/platform/db/database.ts",
      'import { normaliseStoredTags } from "../../blogs/tag-migration.js";',
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "server/src/platform/db/database.ts: imports ../../blogs/tag-migration.js",
    );
  });

  it("fails on a type-only import and a dynamic import as well", () => {
    const typeOnly = checkWith(
      "server/src/platform/http/errors.ts",
      'import type { AdminDeps } from "../../admin/admin-router.js";',
    );
    expect(typeOnly.status).toBe(1);
    expect(typeOnly.stderr).toContain("../../admin/admin-router.js");
    const dynamic = checkWith(
      "server/src/platform/logger.ts",
      'export const later = () => import("../keys/key-format.js");',
    );
    expect(dynamic.status).toBe(1);
    expect(dynamic.stderr).toContain("../keys/key-format.js");
  });

  it("fails when the composition root is imported from below", () => {
    const run = checkWith("server/src/platform/config.ts", 'import "../app.js";');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("server/src/app.js");
  });

  it("fails when a feature imports an edge, or the composition root's stores", () => {
    const edge = checkWith(
      "server/src/webhooks/retention.ts",
      'import type { AdminDeps } from "../admin/admin-router.js";',
    );
    expect(edge.status).toBe(1);
    expect(edge.stderr).toContain(
      "server/src/webhooks/retention.ts: imports ../admin/admin-router.js",
    );
    expect(edge.stderr).toContain("a feature imports no edge or composition file");
    const composition = checkWith(
      "server/src/blogs/blog-rules.ts",
      'import type { Stores } from "../stores.js";',
    );
    expect(composition.status).toBe(1);
    expect(composition.stderr).toContain("../stores.js");
  });

  it("lets an edge import a feature, the platform and the composition root's types", () => {
    const run = checkWith(
      "server/src/admin/usage-routes.ts",
      'import type { Stores } from "../stores.js";\nimport type { BlogDoc } from "../platform/db/collections.js";',
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

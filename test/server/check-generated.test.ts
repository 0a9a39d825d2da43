// `npm run check:generated` (test/tools/check-generated.ts; README, "Other scripts") fails when a
// committed generated file differs from what the specs generate. That includes
// openapi/generated/admin-limits.ts, the admin API's request limits as values for the dashboard's
// forms: a limit edited by hand there, or changed in admin.yaml without `npm run generate`, must
// fail the check. Each case runs the real check on a scratch copy of the inputs and outputs.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TSX = path.resolve("node_modules", ".bin", "tsx");
const LIMITS = "openapi/generated/admin-limits.ts";
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "pressroom-check-generated-"));
  for (const entry of ["redocly.yaml", "openapi", "sdk/src/generated"]) {
    cpSync(entry, path.join(root, entry), { recursive: true });
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function check(): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(TSX, ["test/tools/check-generated.ts", root], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs `check` with `file` (in the copy) changed by `edit`, then puts the file back. */
function checkWith(file: string, edit: (text: string) => string) {
  const target = path.join(root, file);
  const original = readFileSync(target, "utf8");
  const changed = edit(original);
  expect(changed).not.toBe(original);
  writeFileSync(target, changed);
  try {
    return check();
  } finally {
    writeFileSync(target, original);
  }
}

describe("check:generated covers the admin limits module", () => {
  it("passes on an untouched copy of the committed files", () => {
    const result = check();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(LIMITS);
  }, 60_000);

  it("fails, naming admin-limits.ts, when a limit in it was edited by hand", () => {
    const result = checkWith(LIMITS, (text) =>
      text.replace(/(password: \{ minLength: )10\b/, "$112"),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${LIMITS} (API admin limits) is not what the YAML generates`);
  }, 60_000);

  it("fails, naming admin-limits.ts, when admin.yaml's limit changed and it was not regenerated", () => {
    const result = checkWith("openapi/admin.yaml", (text) =>
      text.replace(/(\n {8}password:\n {10}type: string\n {10}minLength: )10\n/, "$112\n"),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${LIMITS} (API admin limits) is not what the YAML generates`);
  }, 60_000);
});

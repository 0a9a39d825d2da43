import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { specValidator } from "../../server/src/platform/http/spec-validator.js";
import { readSpec } from "../../server/src/platform/http/validator-warm-up.js";
import { ADMIN_SPEC_PATH, CONSUMER_SPEC_PATH } from "../../server/src/platform/paths.js";

/** operationIds of a spec, read independently of the code under test. */
async function operationIdsOf(specPath: string): Promise<string[]> {
  const doc = parse(await readFile(specPath, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(doc.paths)
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .filter((id): id is string => typeof id === "string")
    .sort();
}

// README ("Production"): the server readies its validators before it listens, so that the first
// request after a start is as fast as the next ones.
describe("validator warm-up at start-up", () => {
  it.each([
    ["consumer", CONSUMER_SPEC_PATH],
    ["admin", ADMIN_SPEC_PATH],
  ])("reaches every operation of the %s spec through the validator", async (_name, specPath) => {
    const warmed = await specValidator(readSpec(specPath), true).warmUp();
    expect(warmed.map((w) => w.operationId).sort()).toEqual(await operationIdsOf(specPath));
    for (const w of warmed) {
      // 204: the request passed validation; 400/415: it was judged by the operation's schemas.
      expect([204, 400, 415], `${w.operationId}: ${w.status}`).toContain(w.status);
    }
  });

  it.each([
    ["consumer", CONSUMER_SPEC_PATH],
    ["admin", ADMIN_SPEC_PATH],
  ])(
    "reads the %s spec as YAML 1.2's core schema does, as the `yaml` package reads it",
    async (_name, specPath) => {
      expect(readSpec(specPath).document).toEqual(parse(await readFile(specPath, "utf8")));
    },
  );

  it("keeps an unquoted date or yes a string, as YAML 1.2 does", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pressroom-read-spec-"));
    const specPath = path.join(dir, "scalars.yaml");
    const text =
      "date: 2026-12-06\nstamp: 2026-12-06T10:00:00Z\nanswer: yes\nnothing: ~\nn: 0o17\n";
    await writeFile(specPath, text);
    const { document } = readSpec(specPath);
    expect(document).toEqual(parse(text));
    expect(document).toEqual({
      date: "2026-12-06",
      stamp: "2026-12-06T10:00:00Z",
      answer: "yes",
      nothing: null,
      n: 15,
    });
  });

  it("stops the start, naming the operation, when an operation's schema cannot be compiled", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pressroom-warm-up-"));
    const specPath = path.join(dir, "broken.yaml");
    await writeFile(
      specPath,
      [
        "openapi: 3.1.0",
        "info: { title: broken, version: '1' }",
        "servers: [{ url: /api/broken }]",
        "paths:",
        "  /things:",
        "    get:",
        "      operationId: listThings",
        "      parameters:",
        "        - { name: q, in: query, schema: { type: string, pattern: '(' } }",
        "      responses: { '200': { description: ok } }",
      ].join("\n"),
    );
    await expect(specValidator(readSpec(specPath), false).warmUp()).rejects.toThrow(
      /could not be warmed up: listThings \(GET \/api\/broken\/things: 500\)/,
    );
  });
});

import { once } from "node:events";
import { mkdtemp, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import express, { type ErrorRequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { afterEach, describe, expect, it, vi } from "vitest";
import { specValidator } from "../../server/src/platform/http/spec-validator.js";
import { readSpec } from "../../server/src/platform/http/validator-warm-up.js";
import { ADMIN_SPEC_PATH, CONSUMER_SPEC_PATH } from "../../server/src/platform/paths.js";

/** An operation's schema as the validator builds it: a request's parts, or a response. */
const isOperationSchema = (schema: unknown): schema is object => {
  if (typeof schema !== "object" || schema === null) return false;
  const { properties } = schema as { properties?: unknown };
  return (
    typeof properties === "object" &&
    properties !== null &&
    ("query" in properties || "response" in properties)
  );
};

/**
 * The prototype of the class every ajv flavour extends (ajv's core), where `addSchema` lives: the
 * validator compiles with ajv/dist/2020 (OpenAPI 3.1), a sibling of the `Ajv` exported here.
 */
const ajvCore = Object.getPrototypeOf(Ajv.prototype) as Ajv;

/** The OpenAPI schema (the schema of specs) that the validator checks a spec against. */
const isOpenApiSchema = (schema: unknown): schema is object =>
  typeof schema === "object" &&
  schema !== null &&
  String((schema as { $id?: unknown }).$id).startsWith("https://spec.openapis.org/oas/");

/** Every schema of a kind that is handed to ajv to compile while the test runs. */
function recordAdded(ofKind: (schema: unknown) => schema is object): object[] {
  const added: object[] = [];
  const addSchema = ajvCore.addSchema;
  vi.spyOn(ajvCore, "addSchema").mockImplementation(function (
    this: Ajv,
    ...args: Parameters<Ajv["addSchema"]>
  ) {
    if (ofKind(args[0])) added.push(args[0]);
    return addSchema.apply(this, args);
  });
  return added;
}

afterEach(() => {
  vi.restoreAllMocks();
});

// README ("Dependencies patched at install"): express-openapi-validator puts the whole spec into
// each schema it compiles, for `$ref`s to resolve against; ajv walks every enumerable key of a
// schema it compiles, so with the spec there as plain keys each operation walked all of it. The
// patch (patches/express-openapi-validator+*.patch) leaves the spec reachable, not walked.
describe("the validator's compiled schemas carry the spec for $refs only", () => {
  it.each([
    ["consumer", CONSUMER_SPEC_PATH],
    ["admin", ADMIN_SPEC_PATH],
  ])(
    "no schema compiled for the %s spec's operations lists its paths or components",
    async (_n, p) => {
      const added = recordAdded(isOperationSchema);
      await specValidator(readSpec(p), true).warmUp();
      // Two per operation: its parameters and its body.
      expect(added.length).toBeGreaterThan(20);
      for (const schema of added) {
        expect(Object.keys(schema)).not.toContain("paths");
        expect(Object.keys(schema)).not.toContain("components");
        expect((schema as { paths?: unknown }).paths, "still reachable by lookup").toBeTypeOf(
          "object",
        );
      }
    },
  );

  it("the OpenAPI schema is compiled only when a spec is checked against it, which the app leaves to lint", async () => {
    // spec-validator.ts: `validateApiSpec: false`; `npm run lint` checks both specs instead.
    const seen = recordAdded(isOpenApiSchema);
    await specValidator(readSpec(CONSUMER_SPEC_PATH), true).warmUp();
    expect(seen).toEqual([]);
    // With the check on, the library compiles it (and the patch leaves that as it was).
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: CONSUMER_SPEC_PATH, validateApiSpec: true }));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    } finally {
      server.close();
    }
    expect(seen.length).toBeGreaterThan(0);
  });

  it("a $ref into components still resolves, in a request's body and in a response", async () => {
    // The app dereferences its specs; the library's own (bundle) mode keeps $refs, which ajv
    // resolves by looking the path up in the compiled schema: the properties the patch hides.
    const dir = await mkdtemp(path.join(os.tmpdir(), "pressroom-validator-"));
    const specPath = path.join(dir, "refs.yaml");
    await writeFile(
      specPath,
      [
        "openapi: 3.1.0",
        "info: { title: refs, version: '1' }",
        "paths:",
        "  /things:",
        "    post:",
        "      requestBody:",
        "        required: true",
        "        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }",
        "components:",
        "  schemas:",
        "    Thing:",
        "      type: object",
        "      required: [name]",
        "      additionalProperties: false",
        "      properties: { name: { type: string, maxLength: 5 } }",
      ].join("\n"),
    );
    const added = recordAdded(isOperationSchema);
    const app = express();
    app.use(express.json());
    app.use(
      OpenApiValidator.middleware({
        apiSpec: specPath,
        $refParser: { mode: "bundle" },
        validateResponses: true,
      }),
    );
    // Echoes the name it was sent, or sends a Thing the spec does not allow when asked to.
    app.post("/things", (req, res) => {
      const { name } = req.body as { name: string };
      res.json(name === "bad" ? { name, extra: 1 } : { name });
    });
    const onError: ErrorRequestHandler = (
      err: { status?: number; message?: string },
      _q,
      res,
      _n,
    ) => {
      res.status(err.status ?? 500).json({ message: err.message });
    };
    app.use(onError);
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (body: unknown) =>
      fetch(`${base}/things`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message?: string } }));
    try {
      expect(await post({ name: "ok" })).toEqual({ status: 200, body: { name: "ok" } });
      const tooLong = await post({ name: "too long" });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.message).toMatch(
        /request\/body\/name must NOT have more than 5 characters/,
      );
      expect((await post({})).status).toBe(400);
      const badResponse = await post({ name: "bad" });
      expect(badResponse.status).toBe(500);
      expect(badResponse.body.message).toMatch(/\/response must NOT have additional properties/);
    } finally {
      server.close();
    }
    expect(added.length).toBeGreaterThanOrEqual(3);
    for (const schema of added) expect(Object.keys(schema)).not.toContain("components");
  });
});

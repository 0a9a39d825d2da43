import { readFileSync } from "node:fs";
import type { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { connectMongo } from "../../server/src/platform/db/mongo.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { firstHost, proxiedUri, TcpProxy } from "../support/tcp-proxy.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
const api = (path: string, headers: Record<string, string> = { "x-api-key": a.key }) =>
  get(`${server.url}${path}`, headers);

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha");
});

describe('every error is a JSON object with one field, message (openapi.yaml, "Errors and retries")', () => {
  const badQueries: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=-1", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=1&limit=2", "limit"],
    // Decimal digits only (README, "Try the consumer API": `limit` takes decimal digits only): the validator's Number() coercion took these.
    ["limit=0x10", "limit"],
    ["limit=1e2", "limit"],
    ["limit=+5", "limit"],
    ["limit=%205", "limit"],
    ["limit=5.0", "limit"],
    ["cursor=", "cursor"],
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from('["x","b_1"]').toString("base64url")}`, "cursor"],
    ["unknown=1", "unknown"],
    ["limit[$ne]=1", "limit"],
    ["cursor[$gt]=", "cursor"],
  ];
  for (const [query, param] of badQueries) {
    it(`a bad query (${query}) → 400 naming ${param}`, async () => {
      const res = await api(`/api/consumer/blogs?${query}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body as object)).toEqual(["message"]);
      expect((res.body as { message: string }).message).toContain(param);
    });
  }

  it("limit in plain decimal digits is accepted (limit=5 → 200, five blogs at most)", async () => {
    const res = await api("/api/consumer/blogs?limit=5");
    expect(res.status).toBe(200);
    expect((res.body as { data: unknown[] }).data.length).toBeLessThanOrEqual(5);
  });

  it("a query parameter get one blog does not take (it takes only fields) → 400 naming it, as the spec says", async () => {
    const res = await api(`/api/consumer/blogs/${a.released[0]}?expand=title`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body as object)).toEqual(["message"]);
    expect((res.body as { message: string }).message).toContain("expand");
    const spec = parse(
      readFileSync(new URL("../../openapi/openapi.yaml", import.meta.url), "utf8"),
    ) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(spec.paths["/blogs/{blogId}"]?.get?.responses ?? {})).toContain("400");
  });

  it("an unknown path → 404 JSON, inside and outside the consumer API", async () => {
    for (const path of ["/nope", "/api/consumer/nope", "/api/consumer/blogs/x/y"]) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Not found." });
    }
  });

  it("a method the API does not have → 405 JSON with Allow", async () => {
    const res = await fetch(`${server.url}/api/consumer/blogs`, {
      method: "POST",
      headers: { "x-api-key": a.key },
    });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ message: "Method not allowed." });
    expect(res.headers.get("allow")).toMatch(/GET/);
  });

  it("every response carries an x-request-id, and a sane incoming one is kept", async () => {
    for (const res of [
      await api("/api/consumer/blogs"),
      await api("/api/consumer/blogs", {}),
      await api("/nope"),
      await api("/healthz"),
    ]) {
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const traced = await api("/api/consumer/blogs", {
      "x-api-key": a.key,
      "x-request-id": "lb-trace-1234",
    });
    expect(traced.headers.get("x-request-id")).toBe("lb-trace-1234");
    const hostile = await api("/api/consumer/blogs", {
      "x-api-key": a.key,
      "x-request-id": "<script>",
    });
    expect(hostile.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe('500 when the database fails, and recovery (README, "Production": database outages)', () => {
  let proxy: TcpProxy;
  let cut: TestServer;
  let client: MongoClient;

  beforeAll(async () => {
    const { host, port } = firstHost(t.uri);
    proxy = new TcpProxy(host, port);
    await proxy.start();
    const uri = proxiedUri(t.uri, proxy.port);
    // The production client, with its timeouts: what bounds a request when the database fails.
    client = await connectMongo(uri, 1000);
    const db = client.db(t.name);
    await ensureIndexes(db);
    cut = await startTestServer(db, { DB_TIMEOUT_MS: "1000" });
  });
  afterAll(async () => {
    await cut.stop();
    await client.close();
    await proxy.stop();
  });

  it("answers 500 {message: Internal server error.} promptly while the database is down, stays up, and recovers without a restart", async () => {
    const url = `${cut.url}/api/consumer/blogs`;
    expect((await get(url, { "x-api-key": a.key })).status).toBe(200);

    await proxy.stop();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await get(url, { "x-api-key": a.key });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: "Internal server error." });
      expect(res.text).not.toMatch(/Mongo|Error:|at .*\.js/);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect((await get(`${cut.url}/readyz`)).status).toBe(503);
    expect((await get(`${cut.url}/healthz`)).status).toBe(200);

    await proxy.start();
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 10_000) {
      status = (await get(url, { "x-api-key": a.key })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect(Date.now() - back).toBeLessThan(5000);
    expect((await get(`${cut.url}/readyz`)).status).toBe(200);
    const errors = cut.logLines.filter((l) => l.includes('"level":50'));
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe("security headers", () => {
  it("every response carries helmet's headers and a no-sources CSP, errors included", async () => {
    for (const res of [
      await api("/api/consumer/blogs"),
      await api("/api/consumer/blogs", {}),
      await api("/nope"),
    ]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("strict-transport-security")).toMatch(/max-age=/);
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });
});

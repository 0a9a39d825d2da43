import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayPrefix } from "../../server/src/keys/key-format.js";
import { ConfigError, loadConfig } from "../../server/src/platform/config.js";
import {
  get,
  type SeededWorkspace,
  seedWorkspace,
  withWrongChecksum,
} from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The rules proven here are documented in README.md, "Tracing": with the standard OTEL_* variables
// set, each request is a SERVER span and each database command a CLIENT span under it, sent over
// OTLP/HTTP as JSON, carrying no key, id, slug, header or query value.

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

const SERVER = 2;
const CLIENT = 3;

/** A small OTLP/HTTP JSON receiver: keeps every body POSTed to /v1/traces. */
class Receiver {
  readonly bodies: string[] = [];
  readonly paths: string[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      this.paths.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      this.bodies.push(body.toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  spans(): OtlpSpan[] {
    return this.bodies.flatMap((b) =>
      (JSON.parse(b) as OtlpExport).resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans),
      ),
    );
  }

  reset(): void {
    this.bodies.length = 0;
    this.paths.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const attr = (span: OtlpSpan, key: string): string | number | undefined => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

let t: TestDb;
let w: SeededWorkspace;
const receiver = new Receiver();
let endpoint: string;

beforeAll(async () => {
  t = await useTestDb();
  w = await seedWorkspace(t.db, "Traced", 2);
  endpoint = await receiver.start();
});

afterAll(async () => {
  await receiver.close();
});

/** A server exporting to the receiver; `run` makes requests; stopping it sends every span. */
async function traced(run: (s: TestServer) => Promise<void>): Promise<OtlpSpan[]> {
  receiver.reset();
  const s = await startTestServer(t.db, {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "pressroom-test",
  });
  try {
    await run(s);
  } finally {
    await s.stop();
  }
  return receiver.spans();
}

describe("happy: requests and database commands arrive as spans (README, Tracing)", () => {
  it("each request is a SERVER span named after its route template, with the database commands under it", async () => {
    let requestId = "";
    const spans = await traced(async (s) => {
      const res = await get(`${s.url}/api/consumer/blogs/${w.released[0]}`, {
        "x-api-key": w.key,
      });
      expect(res.status).toBe(200);
      requestId = res.headers.get("x-request-id") ?? "";
    });
    expect(receiver.paths[0]).toBe("POST /v1/traces application/json");
    expect(receiver.bodies[0]).toContain('"pressroom-test"');
    const server = spans.find(
      (s) => s.kind === SERVER && attr(s, "pressroom.request_id") === requestId,
    );
    expect(server?.name).toBe("GET /api/consumer/blogs/:blogId");
    expect(attr(server as OtlpSpan, "http.request.method")).toBe("GET");
    expect(attr(server as OtlpSpan, "http.route")).toBe("/api/consumer/blogs/:blogId");
    expect(attr(server as OtlpSpan, "http.response.status_code")).toBe(200);
    const children = spans.filter((s) => s.kind === CLIENT && s.parentSpanId === server?.spanId);
    expect(children.length).toBeGreaterThanOrEqual(2); // the key's lookup, then the blog's
    for (const child of children) {
      expect(child.traceId).toBe(server?.traceId);
      expect(attr(child, "db.system.name")).toBe("mongodb");
      expect(child.name).toMatch(/^[A-Za-z]+$/);
    }
    expect(children.map((c) => c.name)).toContain("find");
  });

  it("an incoming W3C traceparent makes the request's span a child of the caller's", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    const spans = await traced(async (s) => {
      await get(`${s.url}/api/consumer/blogs`, {
        "x-api-key": w.key,
        traceparent: `00-${traceId}-${parentId}-01`,
      });
    });
    const server = spans.find((s) => s.kind === SERVER);
    expect(server?.traceId).toBe(traceId);
    expect(server?.parentSpanId).toBe(parentId);
  });
});

describe("error: refused and unknown requests are spans too", () => {
  it("a 401 and a 404 carry their status; an unknown path has no route", async () => {
    const spans = await traced(async (s) => {
      await get(`${s.url}/api/consumer/blogs`, { "x-api-key": withWrongChecksum(w.key) });
      await get(`${s.url}/no/such/page`);
    });
    const statuses = spans
      .filter((s) => s.kind === SERVER)
      .map((s) => attr(s, "http.response.status_code"));
    expect(statuses).toEqual(expect.arrayContaining([401, 404]));
    const unknown = spans.find(
      (s) => s.kind === SERVER && attr(s, "http.response.status_code") === 404,
    );
    expect(unknown?.name).toBe("GET");
    expect(attr(unknown as OtlpSpan, "http.route")).toBeUndefined();
  });

  it("config: a protocol other than http/json, another exporter or bad headers stop the start; OTEL_SDK_DISABLED or exporter none turn tracing off", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" };
    expect(loadConfig(base).tracing).toEqual({
      url: "http://collector:4318/v1/traces",
      headers: {},
      serviceName: "pressroom",
    });
    expect(
      loadConfig({
        ...base,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://c.example/custom",
        OTEL_EXPORTER_OTLP_HEADERS: "api-key=abc%3D,x-team=blog",
      }).tracing,
    ).toMatchObject({
      url: "https://c.example/custom",
      headers: { "api-key": "abc=", "x-team": "blog" },
    });
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ ...base, OTEL_SDK_DISABLED: "true" }).tracing).toBeUndefined();
    expect(loadConfig({ ...base, OTEL_TRACES_EXPORTER: "none" }).tracing).toBeUndefined();
    const attempt = (env: Record<string, string>) => () => loadConfig({ ...base, ...env });
    expect(attempt({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/must be "http\/json"/);
    expect(attempt({ OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(ConfigError);
    expect(attempt({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/http\(s\) URL/);
    expect(attempt({ OTEL_EXPORTER_OTLP_HEADERS: "token-only-s3cret" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("s3cret") }),
    );
  });
});

describe("security: spans carry no key, id, slug, header or query value", () => {
  it("nothing sent to the collector holds them", async () => {
    let slug = "";
    const spans = await traced(async (s) => {
      const key = { "x-api-key": w.key, "x-custom-secret": "hush-hush-header-value" };
      const blog = await get(`${s.url}/api/consumer/blogs/${w.released[0]}`, key);
      slug = (blog.body as { slug: string }).slug;
      await get(`${s.url}/api/consumer/blogs/by-slug/${slug}`, key);
      await get(`${s.url}/api/consumer/blogs?tag=query-value-secret`, key);
      await get(`${s.url}/api/consumer/blogs/by-slug/${w.key}`, key);
      await get(`${s.url}/${w.key}`, { authorization: `Bearer ${w.key}` });
      await get(`${s.url}/api/admin/workspaces/${w.workspaceId}/blogs`);
    });
    expect(spans.length).toBeGreaterThan(6);
    const sent = receiver.bodies.join("\n");
    for (const secret of [
      w.key,
      displayPrefix(w.key),
      w.keyId,
      w.workspaceId,
      ...w.released,
      slug,
      "hush-hush-header-value",
      "query-value-secret",
    ]) {
      expect(sent).not.toContain(secret);
    }
  });
});

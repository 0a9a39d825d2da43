import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayPrefix } from "../../server/src/keys/key-format.js";
import {
  metricsReachNote,
  NO_TOKEN_LOOPBACK_ONLY,
} from "../../server/src/platform/metrics/metrics-server.js";
import {
  get,
  type SeededWorkspace,
  seedWorkspace,
  withWrongChecksum,
} from "../support/fixtures.js";
import { setKeyRateLimit } from "../support/rate-limits.js";
import { rawRequest } from "../support/raw-http.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The rules proven here are documented in README.md, "Metrics" (and the METRICS_* rows of
// "Configuration"). Every scrape is parsed by a real Prometheus text-format parser.

let t: TestDb;
/** LAST_USED_FLUSH_MS at its maximum: what requests record waits, for the pending gauges. */
let server: TestServer;
let w: SeededWorkspace;
const consumer = (path: string) => `${server.url}/api/consumer${path}`;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, { METRICS_PORT: "0", LAST_USED_FLUSH_MS: "3600000" });
  w = await seedWorkspace(t.db, "Metrics", 2);
});

const metricsUrl = (s: TestServer): string => {
  if (s.metricsUrl === undefined) throw new Error("the test server has no metrics listener");
  return `${s.metricsUrl}/metrics`;
};

async function scrapeText(s: TestServer = server): Promise<string> {
  const res = await fetch(metricsUrl(s));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/**
 * Parses a scrape; a line that is not valid text format throws. parse-prometheus-text-format
 * merges a histogram's labelled samples into one unlabelled sample (its `flattenMetrics`), so
 * histograms are read as the untyped series they are written as: `name_count{labels}` etc.
 */
function parseMetrics(text: string): MetricFamily[] {
  parsePrometheusTextFormat(text);
  return parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
}

async function scrape(s: TestServer = server): Promise<MetricFamily[]> {
  return parseMetrics(await scrapeText(s));
}

/** The value of the sample with these labels (a histogram's count: `<name>_count`); 0 if none. */
function sampleValue(
  families: MetricFamily[],
  name: string,
  labels: Record<string, string>,
): number {
  const sample = families
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample === undefined ? 0 : Number(sample.value);
}

/** Polls until `check` passes (a flush runs on its own timer); fails after `ms`. */
async function eventually(check: () => Promise<void>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const REQUESTS = "pressroom_http_requests_total";
const DURATION = "pressroom_http_request_duration_seconds_count";
const REJECTIONS = "pressroom_consumer_rejections_total";

describe("happy: /metrics counts requests by operation and status (README, Metrics)", () => {
  it("each answered request moves its operation's counter and histogram by exactly one", async () => {
    const before = await scrape();
    const key = { "x-api-key": w.key };
    for (let i = 0; i < 3; i++) expect((await get(consumer("/blogs"), key)).status).toBe(200);
    expect((await get(consumer(`/blogs/${w.released[0]}`), key)).status).toBe(200);
    expect((await get(consumer("/blogs/b_doesNotExist"), key)).status).toBe(404);
    expect((await get(consumer("/blogs/b_doesNotExist2"), key)).status).toBe(404);
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    const after = await scrape();
    const moved = (name: string, operation: string, status: string) =>
      sampleValue(after, name, { operation, status }) -
      sampleValue(before, name, { operation, status });
    for (const name of [REQUESTS, DURATION]) {
      expect(moved(name, "listBlogs", "200")).toBe(3);
      expect(moved(name, "getBlog", "200")).toBe(1);
      expect(moved(name, "getBlog", "404")).toBe(2);
      expect(moved(name, "health", "200")).toBe(1);
    }
    expect(
      sampleValue(after, REJECTIONS, { reason: "not_found" }) -
        sampleValue(before, REJECTIONS, { reason: "not_found" }),
    ).toBe(2);
  });

  it("401, unmatched-path 404 and 429 answers are counted, with the consumer rejections by reason", async () => {
    const limited = await seedWorkspace(t.db, "Metrics limited", 1);
    await setKeyRateLimit(t.db, limited.keyId, { requests: 1, windowSeconds: 86_400 });
    const before = await scrape();
    expect((await get(consumer("/blogs"), { "x-api-key": withWrongChecksum(w.key) })).status).toBe(
      401,
    );
    expect((await get(consumer("/blogs"))).status).toBe(401);
    expect((await get(`${server.url}/no/such/page`)).status).toBe(404);
    const key = { "x-api-key": limited.key };
    expect((await get(consumer("/blogs"), key)).status).toBe(200);
    expect((await get(consumer("/blogs"), key)).status).toBe(429);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved(REQUESTS, { operation: "consumer", status: "401" })).toBe(2);
    expect(moved(REQUESTS, { operation: "not_found", status: "404" })).toBe(1);
    expect(moved(REQUESTS, { operation: "consumer", status: "429" })).toBe(1);
    expect(moved(REQUESTS, { operation: "listBlogs", status: "200" })).toBe(1);
    expect(moved(REJECTIONS, { reason: "invalid_key" })).toBe(2);
    expect(moved(REJECTIONS, { reason: "rate_limited" })).toBe(1);
    expect(moved(REJECTIONS, { reason: "not_found" })).toBe(0);
  });

  it("list answers sent from the answer cache count as hits, those read whole as misses; its bytes show", async () => {
    const key = { "x-api-key": w.key };
    const path = consumer("/blogs?limit=1&fields=id,title");
    const before = await scrape();
    const first = await get(path, key);
    expect(first.status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get(path, key)).text).toBe(first.text);
    // A 304 is neither: it sends no answer.
    const etag = first.headers.get("etag") ?? "";
    expect((await get(path, { ...key, "if-none-match": etag })).status).toBe(304);
    const after = await scrape();
    const moved = (outcome: string) =>
      sampleValue(after, "pressroom_answer_cache_answers_total", { outcome }) -
      sampleValue(before, "pressroom_answer_cache_answers_total", { outcome });
    expect(moved("hit")).toBe(2);
    expect(moved("miss")).toBe(1);
    expect(sampleValue(after, "pressroom_answer_cache_bytes", {})).toBeGreaterThanOrEqual(
      first.text.length,
    );
  });

  it("lastUsedAt and usage entries waiting for their write show in the pending gauges, with their age", async () => {
    expect((await get(consumer("/blogs"), { "x-api-key": w.key })).status).toBe(200);
    const after = await scrape();
    for (const buffer of ["last_used", "usage"]) {
      expect(
        sampleValue(after, "pressroom_coalesced_writes_pending", { buffer }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sampleValue(after, "pressroom_coalesced_writes_lag_seconds", { buffer }),
      ).toBeGreaterThan(0);
    }
  });

  it("a flush is timed and empties the pending gauge; no flush failed", async () => {
    const quick = await startTestServer(t.db, { METRICS_PORT: "0", LAST_USED_FLUSH_MS: "20" });
    try {
      const before = await scrape(quick);
      expect((await get(`${quick.url}/api/consumer/blogs`, { "x-api-key": w.key })).status).toBe(
        200,
      );
      await eventually(async () => {
        const after = await scrape(quick);
        for (const buffer of ["last_used", "usage"]) {
          const flushes = (f: MetricFamily[]) =>
            sampleValue(f, "pressroom_coalesced_writes_flush_duration_seconds_count", { buffer });
          expect(flushes(after) - flushes(before)).toBeGreaterThanOrEqual(1);
          expect(sampleValue(after, "pressroom_coalesced_writes_pending", { buffer })).toBe(0);
          expect(sampleValue(after, "pressroom_coalesced_writes_lag_seconds", { buffer })).toBe(0);
          expect(
            sampleValue(after, "pressroom_coalesced_writes_flush_failures_total", { buffer }),
          ).toBe(0);
        }
      });
    } finally {
      await quick.stop();
    }
  });

  it("database round trips are timed by command; process and event-loop metrics are there", async () => {
    expect((await get(consumer("/blogs"), { "x-api-key": w.key })).status).toBe(200);
    const families = await scrape();
    expect(
      sampleValue(families, "pressroom_db_command_duration_seconds_count", {
        command: "find",
        outcome: "ok",
      }),
    ).toBeGreaterThan(0);
    const names = new Set(families.map((f) => f.name));
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(names, name).toContain(name);
    }
    // Every label value of the database histogram is a command name from the fixed list.
    const commands = families
      .filter((f) => f.name === "pressroom_db_command_duration_seconds_count")
      .flatMap((f) => f.metrics.map((m) => m.labels?.command));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toMatch(/^[A-Za-z]+$/);
  });
});

describe("error: the metrics listener serves /metrics and nothing else", () => {
  it("answers other paths with a JSON 404 and other methods with a JSON 405", async () => {
    const base = server.metricsUrl ?? "";
    for (const path of ["/", "/api/consumer/blogs", "/healthz", "/metrics/x", "/dashboard/"]) {
      const res = await get(`${base}${path}`, { "x-api-key": w.key });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: "Not found." });
    }
    const post = await fetch(metricsUrl(server), { method: "POST" });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ message: "Method not allowed." });
  });
});

describe("security: metrics stay off the public port, behind their token, and hold no secret", () => {
  it("the public port has no /metrics", async () => {
    const res = await get(`${server.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("pressroom_http_requests_total");
  });

  it("no label value holds a key, its prefix or id, a workspace id, a blog id or a slug", async () => {
    const blog = await get(consumer(`/blogs/${w.released[0]}`), { "x-api-key": w.key });
    const slug = (blog.body as { slug: string }).slug;
    const key = { "x-api-key": w.key };
    // Requests that put every secret and id in the path, the query and the headers.
    await get(consumer(`/blogs/by-slug/${slug}`), key);
    await get(consumer(`/blogs/by-slug/${w.key}`), key);
    await get(consumer(`/blogs/${w.released[1]}?fields=title`), key);
    await get(consumer(`/blogs?tag=${w.workspaceId}`), key);
    await get(`${server.url}/${w.key}`);
    await get(`${server.url}/api/consumer/${w.keyId}`, { authorization: `Bearer ${w.key}` });
    await get(`${server.url}/api/admin/workspaces/${w.workspaceId}/blogs`);
    const text = await scrapeText();
    for (const secret of [
      w.key,
      displayPrefix(w.key),
      w.keyId,
      w.workspaceId,
      ...w.released,
      w.draft,
      slug,
    ]) {
      expect(text).not.toContain(secret);
    }
    // And every label value is a bounded word, never a path.
    for (const family of parseMetrics(text)) {
      for (const sample of family.metrics) {
        for (const value of Object.values(sample.labels ?? {})) {
          expect(value, family.name).not.toContain("/");
        }
      }
    }
  });

  it("with METRICS_TOKEN, /metrics needs Authorization: Bearer <token> (401 JSON otherwise)", async () => {
    const token = "metrics-token-0123456789abcdef";
    const guarded = await startTestServer(t.db, { METRICS_PORT: "0", METRICS_TOKEN: token });
    try {
      const url = metricsUrl(guarded);
      const attempts: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${token.slice(0, -1)}` },
        { authorization: `Bearer ${token}x` },
        { authorization: `Basic ${token}` },
        { "x-api-key": token },
      ];
      for (const headers of attempts) {
        const res = await get(url, headers);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: "Missing or wrong metrics token." });
        expect(res.text).not.toContain("pressroom_");
      }
      const ok = await get(url, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain("pressroom_http_requests_total");
    } finally {
      await guarded.stop();
    }
  });

  it("security: without METRICS_TOKEN only a loopback Host is answered (a DNS-rebinding page's is 403 JSON)", async () => {
    const { port } = new URL(metricsUrl(server));
    const scrapeAs = async (hostHeader: string | null) => {
      const host = hostHeader === null ? "" : `Host: ${hostHeader}\r\n`;
      const res = await rawRequest(metricsUrl(server), `GET /metrics HTTP/1.1\r\n${host}`);
      const body = res.raw.split("\r\n\r\n").slice(1).join("\r\n\r\n");
      return { status: res.status, body };
    };
    for (const evil of [
      `evil.example:${port}`,
      "evil.example",
      `127.0.0.1.evil.example:${port}`,
      `app.localhost:${port}`,
      `[::2]:${port}`,
    ]) {
      const res = await scrapeAs(evil);
      expect(res.status, evil).toBe(403);
      expect(JSON.parse(res.body), evil).toEqual({ message: NO_TOKEN_LOOPBACK_ONLY });
      expect(res.body).not.toContain("pressroom_");
    }
    expect((await scrapeAs(null)).status, "no Host").toBe(400);
    for (const loopback of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      "127.0.0.1",
      `[::1]:${port}`,
      `LOCALHOST:${port}`,
    ]) {
      const res = await scrapeAs(loopback);
      expect(res.status, loopback).toBe(200);
      expect(res.body, loopback).toContain("pressroom_http_requests_total");
    }
  });

  it("with METRICS_TOKEN the token rule applies, whatever the Host", async () => {
    const token = "metrics-token-0123456789abcdef";
    const guarded = await startTestServer(t.db, { METRICS_PORT: "0", METRICS_TOKEN: token });
    try {
      const { port } = new URL(metricsUrl(guarded));
      const scrapeAs = (extra: string) =>
        rawRequest(
          metricsUrl(guarded),
          `GET /metrics HTTP/1.1\r\nHost: evil.example:${port}\r\n${extra}`,
        );
      expect((await scrapeAs("")).status).toBe(401);
      expect((await scrapeAs(`Authorization: Bearer ${token}\r\n`)).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });

  it("the metrics listener closes with the server", async () => {
    const s = await startTestServer(t.db, { METRICS_PORT: "0" });
    expect((await fetch(metricsUrl(s))).status).toBe(200);
    await s.stop();
    await expect(fetch(metricsUrl(s))).rejects.toThrow();
  });

  it("the start-up note warns when metrics are reachable beyond loopback without a token", () => {
    const url = "http://10.0.0.5:9464";
    expect(metricsReachNote({ port: 9464, host: "127.0.0.1", token: undefined }, url).level).toBe(
      "info",
    );
    expect(metricsReachNote({ port: 9464, host: "0.0.0.0", token: undefined }, url)).toMatchObject({
      level: "warn",
      msg: expect.stringMatching(/no METRICS_TOKEN/),
    });
    expect(
      metricsReachNote({ port: 9464, host: "0.0.0.0", token: "x".repeat(16) }, url).level,
    ).toBe("info");
  });
});

afterAll(async () => {
  await server.stop();
});

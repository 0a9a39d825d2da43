import { beforeAll, describe, expect, it } from "vitest";
import { createClient, RateLimitError, type ResponseInfo } from "../../sdk/src/index.js";
import { seedWorkspace } from "../support/fixtures.js";
import { setKeyRateLimit } from "../support/rate-limits.js";
import { rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
});

describe('the SDK against the real rate limit (sdk/README.md, "Retries"; openapi.yaml, "Caching and limits")', () => {
  it("a call refused with 429 waits out Retry-After (the window's end) and then succeeds", async () => {
    const w = await seedWorkspace(t.db, "Retrying", 2);
    // A key limited to 3 requests per 2-second window (set on its document).
    await setKeyRateLimit(t.db, w.keyId, { requests: 3, windowSeconds: 2 });
    const infos: ResponseInfo[] = [];
    const client = createClient({
      apiKey: w.key,
      baseUrl: server.url,
      retry: { maxAttempts: 4 },
      onResponse: (info) => infos.push(info),
    });
    // Start just after a window opens, so the first three fit in one window.
    await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 20));
    for (let i = 0; i < 3; i++) await client.blogs.list({ limit: 1 });
    const started = Date.now();
    const page = await client.blogs.list({ limit: 1 });
    const waited = Date.now() - started;
    expect(page.data.map((b) => b.id)).toEqual(w.released.slice(0, 1));
    const last = infos.at(-1);
    expect(last?.status).toBe(200);
    expect(last?.attempts).toBeGreaterThanOrEqual(2);
    // It waited for the next window (Retry-After ≤ 2 s), not a backoff's fraction of a second.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(6000);
  });

  it("without retries, the 429 reaches the caller as RateLimitError with retryAfterMs", async () => {
    const w = await seedWorkspace(t.db, "NoRetry", 1);
    await setKeyRateLimit(t.db, w.keyId, { requests: 1, windowSeconds: 60 });
    const client = createClient({ apiKey: w.key, baseUrl: server.url, retry: false });
    await client.blogs.list({ limit: 1 }).catch(() => undefined);
    const err = await rejectionOf(client.blogs.list({ limit: 1 }));
    expect(err).toBeInstanceOf(RateLimitError);
    const retryAfterMs = (err as RateLimitError).retryAfterMs ?? 0;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});

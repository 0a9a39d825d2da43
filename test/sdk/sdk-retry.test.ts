import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  ConnectionError,
  createClient,
  NotFoundError,
  PressroomError,
  RateLimitError,
  type ResponseInfo,
  type RetryOptions,
  ServerError,
  TimeoutError,
} from "../../sdk/src/index.js";
import { type FaultServer, ok, PAGE, startFaultServer } from "../support/sdk-fault-server.js";
import { recordingFetch, recordingSleep, rejectionOf } from "../support/sdk-recorder.js";

const KEY = `cp_live_${"r".repeat(42)}`;
const BLOG = {
  id: "b_1",
  slug: "one",
  title: "One",
  excerpt: "",
  bodyMarkdown: "",
  bodyHtml: "",
  tags: [],
  authorName: "A",
  coverImageUrl: null,
  releasedAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:00.000Z",
};
const FAILED = { status: 500, body: { message: "Internal server error." } };
const UNAVAILABLE = { status: 503, body: { message: "Service unavailable." } };

let fault: FaultServer;
let waits: number[];
let infos: ResponseInfo[];
/**
 * A client on the fault server whose waits are recorded, not slept; no cache; no jitter unless a
 * test asks for it, so the waits are the exact schedule (sdk/README.md, "Retries": `jitter: 0`).
 */
let client: (options?: Partial<ClientOptions>) => ReturnType<typeof createClient>;
/** A retry policy with jitter 0 unless it says otherwise. */
const exact = (retry: RetryOptions | false = {}): RetryOptions | false =>
  retry === false ? false : { jitter: 0, ...retry };

beforeAll(async () => {
  fault = await startFaultServer();
});

beforeEach(() => {
  const recorder = recordingSleep();
  waits = recorder.waits;
  infos = [];
  client = (options = {}) =>
    createClient({
      apiKey: KEY,
      baseUrl: fault.url,
      cache: false,
      sleep: recorder.sleep,
      onResponse: (info) => infos.push(info),
      ...options,
      retry: exact(options.retry),
    });
});

describe("retries (sdk/README.md, Retries) — transient failures are retried, then succeed", () => {
  it("a 5xx then a 200 succeeds, with attempts 2 and one 250 ms wait", async () => {
    fault.script(FAILED, ok(PAGE));
    const page = await client().blogs.list();
    expect(page).toEqual({ data: [], nextCursor: null, notModified: false });
    expect(fault.requests).toHaveLength(2);
    expect(waits).toEqual([250]);
    expect(infos.map((i) => [i.status, i.attempts])).toEqual([[200, 2]]);
  });

  it("a dropped connection then a 200 succeeds on the second attempt", async () => {
    fault.script("destroy", ok(BLOG));
    const blog = await client().blogs.get("b_1");
    expect(blog.id).toBe("b_1");
    expect(fault.requests).toHaveLength(2);
    expect(infos[0]?.attempts).toBe(2);
  });

  it("an attempt that times out then a 200 succeeds on the second attempt", async () => {
    fault.script("hang", ok(PAGE));
    const page = await client({ timeoutMs: 1000 }).blogs.list();
    expect(page.data).toEqual([]);
    expect(fault.requests).toHaveLength(2);
    expect(waits).toEqual([250]);
  });

  it("a 429 without Retry-After is retried with the backoff schedule", async () => {
    fault.script({ status: 429, body: { message: "Slow down." } }, ok(PAGE));
    await client().blogs.list();
    expect(fault.requests).toHaveLength(2);
    expect(waits).toEqual([250]);
  });
});

describe("retries (sdk/README.md, Retries) — at most 4 attempts, waiting 250, 500 and 1000 ms", () => {
  it("a 5xx every time: 4 attempts, waits [250, 500, 1000], then ServerError", async () => {
    fault.script(FAILED);
    const error = await rejectionOf(client().blogs.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, attempts: 4, requestId: "req-4" });
    expect((error as Error).message).toContain("Internal server error.");
    expect(fault.requests).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("the default timer really waits 250, 500 and 1000 ms between attempts", async () => {
    fault.script(UNAVAILABLE);
    const real = createClient({ apiKey: KEY, baseUrl: fault.url, cache: false, retry: exact() });
    const error = await rejectionOf(real.blogs.list());
    expect(error).toMatchObject({ status: 503, attempts: 4 });
    const at = fault.requests.map((r) => r.at);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    expect(gaps).toHaveLength(3);
    [250, 500, 1000].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 5);
      expect(gaps[i]).toBeLessThan(expected + 400); // loose: a busy CI machine adds latency
    });
  });

  it("a dropped connection every time: 4 attempts, then ConnectionError with no status", async () => {
    fault.script("destroy");
    const error = await rejectionOf(client().blogs.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: undefined, requestId: undefined, attempts: 4 });
    expect(fault.requests).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("a refused connection: 4 attempts, then ConnectionError naming the cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectionOf(client({ baseUrl: `http://127.0.0.1:${port}` }).blogs.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("ECONNREFUSED");
    expect(error).toMatchObject({ attempts: 4 });
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("a server that never answers: each attempt times out on its own, then TimeoutError", async () => {
    fault.script("hang");
    const started = performance.now();
    const error = await rejectionOf(client({ timeoutMs: 100 }).blogs.list());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ status: undefined, attempts: 4 });
    expect((error as Error).message).toContain("timed out after 100 ms");
    expect(fault.requests).toHaveLength(4);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4 * 95);
    expect(elapsed).toBeLessThan(5_000); // the default 10 s per attempt would take 40 s
  });

  it("a call's timeoutMs overrides the client's", async () => {
    fault.script("hang");
    const started = performance.now();
    const error = await rejectionOf(
      client({ timeoutMs: 60_000 }).blogs.list({ timeoutMs: 50, retry: { maxAttempts: 2 } }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("maxDelayMs caps the doubling", async () => {
    fault.script(FAILED);
    await rejectionOf(client({ retry: { baseDelayMs: 1000, maxDelayMs: 1500 } }).blogs.list());
    expect(waits).toEqual([1000, 1500, 1500]);
  });

  it("jitter only ever shortens a wait, by at most its fraction", async () => {
    fault.script(FAILED);
    for (let run = 0; run < 5; run++) {
      await rejectionOf(client({ retry: { jitter: 0.5 } }).blogs.list());
    }
    expect(waits).toHaveLength(15);
    waits.forEach((wait, i) => {
      const nominal = [250, 500, 1000][i % 3] ?? 0;
      expect(wait).toBeLessThanOrEqual(nominal);
      expect(wait).toBeGreaterThanOrEqual(nominal * 0.5);
    });
  });
});

describe("retry jitter is on by default: each backoff wait is shortened at random by up to 25 %", () => {
  /** A client with the default retry policy (sdk/README.md, "Retries"), its waits recorded. */
  const byDefault = () => {
    const { sleep, waits } = recordingSleep();
    return {
      client: createClient({ apiKey: KEY, baseUrl: fault.url, cache: false, sleep }),
      waits,
    };
  };

  it("with default options, the waits vary within 187.5–250, 375–500 and 750–1000 ms", async () => {
    const { client: defaults, waits: seen } = byDefault();
    fault.script(FAILED);
    for (let run = 0; run < 10; run++) {
      expect(await rejectionOf(defaults.blogs.list())).toMatchObject({ attempts: 4 });
    }
    expect(seen).toHaveLength(30);
    seen.forEach((wait, i) => {
      const nominal = [250, 500, 1000][i % 3] ?? 0;
      expect(wait).toBeLessThanOrEqual(nominal);
      expect(wait).toBeGreaterThanOrEqual(nominal * 0.75);
    });
    // Clients that failed together do not retry in step: the first waits are not all alike.
    const firstWaits = seen.filter((_, i) => i % 3 === 0);
    expect(new Set(firstWaits).size).toBeGreaterThan(1);
    expect(Math.min(...firstWaits)).toBeLessThan(250);
  });

  it("with default options, a Retry-After is waited in full, never shortened", async () => {
    const { client: defaults, waits: seen } = byDefault();
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": "2" } }, ok(PAGE));
    await defaults.blogs.list();
    expect(seen).toEqual([2000]);
  });

  it("jitter: 0 turns it off, per client or per call: the exact schedule 250, 500, 1000 ms", async () => {
    const recorder = recordingSleep();
    const options: ClientOptions = {
      apiKey: KEY,
      baseUrl: fault.url,
      cache: false,
      sleep: recorder.sleep,
    };
    fault.script(FAILED);
    await rejectionOf(createClient({ ...options, retry: { jitter: 0 } }).blogs.list());
    await rejectionOf(createClient(options).blogs.list({ retry: { jitter: 0 } }));
    expect(recorder.waits).toEqual([250, 500, 1000, 250, 500, 1000]);
  });
});

describe("retry policy per client and per call (sdk/README.md, Retries)", () => {
  it("a client's maxAttempts bounds the attempts", async () => {
    fault.script(FAILED);
    expect(await rejectionOf(client({ retry: { maxAttempts: 2 } }).blogs.list())).toMatchObject({
      attempts: 2,
    });
    expect(fault.requests).toHaveLength(2);
  });

  it("retry: false on the client makes one attempt", async () => {
    fault.script(FAILED);
    expect(await rejectionOf(client({ retry: false }).blogs.list())).toMatchObject({ attempts: 1 });
    expect(fault.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("retry: false on a call makes one attempt; a call's policy overrides the client's", async () => {
    fault.script(FAILED);
    expect(await rejectionOf(client().blogs.get("b_1", { retry: false }))).toMatchObject({
      attempts: 1,
    });
    fault.script(FAILED);
    const error = await rejectionOf(
      client({ retry: false }).blogs.list({ retry: exact({ maxAttempts: 3 }) }),
    );
    expect(error).toMatchObject({ attempts: 3 });
    expect(waits).toEqual([250, 500]);
  });

  it("an invalid policy is refused before any request", () => {
    fault.script(ok(PAGE));
    expect(() => client({ retry: { maxAttempts: 0 } })).toThrow(RangeError);
    expect(() => client({ retry: { jitter: 2 } })).toThrow(RangeError);
    expect(() => client({ timeoutMs: -1 })).toThrow(RangeError);
    expect(fault.requests).toHaveLength(0);
  });
});

describe("Retry-After on 429 and 503 is honoured up to a cap", () => {
  it("503 with Retry-After in seconds waits that long, then succeeds", async () => {
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": "2" } }, ok(PAGE));
    await client().blogs.list();
    expect(waits).toEqual([2000]);
  });

  it("429 with Retry-After as an HTTP-date waits until that date", async () => {
    const at = Date.UTC(2030, 0, 1, 12, 0, 0);
    const retryAt = new Date(at + 5000).toUTCString();
    fault.script(
      { status: 429, body: { message: "Slow down." }, headers: { "retry-after": retryAt } },
      ok(PAGE),
    );
    await client({ now: () => at }).blogs.list();
    expect(waits).toEqual([5000]);
  });

  it("an HTTP-date in the past means retry at once", async () => {
    const at = Date.UTC(2030, 0, 1, 12, 0, 0);
    const past = new Date(at - 60_000).toUTCString();
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": past } }, ok(PAGE));
    await client({ now: () => at }).blogs.list();
    expect(waits).toEqual([0]);
  });

  it("an unreadable Retry-After falls back to the backoff schedule", async () => {
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": "soon" } }, ok(PAGE));
    await client().blogs.list();
    expect(waits).toEqual([250]);
  });

  it("Retry-After on other 5xx statuses is not a promise: the backoff schedule applies", async () => {
    fault.script({ ...FAILED, headers: { "retry-after": "7" } }, ok(PAGE));
    await client().blogs.list();
    expect(waits).toEqual([250]);
  });

  it("a Retry-After beyond the 30 s cap stops at once, and the error says when to come back", async () => {
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": "120" } });
    const error = await rejectionOf(client().blogs.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, attempts: 1, retryAfterMs: 120_000 });
    expect(waits).toEqual([]);
    fault.script({
      status: 429,
      body: { message: "Slow down." },
      headers: { "retry-after": "31" },
    });
    const limited = await rejectionOf(client().blogs.list());
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 31_000 });
  });

  it("the cap is configurable", async () => {
    fault.script({ ...UNAVAILABLE, headers: { "retry-after": "120" } }, ok(PAGE));
    await client({ retry: { maxRetryAfterMs: 120_000 } }).blogs.list();
    expect(waits).toEqual([120_000]);
  });
});

describe("never retried (sdk/README.md, Retries): 4xx and the caller's abort", () => {
  const cases: [number, string, new (...args: never[]) => PressroomError][] = [
    [400, "request/query/limit must be <= 100", BadRequestError],
    [401, "Invalid or missing API key.", AuthenticationError],
    [404, "Blog not found.", NotFoundError],
    [403, "Forbidden.", PressroomError],
  ];
  for (const [status, message, type] of cases) {
    it(`${status} is thrown after one attempt as ${type.name}`, async () => {
      fault.script({ status, body: { message } });
      const error = await rejectionOf(client().blogs.get("b_1"));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, attempts: 1, requestId: "req-1" });
      expect((error as Error).message).toContain(message);
      expect(fault.requests).toHaveLength(1);
      expect(waits).toEqual([]);
    });
  }

  it("aborting an attempt in flight rejects with the signal's reason, without a retry", async () => {
    fault.script("hang");
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    setTimeout(() => controller.abort(reason), 50);
    const error = await rejectionOf(client().blogs.list({ signal: controller.signal }));
    expect(error).toBe(reason);
    await new Promise((r) => setTimeout(r, 100));
    expect(fault.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("aborting during a backoff wait rejects at once, even if the sleep ignores the signal", async () => {
    fault.script(FAILED);
    const controller = new AbortController();
    const started: number[] = [];
    const never = (ms: number) => {
      started.push(ms);
      setTimeout(() => controller.abort(), 10);
      return new Promise<void>(() => {});
    };
    const error = await rejectionOf(
      client({ sleep: never }).blogs.list({ signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    expect(started).toEqual([250]);
    expect(fault.requests).toHaveLength(1);
  });

  it("aborting during the default timer's wait rejects well before the wait would end", async () => {
    fault.script(UNAVAILABLE);
    const controller = new AbortController();
    const reason = new Error("shutting down");
    const real = createClient({ apiKey: KEY, baseUrl: fault.url, cache: false });
    const call = real.blogs.list({ signal: controller.signal, retry: { baseDelayMs: 5_000 } });
    while (fault.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 30));
    const abortedAt = performance.now();
    controller.abort(reason);
    expect(await rejectionOf(call)).toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(1_000); // the wait was 5 s
    expect(fault.requests).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    fault.script(ok(PAGE));
    const reason = new Error("too late");
    const error = await rejectionOf(client().blogs.list({ signal: AbortSignal.abort(reason) }));
    expect(error).toBe(reason);
    expect(fault.requests).toHaveLength(0);
  });
});

describe("answers that are not the API's", () => {
  it("a 502 HTML page from a proxy is retried, then a ServerError without a server message", async () => {
    fault.script({ status: 502, raw: "<html><body>Bad gateway</body></html>" });
    const error = await rejectionOf(client().blogs.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, attempts: 4, requestId: "req-4" });
    expect((error as Error).message).toBe(
      "The Pressroom API failed. (HTTP 502, request id req-4, 4 attempts)",
    );
  });

  it("a 200 whose body is not JSON is a PressroomError, not a SyntaxError", async () => {
    fault.script({ status: 200, raw: "<html>maintenance</html>" });
    const error = await rejectionOf(client().blogs.get("b_1"));
    expect(error).toBeInstanceOf(PressroomError);
    expect(error).toMatchObject({ status: 200, attempts: 1, requestId: "req-1" });
    expect((error as Error).message).toContain("not JSON");
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it("a 304 while the cache is off is an error, not an empty result", async () => {
    fault.script({ status: 304 });
    const error = await rejectionOf(client().blogs.list());
    expect(error).toBeInstanceOf(PressroomError);
    expect(error).toMatchObject({ status: 304, attempts: 1 });
  });
});

describe("every attempt is a fresh, unused request", () => {
  it("attempts get distinct Request objects, never consumed, each with its own live signal", async () => {
    fault.script(FAILED, "destroy", UNAVAILABLE, ok(PAGE));
    const recorder = recordingFetch();
    await client({ fetch: recorder.fetch }).blogs.list({ limit: 5 });
    const requests = recorder.exchanges.map((e) => e.request);
    expect(requests).toHaveLength(4);
    expect(new Set(requests).size).toBe(4);
    expect(new Set(requests.map((r) => r.signal)).size).toBe(4);
    for (const exchange of recorder.exchanges) {
      expect(exchange.bodyUsedAtCall).toBe(false);
      expect(exchange.signalAbortedAtCall).toBe(false);
      expect(exchange.request.url).toBe(`${fault.url}/api/consumer/blogs?limit=5`);
      expect(exchange.request.headers.get("x-api-key")).toBe(KEY);
    }
    expect(fault.requests.map((r) => r.headers["x-api-key"])).toEqual([KEY, KEY, KEY, KEY]);
  });

  it("the key travels in x-api-key only, never in the URL or Authorization", async () => {
    fault.script(ok(PAGE));
    await client().blogs.list({ cursor: "abc" });
    const [request] = fault.requests;
    expect(request?.headers["x-api-key"]).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.url).toBe("/api/consumer/blogs?cursor=abc");
  });

  it("a fetch installed after createClient is used (globalThis.fetch is looked up per request)", async () => {
    fault.script(ok(PAGE));
    const made = client();
    const original = globalThis.fetch;
    let seen = 0;
    globalThis.fetch = (input, init) => {
      seen++;
      return original(input, init);
    };
    try {
      await made.blogs.list();
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toBe(1);
  });
});

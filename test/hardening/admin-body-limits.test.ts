// README, "Configuration" (ADMIN_BODY_LIMIT_BYTES, BLOG_BODY_LIMIT_BYTES) and "Production" (admin
// request bodies); admin.yaml, PayloadTooLarge, UnsupportedMediaType and BadRequest: each admin
// operation takes the body it needs and no more, never compressed, never nested past
// MAX_BODY_DEPTH, all refused before JSON.parse, so no request without an account can hold the
// event loop that serves the consumer API.
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { loadConfig } from "../../server/src/platform/config.js";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "../../server/src/platform/http/json-body.js";
import { ADMIN_SPEC_PATH } from "../../server/src/platform/paths.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { startHostileSenders } from "../support/hostile-senders.js";
import { MAX_BODY } from "../support/pathological-markdown.js";
import { requestBodies } from "../support/spec-body-size.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];

let server: TestServer;
let admin: AdminClient;
let ws: string;
let beta: SeededWorkspace;

const defaults = loadConfig({}).adminBodyLimits;
const BLOG_OPERATIONS = ["createBlog", "updateBlog", "previewBlogBody"];
const OPEN_ROUTES = ["/session", "/setup", "/invitations/lookup", "/invitations/accept"];

beforeAll(async () => {
  const t = await useTestDb();
  server = await startTestServer(t.db);
  beta = await seedWorkspace(t.db, "Beta");
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

/** A POST to the admin API as a browser on the server's own origin would send it, no session. */
async function post(
  path: string,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown, ms: performance.now() - started };
}

/** 1.4 million nested arrays, `[[[…]]]`: 2.8 MB of valid JSON, 2,751 bytes gzipped. */
const NESTED = `${"[".repeat(1_400_000)}${"]".repeat(1_400_000)}`;
const GZIP_BOMB = gzipSync(NESTED, { level: 9 });

describe("the limits follow admin.yaml", () => {
  it("ADMIN_BODY_LIMIT_BYTES (default) holds the largest body of every operation but a blog's, as JSON.stringify sends it", () => {
    const small = requestBodies(ADMIN_SPEC_PATH, 6).filter(
      (op) => !BLOG_OPERATIONS.includes(op.operationId) && op.operationId !== "importBlogs",
    );
    expect(small.length).toBeGreaterThan(10);
    const over = small.filter((op) => !(op.bytes <= defaults.adminBytes));
    expect(over, "operations whose valid bodies may pass ADMIN_BODY_LIMIT_BYTES").toEqual([]);
  });

  it("BLOG_BODY_LIMIT_BYTES (default) holds a blog's largest body however a client escapes it", () => {
    const blogs = requestBodies(ADMIN_SPEC_PATH, 12).filter((op) =>
      BLOG_OPERATIONS.includes(op.operationId),
    );
    expect(blogs.map((op) => op.operationId).sort()).toEqual([...BLOG_OPERATIONS].sort());
    for (const op of blogs)
      expect(op.bytes, op.operationId).toBeLessThanOrEqual(defaults.blogBytes);
  });

  it("IMPORT_BODY_LIMIT_BYTES (default) takes an import of many of the largest blogs, not the spec's whole maximum", () => {
    const [op] = requestBodies(ADMIN_SPEC_PATH, 12).filter((o) => o.operationId === "importBlogs");
    // 10,000 entries of 200,000 characters each: gigabytes the limit refuses (admin.yaml says so).
    expect(op?.bytes).toBeGreaterThan(defaults.importBytes);
    expect(defaults.importBytes).toBeGreaterThanOrEqual(20 * defaults.blogBytes);
  });

  it("MAX_BODY_DEPTH is well above the deepest request body admin.yaml allows", () => {
    const deepest = Math.max(...requestBodies(ADMIN_SPEC_PATH, 1).map((op) => op.depth));
    expect(deepest).toBeGreaterThan(0);
    expect(deepest * 4).toBeLessThanOrEqual(MAX_BODY_DEPTH);
  });

  it("the nesting scan skips strings and their escapes", () => {
    const deep = (n: number) => Buffer.from(`${"[".repeat(n)}${"]".repeat(n)}`);
    expect(nestsDeeperThan(deep(16), 16)).toBe(false);
    expect(nestsDeeperThan(deep(17), 16)).toBe(true);
    const inString = Buffer.from(JSON.stringify({ password: `\\"${"[{".repeat(500)}` }));
    expect(nestsDeeperThan(inString, 16)).toBe(false);
    const afterEscapedQuote = Buffer.from(`{"a":"\\"",${"[".repeat(40)}`);
    expect(nestsDeeperThan(afterEscapedQuote, 16)).toBe(true);
  });
});

describe("each admin operation takes the body it needs (README, ADMIN_BODY_LIMIT_BYTES)", () => {
  for (const path of OPEN_ROUTES) {
    it(`${path}: a body 4 KB past ADMIN_BODY_LIMIT_BYTES gets 413 naming the limit`, async () => {
      const body = JSON.stringify({ token: "x".repeat(defaults.adminBytes + 4096) });
      const res = await post(path, body);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        message: `Request body too large: this operation accepts at most ${defaults.adminBytes} bytes (ADMIN_BODY_LIMIT_BYTES).`,
      });
    });
  }

  it("ADMIN_BODY_LIMIT_BYTES set lower is the limit the open operations apply", async () => {
    const t = await useTestDb();
    const small = await startTestServer(t.db, { ADMIN_BODY_LIMIT_BYTES: "2048" });
    const res = await fetch(`${small.url}/api/admin/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: small.url },
      body: JSON.stringify({ email: OWNER.email, password: "p".repeat(3000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      message:
        "Request body too large: this operation accepts at most 2048 bytes (ADMIN_BODY_LIMIT_BYTES).",
    });
    await small.stop();
  });

  it("sign-in: a body just under the limit is read and judged (400 from the spec, not 413)", async () => {
    const padding = "p".repeat(defaults.adminBytes - 200);
    const res = await post("/session", JSON.stringify({ email: OWNER.email, password: padding }));
    expect(res.status).toBe(400);
  });

  it("a blog with a 200,000-character body is still created, and previewed", async () => {
    const bodyMarkdown = "é".repeat(MAX_BODY);
    const created = await admin.post(`/workspaces/${ws}/blogs`, { title: "Long", bodyMarkdown });
    expect(created.status).toBe(201);
    const preview = await admin.post(`/workspaces/${ws}/blogs/preview`, { bodyMarkdown });
    expect(preview.status).toBe(200);
  });

  it("a blog body past BLOG_BODY_LIMIT_BYTES gets 413 naming it", async () => {
    const res = await admin.post(`/workspaces/${ws}/blogs`, {
      title: "big",
      bodyMarkdown: "x".repeat(defaults.blogBytes + 1),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      message: `Request body too large: this operation accepts at most ${defaults.blogBytes} bytes (BLOG_BODY_LIMIT_BYTES).`,
    });
  });

  it("an operation without a body in admin.yaml never reads one: a release sent a gzip bomb is a release", async () => {
    const blog = await admin.post<{ id: string }>(`/workspaces/${ws}/blogs`, { title: "Bodiless" });
    const res = await fetch(
      `${server.url}/api/admin/workspaces/${ws}/blogs/${blog.body.id}/release`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-encoding": "gzip",
          origin: server.url,
          cookie: admin.cookie ?? "",
          ...ANY_VERSION,
        },
        body: new Uint8Array(GZIP_BOMB),
      },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: blog.body.id, status: "released" });
  });

  it("security: without a session a blog write's large body is never read (401)", async () => {
    const body = JSON.stringify({ title: "t", bodyMarkdown: "[".repeat(1_000_000) });
    const res = await post(`/workspaces/${ws}/blogs`, body);
    expect(res.status).toBe(401);
  });
});

describe("compressed bodies are refused before they are read (admin.yaml, UnsupportedMediaType)", () => {
  const encodings: [name: string, bytes: Uint8Array][] = [
    ["gzip", GZIP_BOMB],
    ["deflate", deflateSync(NESTED)],
    ["br", brotliCompressSync(NESTED)],
  ];
  for (const path of OPEN_ROUTES) {
    for (const [encoding, bytes] of encodings) {
      it(`${path}: Content-Encoding ${encoding} (1.4 million nested arrays in ${bytes.length} bytes) → 415`, async () => {
        const res = await post(path, bytes, { "content-encoding": encoding });
        expect(res.status).toBe(415);
        expect(res.body).toEqual({
          message:
            "Compressed request bodies are not accepted: send the JSON without Content-Encoding.",
        });
      });
    }
  }

  it("the gzip bomb is the audit's: under 3 KB on the wire", () => {
    expect(GZIP_BOMB.length).toBeLessThan(3000);
  });

  it("Content-Encoding: identity is plain JSON", async () => {
    const res = await post("/session", JSON.stringify({ email: OWNER.email, password: "wrong" }), {
      "content-encoding": "identity",
    });
    expect(res.status).toBe(401);
  });

  it("a charset other than UTF-8 → 415", async () => {
    const res = await post(
      "/session",
      Buffer.from(JSON.stringify({ email: OWNER.email, password: "x" }), "utf16le"),
      { "content-type": "application/json; charset=utf-16le" },
    );
    expect(res).toMatchObject({
      status: 415,
      body: { message: "JSON request bodies must be UTF-8." },
    });
  });
});

describe("bodies nested past MAX_BODY_DEPTH are refused before JSON.parse (admin.yaml, BadRequest)", () => {
  const tooDeep = {
    message: `The JSON body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep.`,
  };

  for (const path of OPEN_ROUTES) {
    it(`${path}: ${defaults.adminBytes - 100} bytes of [ → 400`, async () => {
      const res = await post(path, "[".repeat(defaults.adminBytes - 100));
      expect(res).toMatchObject({ status: 400, body: tooDeep });
    });
  }

  it("an object one level past the bound → 400; at the bound the spec judges it", async () => {
    const nest = (n: number) => `${'{"a":'.repeat(n - 1)}{}${"}".repeat(n - 1)}`;
    const past = await post("/session", nest(MAX_BODY_DEPTH + 1));
    expect(past).toMatchObject({ status: 400, body: tooDeep });
    const at = await post("/session", nest(MAX_BODY_DEPTH));
    expect(at.status).toBe(400);
    expect(at.body).not.toEqual(tooDeep);
  });

  it("brackets inside strings do not count: a password of [ is checked as a password", async () => {
    const res = await post(
      "/session",
      JSON.stringify({ email: OWNER.email, password: `\\"${"[".repeat(150)}` }),
    );
    expect(res.status).toBe(401);
  });
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

describe("security: a stream of hostile bodies to the open operations leaves another workspace's consumer list fast", () => {
  it("6 senders of bombs, deep nesting and oversized bodies; the consumer list's p50 stays near alone, and 38 of its 40 samples too", async () => {
    const consumerList = async (): Promise<number> => {
      const started = performance.now();
      const res = await get(`${server.url}/api/consumer/blogs?limit=10`, { "x-api-key": beta.key });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    const sample = async (count: number, budgetMs: number): Promise<number[]> => {
      const out: number[] = [];
      const until = performance.now() + budgetMs;
      while (out.length < count && (out.length < 3 || performance.now() < until)) {
        out.push(await consumerList());
      }
      return out;
    };
    for (let i = 0; i < 5; i++) await consumerList(); // warm
    const alone = await sample(25, 10_000);

    const senders = startHostileSenders({
      url: server.url,
      senders: 6,
      maxEach: 300,
      underwayAfter: 8,
      nestedBytes: defaults.adminBytes - 100,
      oversizeBytes: defaults.adminBytes * 4,
    });
    await senders.underway;
    const abused = await sample(40, 15_000);
    const { answered, statuses } = await senders.stop();

    const slowest = [...abused].sort((a, b) => b - a).slice(0, 3);
    const report = `alone p50 ${median(alone).toFixed(1)} max ${Math.max(...alone).toFixed(1)} ms; under abuse p50 ${median(abused).toFixed(1)}, slowest ${slowest.map((ms) => ms.toFixed(1)).join(", ")} ms (${abused.length} samples, ${answered} hostile requests answered: ${JSON.stringify(statuses)})`;
    expect(
      Object.keys(statuses).every((s) => ["400", "413", "415"].includes(s)),
      report,
    ).toBe(true);
    expect(median(abused), report).toBeLessThan(5 * median(alone) + 100);
    // Against the median alone, which one slow request on a busy machine does not move. A body
    // that held the server's event loop would hold whichever sample was waiting, each time one
    // came, and the senders keep hundreds coming: so no more than 2 of the 40 samples may pass
    // the bound. Those 2 are the moments another suite on the same 2 cores took the CPU (one
    // sample once took 608 ms in CI, with the median under abuse at 21 ms).
    const slow = abused.filter((ms) => ms >= 10 * median(alone) + 400);
    expect(slow.length, report).toBeLessThanOrEqual(2);
  }, 90_000);
});

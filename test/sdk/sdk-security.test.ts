import { inspect } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, PressroomError } from "../../sdk/src/index.js";
import { type SeededWorkspace, seedWorkspace, withWrongChecksum } from "../support/fixtures.js";
import { type FaultServer, startFaultServer } from "../support/sdk-fault-server.js";
import { rejectionOf } from "../support/sdk-recorder.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let fault: FaultServer;
let a: SeededWorkspace;
const instant = async () => {};

/** Every way a key could leak out of a value into a log. */
function renderings(value: unknown): string[] {
  const out = [
    inspect(value),
    inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }),
    inspect(value, { customInspect: false, showHidden: true, depth: Number.POSITIVE_INFINITY }),
    JSON.stringify(value) ?? "",
    String(value),
  ];
  if (value instanceof Error) {
    out.push(
      value.message,
      value.stack ?? "",
      JSON.stringify(Object.getOwnPropertyDescriptors(value)),
    );
  }
  return out;
}

function expectNoKey(value: unknown, key: string) {
  for (const text of renderings(value)) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(8)); // the secret part, without cp_live_
  }
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  fault = await startFaultServer();
  a = await seedWorkspace(t.db, "Alpha", 3);
});

describe("the API key never shows (sdk/README.md, Keys stay on servers)", () => {
  it("not in util.inspect(client), JSON.stringify(client) or String(client)", async () => {
    const client = createClient({ apiKey: a.key, baseUrl: server.url });
    await client.blogs.list(); // the key has been used and the cache filled
    expectNoKey(client, a.key);
    expectNoKey(client.blogs, a.key);
    expect(inspect(client)).toBe(`PressroomClient { baseUrl: ${JSON.stringify(server.url)} }`);
    expect(JSON.parse(JSON.stringify(client))).toEqual({ baseUrl: server.url });
    expect(Object.values(client)).not.toContain(a.key);
  });

  it("not in any error: HTTP errors from the real server", async () => {
    const client = createClient({ apiKey: a.key, baseUrl: server.url });
    const notFound = await rejectionOf(client.blogs.get(a.draft));
    const badRequest = await rejectionOf(client.blogs.list({ limit: 0 }));
    const unknown = withWrongChecksum(a.key);
    const unauthorized = await rejectionOf(
      createClient({ apiKey: unknown, baseUrl: server.url }).blogs.list(),
    );
    for (const error of [notFound, badRequest]) {
      expect(error).toBeInstanceOf(PressroomError);
      expectNoKey(error, a.key);
    }
    expect(unauthorized).toBeInstanceOf(PressroomError);
    expectNoKey(unauthorized, unknown);
  });

  it("not in any error: 5xx, dropped connections and timeouts", async () => {
    const client = createClient({
      apiKey: a.key,
      baseUrl: fault.url,
      sleep: instant,
      timeoutMs: 50,
    });
    fault.script({ status: 500, body: { message: "Internal server error." } });
    const server500 = await rejectionOf(client.blogs.list());
    fault.script("destroy");
    const dropped = await rejectionOf(client.blogs.list());
    fault.script("hang");
    const timedOut = await rejectionOf(client.blogs.list());
    for (const error of [server500, dropped, timedOut]) {
      expect(error).toBeInstanceOf(PressroomError);
      expectNoKey(error, a.key);
    }
  });

  it("a server that echoes the key in its message gets it redacted", async () => {
    const client = createClient({ apiKey: a.key, baseUrl: fault.url, retry: false });
    fault.script({ status: 401, body: { message: `Key ${a.key} is not valid.` } });
    const error = await rejectionOf(client.blogs.list());
    expect((error as Error).message).toContain("Key [redacted] is not valid.");
    expectNoKey(error, a.key);
  });

  it("an apiKey that cannot be a header value is refused without quoting it", () => {
    const bad = `${a.key}\n`;
    let thrown: unknown;
    try {
      createClient({ apiKey: bad, baseUrl: server.url });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expectNoKey(thrown, a.key);
  });

  it("not in the server's log lines or request URLs after SDK calls", async () => {
    const client = createClient({ apiKey: a.key, baseUrl: server.url });
    await client.blogs.list({ limit: 1 });
    await rejectionOf(client.blogs.get("b_missing"));
    expect(server.logLines.length).toBeGreaterThan(0);
    for (const line of server.logLines) expect(line).not.toContain(a.key.slice(8));
  });
});

describe("keys do not belong in browsers (sdk/README.md, Keys stay on servers)", () => {
  const browserGlobals = ["window", "document", "navigator"] as const;
  const saved = new Map<string, PropertyDescriptor | undefined>();

  function pretendBrowser() {
    for (const name of browserGlobals) {
      saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
      Object.defineProperty(globalThis, name, { value: {}, configurable: true, writable: true });
    }
  }

  afterEach(() => {
    for (const name of browserGlobals) {
      const descriptor = saved.get(name);
      if (descriptor === undefined) Reflect.deleteProperty(globalThis, name);
      else Object.defineProperty(globalThis, name, descriptor);
    }
    saved.clear();
  });

  it("createClient throws in a browser, explaining that keys belong on a server", () => {
    pretendBrowser();
    let thrown: unknown;
    try {
      createClient({ apiKey: a.key, baseUrl: server.url });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PressroomError);
    expect((thrown as Error).message).toMatch(/belong on a server/);
    expect((thrown as Error).message).toMatch(/dangerouslyAllowBrowser/);
    expectNoKey(thrown, a.key);
  });

  it("dangerouslyAllowBrowser: true lets it run", async () => {
    pretendBrowser();
    const client = createClient({
      apiKey: a.key,
      baseUrl: server.url,
      dangerouslyAllowBrowser: true,
    });
    expect((await client.blogs.list()).data.map((x) => x.id)).toEqual(a.released);
  });

  it("one or two browser-like globals (Node ≥ 21 has navigator) are not a browser", () => {
    saved.set("navigator", Object.getOwnPropertyDescriptor(globalThis, "navigator"));
    Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true });
    expect(() => createClient({ apiKey: a.key, baseUrl: server.url })).not.toThrow();
  });
});

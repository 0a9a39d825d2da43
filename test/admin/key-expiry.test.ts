// Key expiry (admin.yaml, mintKey and listKeys; README, "API keys"): a key minted with
// `expiresAt` works until then and is refused after with exactly the 401 of an unknown key;
// an expiry in the past, under 60 seconds or over 366 days ahead is a 400 and nothing is stored.
// The server's clock is moved forward (an injected offset) instead of waiting.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { get, withWrongChecksum } from "../support/fixtures.js";
import { DAY, HOUR, offsetClock, SECOND } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type ApiKey = components["schemas"]["ApiKey"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;
const clock = offsetClock();

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db, {}, { testHooks: { now: clock.now } });
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
});

const inFromNow = (ms: number) => new Date(clock.now() + ms).toISOString();
const mint = (body: Record<string, unknown>) =>
  owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site", ...body });
const consumer = (key: string) => get(`${server.url}/api/consumer/blogs`, { "x-api-key": key });
const keysNow = async (query = "") =>
  (await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys${query}`)).body.data;
/** The keys without `lastUsedAt`, which consumer requests of earlier tests move on their own. */
const keysAsSet = async () => (await keysNow()).map(({ lastUsedAt: _, ...rest }) => rest);

describe("key expiry — happy path", () => {
  it("a key minted with expiresAt shows it, is Active, and works until then", async () => {
    const expiresAt = inFromNow(DAY);
    const res = await mint({ expiresAt });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ status: "Active", expiresAt, rolledTo: null });
    expect((await consumer(res.body.secret)).status).toBe(200);
  });

  it("a key minted without expiresAt, or with null, never expires", async () => {
    for (const body of [{}, { expiresAt: null }]) {
      const res = await mint(body);
      expect(res.status).toBe(201);
      expect(res.body.key.expiresAt).toBeNull();
    }
  });

  it("listKeys' status filter keeps the keys in that state now", async () => {
    const soon = await mint({ name: "Soon", expiresAt: inFromNow(2 * HOUR) });
    const revoked = await mint({ name: "Gone" });
    await owner.post(`/workspaces/${ws}/keys/${revoked.body.key.id}/revoke`);
    clock.advance(3 * HOUR);
    const expired = await keysNow("?status=expired");
    expect(expired.map((k) => k.id)).toContain(soon.body.key.id);
    expect(expired.every((k) => k.status === "Expired")).toBe(true);
    const revokedOnly = await keysNow("?status=revoked");
    expect(revokedOnly.map((k) => k.id)).toEqual([revoked.body.key.id]);
    const active = await keysNow("?status=active");
    expect(active.every((k) => k.status === "Active")).toBe(true);
    expect(active.map((k) => k.id)).not.toContain(soon.body.key.id);
    const all = await keysNow();
    expect(all).toHaveLength(expired.length + revokedOnly.length + active.length);
  });
});

describe("key expiry — errors: an expiry out of bounds is 400 and stores nothing", () => {
  it.each([
    ["in the past", -HOUR, "expiresAt must be at least 60 seconds in the future."],
    ["59 seconds ahead", 59 * SECOND, "expiresAt must be at least 60 seconds in the future."],
    ["367 days ahead", 367 * DAY, "expiresAt must be at most 366 days in the future."],
  ])("%s", async (_what, ms, message) => {
    const before = await keysAsSet();
    const audit = await owner.get<{ data: unknown[] }>(`/workspaces/${ws}/audit?limit=100`);
    const res = await mint({ expiresAt: inFromNow(ms) });
    expect(res).toMatchObject({ status: 400, body: { message } });
    expect(await keysAsSet()).toEqual(before);
    expect(
      (await owner.get<{ data: unknown[] }>(`/workspaces/${ws}/audit?limit=100`)).body.data,
    ).toEqual(audit.body.data);
  });

  it("a value that is not a date-time is 400 by the spec", async () => {
    for (const expiresAt of ["tomorrow", 1_900_000_000, "2030-13-01T00:00:00Z"]) {
      expect((await mint({ expiresAt })).status).toBe(400);
    }
  });

  it("the bounds themselves are accepted: 60 seconds and 366 days ahead", async () => {
    expect((await mint({ expiresAt: inFromNow(61 * SECOND) })).status).toBe(201);
    expect((await mint({ expiresAt: inFromNow(366 * DAY - 5 * SECOND) })).status).toBe(201);
  });
});

describe("key expiry — security: an expired key is refused exactly as an unknown key", () => {
  it("after expiresAt the consumer API answers the seed's 401 body, by x-api-key and by Bearer", async () => {
    const res = await mint({ expiresAt: inFromNow(61 * SECOND) });
    const key = res.body.secret;
    expect((await consumer(key)).status).toBe(200);
    clock.advance(62 * SECOND);
    const unknown = await consumer(withWrongChecksum(key));
    const byHeader = await consumer(key);
    const byBearer = await get(`${server.url}/api/consumer/blogs`, {
      authorization: `Bearer ${key}`,
    });
    for (const answer of [byHeader, byBearer]) {
      expect(answer.status).toBe(401);
      expect(answer.text).toBe('{"message":"Invalid or missing API key."}');
      expect(answer.text).toBe(unknown.text);
      expect(answer.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
    }
    const listed = (await keysNow()).find((k) => k.id === res.body.key.id);
    expect(listed?.status).toBe("Expired");
  });
});

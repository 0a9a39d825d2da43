// The operator CLI's key options (README, "Operator CLI"): expiry at mint (--expires-in in hours
// or days, --expires-at an ISO date), roll with a grace period, the status filter, and the limit
// settings of a key and a workspace; bad values exit 2 with usage or 1 with the reason.
import { beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runCli } from "../support/cli.js";
import { get } from "../support/fixtures.js";
import { DAY, HOUR } from "../support/test-clock.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let env: Record<string, string>;
let ws: string;
const cli = (...args: string[]) => runCli(args, env);
const json = (r: CliResult) => {
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};
type KeyOut = { id: string; status: string; expiresAt: string | null; rolledTo: string | null };
const listed = async (...extra: string[]) =>
  json(await cli("key", "list", "--workspace", ws, "--json", ...extra)).keys as KeyOut[];

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  env = { MONGODB_URI: t.uri, MONGODB_DB: t.name };
  ws = String(json(await cli("workspace", "create", "--name", "Keys Co", "--json")).id);
});

describe("CLI keys — happy path", () => {
  it("key mint --expires-in 30d and --expires-at set the expiry; key list shows it", async () => {
    const before = Date.now();
    const in30 = json(
      await cli("key", "mint", "--workspace", ws, "--name", "A", "--expires-in", "30d", "--json"),
    );
    const at = Date.parse(String(in30.expiresAt));
    expect(at - before).toBeGreaterThanOrEqual(30 * DAY);
    expect(at - Date.now()).toBeLessThanOrEqual(30 * DAY);
    const date = new Date(Date.now() + 10 * DAY).toISOString();
    const byDate = json(
      await cli("key", "mint", "--workspace", ws, "--name", "B", "--expires-at", date, "--json"),
    );
    expect(byDate.expiresAt).toBe(date);
    const keys = await listed();
    expect(keys.find((k) => k.id === in30.id)).toMatchObject({
      status: "Active",
      expiresAt: in30.expiresAt,
      rolledTo: null,
    });
    const text = await cli("key", "list", "--workspace", ws);
    expect(text.stdout).toMatch(/LAST USED\s+EXPIRES\s+ROLLED TO/);
  });

  it("key roll --grace 24h prints the successor once; both keys work; list shows rolledTo", async () => {
    const old = json(await cli("key", "mint", "--workspace", ws, "--name", "Roll me", "--json"));
    const rolled = json(
      await cli("key", "roll", "--workspace", ws, String(old.id), "--grace", "24h", "--json"),
    );
    expect(rolled).toMatchObject({ rolledFrom: old.id, expiresAt: null });
    expect(rolled.key).toMatch(/^cp_live_[0-9A-Za-z]{42}$/);
    for (const key of [old.key, rolled.key]) {
      const res = await get(`${server.url}/api/consumer/blogs`, { "x-api-key": String(key) });
      expect(res.status).toBe(200);
    }
    const oldListed = (await listed()).find((k) => k.id === old.id);
    expect(oldListed?.rolledTo).toBe(rolled.id);
    const graceEnd = Date.parse(oldListed?.expiresAt ?? "");
    expect(Math.abs(graceEnd - (Date.now() + 24 * HOUR))).toBeLessThan(60_000);
    const text = await cli("key", "roll", "--workspace", ws, String(rolled.id));
    expect(text.stdout).toContain("only time the key is shown");
  });

  it("key list --status filters by the computed status", async () => {
    const gone = json(await cli("key", "mint", "--workspace", ws, "--name", "Gone", "--json"));
    json(await cli("key", "revoke", "--workspace", ws, String(gone.id), "--json"));
    const revoked = await listed("--status", "revoked");
    expect(revoked.map((k) => k.id)).toEqual([gone.id]);
    expect((await listed("--status", "active")).every((k) => k.status === "Active")).toBe(true);
  });

  it("key limit and workspace limit set a limit, and default removes it", async () => {
    const key = json(await cli("key", "mint", "--workspace", ws, "--name", "Limited", "--json"));
    expect(
      json(
        await cli("key", "limit", "--workspace", ws, String(key.id), "--rate", "100/60", "--json"),
      ),
    ).toEqual({ id: key.id, rateLimit: { requests: 100, windowSeconds: 60 } });
    expect(
      json(
        await cli("key", "limit", "--workspace", ws, String(key.id), "--rate", "default", "--json"),
      ),
    ).toEqual({ id: key.id, rateLimit: null });
    expect(
      json(await cli("workspace", "limit", "--workspace", ws, "--rate", "600/3600", "--json")),
    ).toEqual({
      rateLimit: { requests: 600, windowSeconds: 3600 },
      serverDefault: { requests: 1200, windowSeconds: 60 },
    });
    const text = await cli("workspace", "limit", "--workspace", ws, "--rate", "default");
    expect(text.stdout).toContain("Workspace default: the server's default.");
  });
});

describe("CLI keys — errors", () => {
  it("malformed durations, dates and rates exit 2 with usage", async () => {
    for (const args of [
      ["key", "mint", "--workspace", ws, "--name", "x", "--expires-in", "30"],
      ["key", "mint", "--workspace", ws, "--name", "x", "--expires-in", "2w"],
      ["key", "mint", "--workspace", ws, "--name", "x", "--expires-at", "next week"],
      [
        "key",
        "mint",
        "--workspace",
        ws,
        "--name",
        "x",
        "--expires-in",
        "1d",
        "--expires-at",
        "2030-01-01",
      ],
      ["key", "roll", "--workspace", ws, "key_x", "--grace", "soon"],
      ["key", "list", "--workspace", ws, "--status", "dormant"],
      ["key", "limit", "--workspace", ws, "key_x", "--rate", "fast"],
      ["workspace", "limit", "--workspace", ws],
    ]) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("Usage: pressroom");
    }
  });

  it("out-of-bounds values exit 1 with the reason, nothing stored", async () => {
    const before = await listed();
    const far = await cli("key", "mint", "--workspace", ws, "--name", "x", "--expires-in", "367d");
    expect(far.code).toBe(1);
    expect(far.stderr).toContain("expiresAt must be at most 366 days in the future.");
    const past = await cli(
      "key",
      "mint",
      "--workspace",
      ws,
      "--name",
      "x",
      "--expires-at",
      "2020-01-01",
    );
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("at least 60 seconds in the future");
    const key = before[0]?.id ?? "";
    const short = await cli("key", "roll", "--workspace", ws, key, "--grace", "30m");
    expect(short.code).toBe(2);
    const long = await cli("key", "roll", "--workspace", ws, key, "--grace", "31d");
    expect(long.code).toBe(1);
    expect(long.stderr).toContain("gracePeriodSeconds must be a whole number from 3600");
    const zero = await cli("key", "limit", "--workspace", ws, key, "--rate", "0/60");
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain("rateLimit.requests must be a whole number from 1 to 1000000.");
    expect(await listed()).toEqual(before);
  });
});

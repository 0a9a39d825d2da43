// Sign-in throttling (README, "Production": sign-in throttling): attempts are counted before the
// password is checked, one stored record per attempt, so no burst of parallel requests gets more
// password checks than the limits allow, on MongoDB and on the embedded FerretDB alike.
//
// A password check is visible from outside as any answer other than 429 (401 or 200): the
// server answers 429 before it looks at the password, and only then.
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/src/platform/config.js";
import {
  addressKey,
  MAX_FAILURES,
  MAX_FAILURES_PER_ADDRESS,
  WINDOW_MS,
} from "../../server/src/sessions/sign-in-throttle.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
/** TRUST_PROXY=loopback: each test poses as its own clients through X-Forwarded-For. */
let proxied: TestServer;
/** No TRUST_PROXY (the default): every request here comes from 127.0.0.1. */
let direct: TestServer;

beforeAll(async () => {
  t = await useTestDb();
  proxied = await startTestServer(t.db, { TRUST_PROXY: "loopback" });
  direct = await startTestServer(t.db);
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

async function signIn(
  server: TestServer,
  email: string,
  password: string,
  forwardedFor?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    origin: server.url,
  };
  if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor;
  const res = await fetch(`${server.url}/api/admin/session`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: text === "" ? undefined : (JSON.parse(text) as unknown),
  };
}

/** How many answers had each status, e.g. { 401: 5, 429: 295 }; logged for the record. */
function tally(label: string, answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  console.log(`${label}: ${JSON.stringify(counts)}`);
  return counts;
}

const passwordChecks = (answers: readonly Answer[]) =>
  answers.filter((a) => a.status !== 429).length;

const failureRecords = () => stores(t.db).signInFailures.countDocuments({});

const TOO_MANY = { message: "Too many failed sign-ins. Try again later." };

describe("sign-in throttle: happy path", () => {
  it("a success clears the email's count: wrong passwords after it are answered 401 again", async () => {
    await stores(t.db).users.create({
      email: "clears@example.com",
      name: "Clears",
      password: "the right password",
    });
    const from = "198.51.100.10";
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expect((await signIn(proxied, "clears@example.com", `guess ${i}`, from)).status).toBe(401);
    }
    expect((await signIn(proxied, "clears@example.com", "the right password", from)).status).toBe(
      200,
    );
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await signIn(proxied, "clears@example.com", `again ${i}`, from)).status).toBe(401);
    }
    expect((await signIn(proxied, "clears@example.com", "the right password", from)).status).toBe(
      429,
    );
  });

  it("behind a trusted proxy, clients are told apart by X-Forwarded-For: one client's burst leaves another's sign-in working", async () => {
    await stores(t.db).users.create({
      email: "bystander@example.com",
      name: "Bystander",
      password: "the right password",
    });
    const burst = await Promise.all(
      Array.from({ length: MAX_FAILURES_PER_ADDRESS + 10 }, (_, i) =>
        signIn(proxied, `spray-${i}@burst.example`, "wrong password", "198.51.100.20"),
      ),
    );
    tally("burst from one address", burst);
    expect(passwordChecks(burst)).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
    const other = await signIn(
      proxied,
      "bystander@example.com",
      "the right password",
      "198.51.100.21",
    );
    expect(other.status).toBe(200);
  });
});

describe("sign-in throttle: errors", () => {
  it("over the email limit: 429 with the generic message and a Retry-After within the window", async () => {
    const from = "198.51.100.30";
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await signIn(proxied, "limit@example.com", `guess ${i}`, from)).status).toBe(401);
    }
    const blocked = await signIn(proxied, "limit@example.com", "another guess", from);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(TOO_MANY);
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(WINDOW_MS / 1000);
  });

  it("over the address limit: 429 with the same message and a Retry-After, for an email never tried", async () => {
    const from = "198.51.100.40";
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await signIn(proxied, `seq-${i}@address.example`, "wrong", from)).status).toBe(401);
    }
    const blocked = await signIn(proxied, "fresh@address.example", "wrong", from);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(TOO_MANY);
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(WINDOW_MS / 1000);
  });
});

describe("sign-in throttle: security", () => {
  it("300 parallel wrong passwords for one email get at most MAX_FAILURES password checks", async () => {
    // Each from its own address, so only the per-email limit is in play.
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        signIn(proxied, "parallel@example.com", `guess ${i}`, `10.1.${i >> 8}.${i & 255}`),
      ),
    );
    const counts = tally("300 parallel, one email", answers);
    expect(Object.keys(counts).sort()).toEqual(
      Object.keys(counts).filter((s) => s === "401" || s === "429"),
    );
    expect(passwordChecks(answers)).toBeLessThanOrEqual(MAX_FAILURES);
  }, 120_000);

  it("with one attempt left, 60 parallel guesses including the right password get at most one password check", async () => {
    await stores(t.db).users.create({
      email: "last-chance@example.com",
      name: "Last Chance",
      password: "the right password",
    });
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      const res = await signIn(proxied, "last-chance@example.com", `first ${i}`, "10.5.0.1");
      expect(res.status).toBe(401);
    }
    const guesses = Array.from({ length: 60 }, (_, i) =>
      i === 41 ? "the right password" : `guess ${i}`,
    );
    const answers = await Promise.all(
      guesses.map((password, i) =>
        signIn(proxied, "last-chance@example.com", password, `10.6.0.${i}`),
      ),
    );
    const counts = tally("one attempt left, then 60 parallel guesses with the right one", answers);
    expect(passwordChecks(answers)).toBeLessThanOrEqual(1);
    // The right password signs in only if it happened to be that one allowed check.
    expect(counts[200] ?? 0).toBeLessThanOrEqual(1);
  }, 120_000);

  it("once MAX_FAILURES parallel wrong guesses have used up the budget, 60 parallel guesses including the right password all get 429", async () => {
    await stores(t.db).users.create({
      email: "target@example.com",
      name: "Target",
      password: "the right password",
    });
    const first = await Promise.all(
      Array.from({ length: MAX_FAILURES }, (_, i) =>
        signIn(proxied, "target@example.com", `first ${i}`, `10.2.0.${i}`),
      ),
    );
    tally(`${MAX_FAILURES} parallel wrong guesses`, first);
    const guesses = Array.from({ length: 60 }, (_, i) =>
      i === 37 ? "the right password" : `guess ${i}`,
    );
    const answers = await Promise.all(
      guesses.map((password, i) => signIn(proxied, "target@example.com", password, `10.3.0.${i}`)),
    );
    const counts = tally("then 60 parallel guesses with the right one", answers);
    expect(counts[200] ?? 0).toBe(0);
    expect(answers.every((a) => a.status === 429)).toBe(true);
  }, 120_000);

  it("120 parallel attempts against 120 emails from one address get at most MAX_FAILURES_PER_ADDRESS password checks and leave as many records", async () => {
    const before = await failureRecords();
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        signIn(proxied, `victim-${i}@spray.example`, "Summer2026!", "198.51.100.50"),
      ),
    );
    tally("120 parallel, 120 emails, one address", answers);
    const stored = (await failureRecords()) - before;
    console.log(`records stored by the burst: ${stored}`);
    expect(passwordChecks(answers)).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
    // Refused attempts keep no record: what one address can store is bounded.
    expect(stored).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
  }, 120_000);

  it("without TRUST_PROXY, X-Forwarded-For is ignored: spoofed addresses share the real address's budget", async () => {
    const answers = await Promise.all(
      Array.from({ length: MAX_FAILURES_PER_ADDRESS + 10 }, (_, i) =>
        signIn(direct, `spoof-${i}@spoof.example`, "wrong", `203.0.113.${i}`),
      ),
    );
    tally("spoofed X-Forwarded-For, no TRUST_PROXY", answers);
    expect(passwordChecks(answers)).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
  }, 120_000);

  it("IPv6 clients are counted per /64: many addresses of one /64 share one budget", async () => {
    const answers = await Promise.all(
      Array.from({ length: MAX_FAILURES_PER_ADDRESS + 10 }, (_, i) =>
        signIn(proxied, `v6-${i}@v6.example`, "wrong", `2001:db8:5:6:${(i + 1).toString(16)}::1`),
      ),
    );
    tally("one IPv6 /64, many addresses", answers);
    expect(passwordChecks(answers)).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
  }, 120_000);

  it("the email is matched case-insensitively: its spellings share one budget", async () => {
    const spellings = ["Spell@Example.com", "spell@EXAMPLE.com", "SPELL@EXAMPLE.COM"];
    for (let i = 0; i < MAX_FAILURES; i++) {
      const email = spellings[i % spellings.length] ?? "";
      expect((await signIn(proxied, email, "wrong", `10.4.0.${i}`)).status).toBe(401);
    }
    expect((await signIn(proxied, "spell@example.com", "wrong", "10.4.1.1")).status).toBe(429);
  });
});

describe("client address key", () => {
  it("IPv4 and IPv4-mapped IPv6 are one client; IPv6 is keyed by its /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe(addressKey("2001:DB8:1:2::9"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("fe80::1%eth0")).toBe(addressKey("fe80::2"));
    expect(addressKey(undefined)).toBe("unknown");
  });
});

describe("TRUST_PROXY setting", () => {
  it("unset trusts no proxy; accepts a hop count or a list of addresses, subnets and names", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8, 2001:db8::1" }).trustProxy).toEqual([
      "loopback",
      "10.0.0.0/8",
      "2001:db8::1",
    ]);
  });

  it("true and malformed values stop the process with a message naming TRUST_PROXY", () => {
    for (const value of ["true", "0", "-1", "10.0.0.0/33", "proxy.example", "loopback,,"]) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});

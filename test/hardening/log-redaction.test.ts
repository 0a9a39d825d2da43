import { beforeAll, describe, expect, it } from "vitest";
import { redactKeys } from "../../server/src/platform/logger.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/**
 * README, "API keys" (never logged): a key a client puts in the URL percent-encoded (`cp%5Flive%5F…`) must not
 * reach the access log in any form — raw, encoded, with either case of hex digits, or encoded
 * twice.
 */

let server: TestServer;
let a: SeededWorkspace;

beforeAll(async () => {
  const t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha");
});

/** Every character as %XX, in the given case of hex digits. */
const encodeAll = (text: string, hex: "upper" | "lower") =>
  [...text]
    .map((c) => {
      const h = c.charCodeAt(0).toString(16).padStart(2, "0");
      return `%${hex === "upper" ? h.toUpperCase() : h}`;
    })
    .join("");

/** Decodes ASCII %XX escapes until nothing changes: what any reader of the log could recover. */
function decodeFully(text: string): string {
  let current = text;
  for (;;) {
    const next = current.replace(/%([0-7][0-9A-Fa-f])/g, (_, h: string) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

/**
 * Whether the text, decoded as far as it goes, holds any 10 consecutive characters of the key's
 * secret part (everything after its 12-character display prefix): a partly cut key leaks too.
 */
function leaks(text: string, key: string): boolean {
  const decoded = decodeFully(text);
  const secret = key.slice(12);
  for (let i = 0; i + 10 <= secret.length; i++) {
    if (decoded.includes(secret.slice(i, i + 10))) return true;
  }
  return false;
}

/**
 * A key split by separators, as clients spell them in a URL path (README, "Production": the
 * access log): a space raw-ish (`%20`, `+`), `-`, `.`, `~`, `,`, `;`, a tab, a no-break space,
 * a slash raw or encoded, double-encoded, and the last `_` of its prefix replaced or split.
 */
function splitKeyPaths(key: string): [name: string, path: string][] {
  const body = key.slice("cp_live_".length);
  const [a, b, c] = [body.slice(0, 14), body.slice(14, 28), body.slice(28)];
  const split = (sep: string) => `cp_live_${a}${sep}${b}${sep}${c}`;
  const seps: [string, string][] = [
    ["%20", "%20"],
    ["+", "+"],
    ["-", "-"],
    [".", "."],
    ["~", "~"],
    [",", ","],
    [";", ";"],
    ["%09 (a tab)", "%09"],
    ["%C2%A0 (a no-break space)", "%C2%A0"],
    ["/ (a raw slash)", "/"],
    ["%2F (an encoded slash)", "%2F"],
    ["%2520 (a double-encoded space)", "%2520"],
    ["%252F (a double-encoded slash)", "%252F"],
  ];
  return [
    ...seps.map(([name, sep]): [string, string] => [name, `/api/consumer/blogs/${split(sep)}`]),
    ["%20 after the prefix", `/api/consumer/blogs/cp_live_%20${body}`],
    ["%20 in place of the prefix's last _", `/api/consumer/blogs/cp_live%20${body}`],
    [
      "%5F-encoded, then split by %20",
      `/api/consumer/blogs/${split("%20").replaceAll("_", "%5F")}`,
    ],
    ["in an admin path, split by -", `/api/admin/workspaces/${split("-")}/keys`],
  ];
}

/** The first run of 8 or more characters of the key's body (after `cp_live_`) in the text, decoded. */
function runOfKey(text: string, key: string): string | undefined {
  const decoded = decodeFully(text);
  const body = key.slice("cp_live_".length);
  for (let i = 0; i + 8 <= body.length; i++) {
    if (decoded.includes(body.slice(i, i + 8))) return body.slice(i, i + 8);
  }
  return undefined;
}

/** The access-log line of the response with this request id. */
function accessLine(reqId: string): Record<string, unknown> | undefined {
  return server.logLines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.reqId === reqId && l.msg === "request");
}

describe("security: a percent-encoded key in the URL reaches no log line, in any form", () => {
  it("in the path or the query, encoded once (either case), twice, three times, every character, partly, or next to a malformed escape", async () => {
    const key = a.key;
    const under = (s: string) => key.replaceAll("_", s);
    const forms: [name: string, path: string][] = [
      ["%5F", `/api/consumer/blogs/${under("%5F")}`],
      ["%5f (lower-case hex)", `/api/consumer/blogs/${under("%5f")}`],
      ["%255F (double-encoded)", `/api/consumer/blogs/${under("%255F")}`],
      ["%25255F (triple-encoded)", `/api/consumer/blogs/${under("%25255F")}`],
      ["every character, upper-case hex", `/api/consumer/blogs/${encodeAll(key, "upper")}`],
      ["every character, lower-case hex", `/api/consumer/blogs/${encodeAll(key, "lower")}`],
      [
        "every character, double-encoded",
        `/api/consumer/blogs/${encodeAll(key, "upper").replaceAll("%", "%25")}`,
      ],
      [
        "one character of the secret encoded",
        `/api/consumer/blogs/${key.slice(0, 20)}%${key.charCodeAt(20).toString(16)}${key.slice(21)}`,
      ],
      ["a malformed escape before it", `/api/consumer/blogs/%E0%A4%A${under("%5F")}`],
      ["a stray %zz after it", `/nope/${under("%5F")}%zz`],
      ["an admin path", `/api/admin/workspaces/${under("%5F")}/keys`],
      ["the query", `/api/consumer/blogs?api_key=${under("%5F")}`],
      ["the query, double-encoded", `/api/consumer/blogs?api_key=${under("%255F")}`],
      ["an encoded ? that is really the path", `/api/consumer/blogs%3Fapi_key=${under("%5F")}`],
    ];
    const problems: string[] = [];
    for (const [name, path] of forms) {
      const res = await get(`${server.url}${path}`, { "x-api-key": a.key });
      if (res.status >= 500) problems.push(`${name}: ${res.status}`);
      const line = accessLine(res.headers.get("x-request-id") ?? "");
      if (line === undefined) {
        problems.push(`${name}: no access-log line`);
        continue;
      }
      if (leaks(JSON.stringify(line), key)) {
        problems.push(`${name}: the key is in the log as ${String(line.path)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(leaks(server.logLines.join("\n"), key)).toBe(false);
  });

  it("a key split by a separator in any spelling: no 8 of its characters in a row in any log line", async () => {
    const problems: string[] = [];
    for (const [name, path] of splitKeyPaths(a.key)) {
      const res = await get(`${server.url}${path}`);
      if (res.status >= 500) problems.push(`${name}: ${res.status}`);
      const line = accessLine(res.headers.get("x-request-id") ?? "");
      if (line === undefined) problems.push(`${name}: no access-log line`);
      const run = runOfKey(JSON.stringify(line ?? {}), a.key);
      if (run !== undefined) problems.push(`${name}: ${run} in ${String(line?.path)}`);
    }
    expect(problems).toEqual([]);
    expect(runOfKey(server.logLines.join("\n"), a.key)).toBeUndefined();
  });

  it("the access log shows the decoded path with the key cut", async () => {
    const res = await get(`${server.url}/api/consumer/blogs/${a.key.replaceAll("_", "%5F")}`, {
      "x-api-key": a.key,
    });
    expect(accessLine(res.headers.get("x-request-id") ?? "")).toMatchObject({
      path: "/api/consumer/blogs/cp_live_[REDACTED]",
      status: 404,
    });
  });
});

describe("redactKeys", () => {
  const key = `cp_live_${"A1b2C3d4E5".repeat(4)}zz`;

  it("happy: text without a key, escapes included, is left exactly as it is", () => {
    for (const text of [
      "/api/consumer/blogs/b_123",
      "/api/consumer/blogs/b_%C3%BCn%C3%AFc%C3%B8d%C3%A9",
      "/100%25/%zz/%E0%A4%A/%",
      "/x/cp_live_",
      "/x/cp%5Flive%5F",
      "/x/cp_lively/cp_testing",
    ]) {
      expect(redactKeys(text)).toBe(text);
    }
  });

  it("cuts a raw, an encoded and a double-encoded key and all after it, and keeps what is before", () => {
    expect(redactKeys(`/x/${key}/y`)).toBe("/x/cp_live_[REDACTED]");
    expect(redactKeys(`/x/id-${key.replaceAll("_", "%5f")}/y`)).toBe("/x/id-cp_live_[REDACTED]");
    expect(redactKeys(`/x/${key.replaceAll("_", "%255F")}/y`)).toBe("/x/cp_live_[REDACTED]");
  });

  it("security: a key split by a separator, in any spelling, leaves no 8 of its characters in a row", () => {
    for (const [name, path] of splitKeyPaths(key)) {
      const logged = redactKeys(path);
      expect(runOfKey(logged, key), `${name}: ${logged}`).toBeUndefined();
    }
  });

  it("security: a key hidden by a stray escape before it, or encoded deeper than it decodes, is cut whole", () => {
    // "%4c" decodes to "L", so the decoded text no longer starts with cp_: the raw one did.
    expect(redactKeys(`/x/%4${key}`)).toBe("/x/[REDACTED]");
    const deep = key.replaceAll("_", `%${"25".repeat(9)}5F`);
    expect(redactKeys(`/x/${deep}`)).toBe("/x/[REDACTED]");
  });

  it("security: a 16 KB path of nested escapes costs a bounded number of passes", () => {
    const text = `/x/%${"25".repeat(8000)}41`;
    const started = performance.now();
    expect(redactKeys(text)).toBe("/x/[REDACTED]");
    expect(performance.now() - started).toBeLessThan(200);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanRun } from "../support/secret-scan.js";

/**
 * The run-wide secrets scan itself (test/support/secret-scan.ts), on a directory of its own, so
 * that what it plants here never reaches the run's scan (README, "Scripts and CI"): it must find a
 * key in any spelling a URL gives it, not only the raw one.
 */

const dir = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Built here rather than written out, so this source holds no key-shaped string.
const KEY = `cp_live_${"Ab3dE5gH7j".repeat(4)}K9`;

const encodeAll = (text: string, upper: boolean) =>
  [...text]
    .map((c) => {
      const hex = c.charCodeAt(0).toString(16);
      return `%${upper ? hex.toUpperCase() : hex}`;
    })
    .join("");

const SPELLINGS: [name: string, spelled: string][] = [
  ["raw", KEY],
  ["underscores-5F", KEY.replaceAll("_", "%5F")],
  ["underscores-5f", KEY.replaceAll("_", "%5f")],
  ["underscores-255F", KEY.replaceAll("_", "%255F")],
  ["underscores-255f", KEY.replaceAll("_", "%255f")],
  ["every-character-upper", encodeAll(KEY, true)],
  ["every-character-lower", encodeAll(KEY, false)],
  ["every-character-twice", encodeAll(KEY, true).replaceAll("%", "%25")],
  ["one-character", `${KEY.slice(0, 30)}%${KEY.charCodeAt(30).toString(16)}${KEY.slice(31)}`],
];

function plant(
  name: string,
  kind: "logs" | "db" | "responses" | "invitations",
  text: string,
): void {
  writeFileSync(path.join(dir, `${name}.${kind}.txt`), `${text}\n`);
}

const response = (body: string, mint = false) =>
  JSON.stringify({ method: "GET", url: "/api/consumer/blogs/x", status: 404, mint, body });

describe("the secrets scan", () => {
  it("finds a key in a log line, a stored document and a response body in every spelling: raw, percent-encoded in either case, twice, wholly or in part", () => {
    for (const [name, spelled] of SPELLINGS) {
      plant(`${name}-log`, "logs", JSON.stringify({ msg: "request", path: `/api/x/${spelled}` }));
      plant(`${name}-doc`, "db", JSON.stringify({ _id: "x", note: `?k=${spelled}&z=1` }));
      plant(`${name}-res`, "responses", response(JSON.stringify({ message: spelled })));
    }
    const { findings } = scanRun(dir);
    const missed = SPELLINGS.flatMap(([name]) =>
      ["log", "doc", "res"]
        .map((where) => `${name}-${where}`)
        .filter((file) => !findings.some((f) => f.startsWith(`${file}.`) && f.includes("API key"))),
    );
    expect(missed).toEqual([]);
  });

  it("happy: a mint response may show the key (once, to its owner); cut or short keys are no finding", () => {
    const clean = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      writeFileSync(path.join(clean, "mint.responses.txt"), `${response(KEY, true)}\n`);
      writeFileSync(
        path.join(clean, "cut.logs.txt"),
        [
          "/api/consumer/blogs/cp_live_[REDACTED]",
          "/api/consumer/blogs/cp%5Flive%5F[REDACTED]",
          `/x/${KEY.slice(0, 40).replaceAll("_", "%5F")}`,
          "/100%25/%zz/%E0%A4%A",
        ].join("\n"),
      );
      expect(scanRun(clean).findings).toEqual([]);
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });

  it("finds an invitation token anywhere but in the response that created it (test/support/secret-scan.ts)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      const token = "Zx9".repeat(14).concat("Q");
      const created = JSON.stringify({
        method: "POST",
        url: "/api/admin/workspaces/ws_x/invitations",
        status: 201,
        mint: false,
        invite: true,
        body: JSON.stringify({ link: `http://127.0.0.1:1/dashboard/#/join/${token}` }),
      });
      writeFileSync(path.join(own, "issued.invitations.txt"), `${token}\n`);
      writeFileSync(path.join(own, "create.responses.txt"), `${created}\n`);
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"lookup","token":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"inv_x","token":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(token)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: an invitation token",
        "leak.logs.txt: an invitation token",
        "leak.responses.txt GET /api/consumer/blogs/x 404: an invitation token",
      ]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("finds a password-reset token in any response, log line or stored document: it is only ever mailed (test/support/secret-scan.ts)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      const token = "Rs7".repeat(14).concat("k");
      writeFileSync(path.join(own, "mailed.reset-tokens.txt"), `${token}\n`);
      writeFileSync(path.join(own, "clean.logs.txt"), '{"msg":"password reset link mailed"}\n');
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"reset","token":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(token)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: a password-reset token",
        "leak.logs.txt: a password-reset token",
        "leak.responses.txt GET /api/consumer/blogs/x 404: a password-reset token",
      ]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("finds an email-change token in any response, log line or stored document: it is only ever mailed to the new address (test/support/secret-scan.ts; admin.yaml, confirmEmailChange)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      const token = "Ec5".repeat(14).concat("q");
      writeFileSync(path.join(own, "mailed.email-change-tokens.txt"), `${token}\n`);
      writeFileSync(path.join(own, "clean.logs.txt"), '{"msg":"email-change link mailed"}\n');
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"confirm","token":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"usr_x","tokenHash":"${token}"}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(token)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: an email-change token",
        "leak.logs.txt: an email-change token",
        "leak.responses.txt GET /api/consumer/blogs/x 404: an email-change token",
      ]);
      expect(scanRun(own).emailChangeTokens).toBe(1);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("finds an access token anywhere but in the answer that made it (test/support/secret-scan.ts)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      // Built here, so this source holds no token-shaped string.
      const secret = `pr_pat_${"Tk4".repeat(14)}`;
      const made = JSON.stringify({
        method: "POST",
        url: "/api/admin/me/tokens",
        status: 201,
        mint: false,
        accessToken: true,
        body: JSON.stringify({ secret }),
      });
      writeFileSync(path.join(own, "made.responses.txt"), `${made}\n`);
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"auth","token":"${secret}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"x","secret":"${secret}"}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(secret)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: an access token",
        "leak.logs.txt: an access token",
        "leak.responses.txt GET /api/consumer/blogs/x 404: an access token",
      ]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("finds a webhook signing secret anywhere but in the answer that showed it, with or without its whsec_ prefix (test/support/secret-scan.ts)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      // Built here, so this source holds no secret-shaped string.
      const bytes = `${"Qw3+Er5/Ty7".repeat(3)}Ui9Op1Asd4=`;
      const secret = `whsec_${bytes}`;
      const shown = JSON.stringify({
        method: "POST",
        url: "/api/admin/workspaces/ws_x/webhooks/we_x/rotate-secret",
        status: 200,
        mint: false,
        webhookSecret: true,
        body: JSON.stringify({ secret }),
      });
      writeFileSync(path.join(own, "issued.webhook-secrets.txt"), `${bytes}\n`);
      writeFileSync(path.join(own, "rotate.responses.txt"), `${shown}\n`);
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"sign","secret":"${secret}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"we_x","secret":"${bytes}"}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(secret)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: a webhook secret's bytes",
        "leak.logs.txt: a webhook secret",
        "leak.logs.txt: a webhook secret's bytes",
        "leak.responses.txt GET /api/consumer/blogs/x 404: a webhook secret",
        "leak.responses.txt GET /api/consumer/blogs/x 404: a webhook secret's bytes",
      ]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("finds a TOTP secret, a recovery code or a sign-in challenge anywhere but in the answer that showed it (test/support/secret-scan.ts; admin.yaml, startTwoStep)", () => {
    const own = mkdtempSync(path.join(tmpdir(), "pressroom-scan-"));
    try {
      // Built here, so this source holds no secret-shaped string.
      const secret = "JBSWY3DP".repeat(4);
      const code = `${"k7m2q"}-${"x4b6z"}`;
      const challenge = "Ch4".repeat(14).concat("z");
      const shown = (url: string, status: number, body: unknown) =>
        JSON.stringify({
          method: "POST",
          url,
          status,
          twoStepShown: true,
          body: JSON.stringify(body),
        });
      writeFileSync(
        path.join(own, "shown.responses.txt"),
        [
          shown("/api/admin/me/two-step", 200, {
            secret,
            uri: `otpauth://totp/x?secret=${secret}`,
          }),
          shown("/api/admin/me/two-step/confirm", 200, { recoveryCodes: [code] }),
          shown("/api/admin/session", 202, { challenge }),
        ].join("\n"),
      );
      writeFileSync(path.join(own, "issued.two-step-secrets.txt"), `${secret}\n`);
      writeFileSync(path.join(own, "issued.recovery-codes.txt"), `${code}\n`);
      writeFileSync(path.join(own, "issued.challenges.txt"), `${challenge}\n`);
      expect(scanRun(own).findings).toEqual([]);
      writeFileSync(path.join(own, "leak.logs.txt"), `{"msg":"enrol","secret":"${secret}"}\n`);
      writeFileSync(path.join(own, "leak.db.txt"), `{"_id":"usr_x","codes":["${code}"]}\n`);
      writeFileSync(path.join(own, "leak.responses.txt"), `${response(challenge)}\n`);
      expect(scanRun(own).findings.sort()).toEqual([
        "leak.db.txt: a recovery code",
        "leak.logs.txt: a TOTP secret",
        "leak.responses.txt GET /api/consumer/blogs/x 404: a sign-in challenge",
      ]);
      expect(scanRun(own)).toMatchObject({ totpSecrets: 1, recoveryCodes: 1, challenges: 1 });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

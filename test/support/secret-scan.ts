import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The run-wide secrets check (README, "Other scripts"): every test server records what it logged, what it
 * answered and which session tokens it handed out; every test database is dumped before it is
 * dropped. After the whole run, `scanRun` looks through all of it for raw API keys, session
 * tokens, invitation tokens, password-reset tokens, email-change tokens, access tokens, TOTP
 * secrets, recovery codes, sign-in challenges and the passwords the suites use. An invitation's token is recorded
 * from the one response allowed to show it (the invitation's creation, in its link); a key may
 * likewise show only in its mint response.
 */
export const SCAN_DIR = fileURLToPath(new URL("../../test-output/secret-scan/", import.meta.url));
const TEST_DIR = fileURLToPath(new URL("../", import.meta.url));
const RAW_KEY = /cp_(?:live|test)_[0-9A-Za-z]{42}/;
/** The two answers that show a raw key, once: a mint (mintKey) and a roll's successor (rollKey). */
const MINT_PATH = /^\/api\/admin\/workspaces\/[^/]+\/keys(?:\/[^/]+\/roll)?$/;
/** The answers that show an invitation's link, once: createInvitation and resendInvitation. */
const INVITE_PATH = /^\/api\/admin\/workspaces\/[^/]+\/invitations(?:\/[^/]+\/resend)?$/;
/** The one answer that shows an access token's secret: createAccessToken. */
const TOKEN_PATH = /^\/api\/admin\/me\/tokens$/;
/** An access token (`pr_pat_` + 42 base62; admin.yaml, CreatedAccessToken). */
const ACCESS_TOKEN = /pr_pat_[0-9A-Za-z]{42}/;
/** The token in an invitation link (`…/dashboard/#/join/{token}`), as a JSON body spells it. */
const INVITATION_LINK = /#\/join\/([A-Za-z0-9_-]{43})/g;
/** The answers that show a webhook signing secret, once: createWebhookEndpoint and rotateWebhookSecret. */
const WEBHOOK_SECRET_PATH =
  /^\/api\/admin\/workspaces\/[^/]+\/webhooks(?:\/[^/]+\/rotate-secret)?$/;
/** A webhook signing secret as the API shows it (`whsec_` + 32 bytes in base64). */
const WEBHOOK_SECRET = /whsec_([A-Za-z0-9+/]{43}=)/g;
/** The one answer that shows a TOTP secret (startTwoStep), and its `secret`, as JSON spells it. */
const TWO_STEP_START_PATH = /^\/api\/admin\/me\/two-step$/;
const TOTP_SECRET = /"secret":"([A-Z2-7]{32})"/g;
/** The answers that show recovery codes (confirmTwoStep, renewRecoveryCodes), and the codes. */
const RECOVERY_CODES_PATH = /^\/api\/admin\/me\/two-step\/(?:confirm|recovery-codes)$/;
const RECOVERY_CODE = /"([a-z2-7]{5}-[a-z2-7]{5})"/g;
/** The one answer that shows a sign-in challenge: signIn's 202. */
const SIGN_IN_PATH = /^\/api\/admin\/session$/;
const CHALLENGE = /"challenge":"([A-Za-z0-9_-]{43})"/g;
/** One level of percent-encoding of an ASCII character (all a key is made of), either case. */
const ASCII_ESCAPE = /%([0-7][0-9A-Fa-f])/g;
/** Levels of percent-encoding looked through, as many as the logger decodes (MAX_DECODES). */
const MAX_DECODES = 4;

/**
 * Whether the text holds a key in any spelling a URL gives it: raw, or percent-encoded — wholly
 * or in part, in either case of hex digits, once or up to MAX_DECODES times (`%5F`, `%255F`).
 */
export function holdsKey(text: string): boolean {
  let current = text;
  for (let level = 0; level <= MAX_DECODES; level++) {
    if (RAW_KEY.test(current)) return true;
    const next = current.replace(ASCII_ESCAPE, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (next === current) return false;
    current = next;
  }
  return false;
}

export function resetScanDir(): void {
  rmSync(SCAN_DIR, { recursive: true, force: true });
  mkdirSync(SCAN_DIR, { recursive: true });
}

function record(
  kind:
    | "logs"
    | "responses"
    | "tokens"
    | "invitations"
    | "reset-tokens"
    | "email-change-tokens"
    | "webhook-secrets"
    | "two-step-secrets"
    | "recovery-codes"
    | "challenges"
    | "db",
  lines: string[],
): void {
  if (lines.length === 0) return;
  mkdirSync(SCAN_DIR, { recursive: true });
  writeFileSync(
    path.join(SCAN_DIR, `${randomBytes(6).toString("hex")}.${kind}.txt`),
    `${lines.join("\n")}\n`,
  );
}

export const recordLogs = (lines: string[]) => record("logs", lines);
export const recordDatabase = (docs: string[]) => record("db", docs);
/**
 * Password-reset tokens, as mailed (smtp-sink.ts) or printed by the CLI: no response, log or
 * database may hold one, ever (admin.yaml, completePasswordReset).
 */
export const recordResetTokens = (tokens: string[]) => record("reset-tokens", tokens);
/** The token in a password-reset link (`…/dashboard/#/reset/{token}`). */
export const RESET_LINK = /#\/reset\/([A-Za-z0-9_-]{43})/g;
/**
 * Email-change confirmation tokens, as mailed to the new address (smtp-sink.ts): no response,
 * log or database may hold one, ever (admin.yaml, changeEmail and confirmEmailChange).
 */
export const recordEmailChangeTokens = (tokens: string[]) => record("email-change-tokens", tokens);
/** The token in an email-change confirmation link (`…/dashboard/#/confirm-email/{token}`). */
export const EMAIL_CHANGE_LINK = /#\/confirm-email\/([A-Za-z0-9_-]{43})/g;

/** Wraps a request handler to keep every response body and every session token it sets. */
export function recordingHandler(handler: RequestListener): {
  handler: RequestListener;
  flush(): void;
} {
  const responses: string[] = [];
  const tokens: string[] = [];
  const invitationTokens: string[] = [];
  const webhookSecrets: string[] = [];
  const totpSecrets: string[] = [];
  const recoveryCodes: string[] = [];
  const challenges: string[] = [];
  const wrapped: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    // Read now: routers rewrite req.url as the request moves through them.
    const url = (req.url ?? "").split("?")[0] ?? "";
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown) => {
      if (typeof chunk === "string") chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "function") keep(chunk);
      const cookie = res.getHeader("set-cookie");
      for (const c of Array.isArray(cookie)
        ? cookie
        : cookie === undefined
          ? []
          : [String(cookie)]) {
        const token = /^pressroom_session=([^;]+)/.exec(c)?.[1];
        if (token) tokens.push(token);
      }
      const mint = req.method === "POST" && MINT_PATH.test(url) && res.statusCode === 201;
      const invite =
        req.method === "POST" &&
        INVITE_PATH.test(url) &&
        (res.statusCode === 200 || res.statusCode === 201);
      const accessToken = req.method === "POST" && TOKEN_PATH.test(url) && res.statusCode === 201;
      const webhookSecret =
        req.method === "POST" &&
        WEBHOOK_SECRET_PATH.test(url) &&
        (res.statusCode === 200 || res.statusCode === 201);
      const body = Buffer.concat(chunks).toString("utf8").slice(0, 262_144);
      const ok = res.statusCode === 200;
      const totpSecret = req.method === "POST" && TWO_STEP_START_PATH.test(url) && ok;
      const recovery = req.method === "POST" && RECOVERY_CODES_PATH.test(url) && ok;
      const challenge = req.method === "POST" && SIGN_IN_PATH.test(url) && res.statusCode === 202;
      if (totpSecret) for (const m of body.matchAll(TOTP_SECRET)) if (m[1]) totpSecrets.push(m[1]);
      if (recovery) {
        for (const m of body.matchAll(RECOVERY_CODE)) if (m[1]) recoveryCodes.push(m[1]);
      }
      if (challenge) for (const m of body.matchAll(CHALLENGE)) if (m[1]) challenges.push(m[1]);
      if (webhookSecret) {
        for (const m of body.matchAll(WEBHOOK_SECRET)) if (m[1]) webhookSecrets.push(m[1]);
      }
      if (invite) {
        for (const m of body.matchAll(INVITATION_LINK)) if (m[1]) invitationTokens.push(m[1]);
      }
      responses.push(
        JSON.stringify({
          method: req.method,
          url,
          status: res.statusCode,
          mint,
          invite,
          accessToken,
          webhookSecret,
          twoStepShown: totpSecret || recovery || challenge,
          body,
        }),
      );
      return end(chunk, ...rest);
    }) as typeof res.end;
    handler(req, res);
  };
  return {
    handler: wrapped,
    flush: () => {
      record("responses", responses.splice(0));
      record("tokens", tokens.splice(0));
      record("invitations", invitationTokens.splice(0));
      record("webhook-secrets", webhookSecrets.splice(0));
      record("two-step-secrets", totpSecrets.splice(0));
      record("recovery-codes", recoveryCodes.splice(0));
      record("challenges", challenges.splice(0));
    },
  };
}

/**
 * Passwords the suites send: string literals assigned to a `password` (or `…Password`, as
 * `newPassword`) in the test sources.
 */
function knownPasswords(): string[] {
  const found = new Set<string>();
  const files = readdirSync(TEST_DIR, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".ts"),
  );
  for (const file of files) {
    const text = readFileSync(path.join(TEST_DIR, file), "utf8");
    for (const m of text.matchAll(/[pP]assword["']?\s*[:=]\s*["'`]([^"'`$]{10,})["'`]/g)) {
      if (m[1] !== undefined) found.add(m[1]);
    }
  }
  return [...found];
}

export interface ScanResult {
  files: number;
  bytes: number;
  tokens: number;
  invitationTokens: number;
  resetTokens: number;
  emailChangeTokens: number;
  webhookSecrets: number;
  totpSecrets: number;
  recoveryCodes: number;
  challenges: number;
  passwords: number;
  findings: string[];
}

/** Scans what the run recorded in `dir` (the run's SCAN_DIR; another directory in its own tests). */
export function scanRun(dir: string = SCAN_DIR): ScanResult {
  const names = readdirSync(dir);
  const read = (kind: string) =>
    names
      .filter((n) => n.endsWith(`.${kind}.txt`))
      .map((n) => [n, readFileSync(path.join(dir, n), "utf8")] as const);
  const lines = (kind: string) =>
    read(kind).flatMap(([, text]) => text.split("\n").filter((t) => t !== ""));
  const tokens = lines("tokens");
  const invitationTokens = lines("invitations");
  const resetTokens = lines("reset-tokens");
  const emailChangeTokens = lines("email-change-tokens");
  const webhookSecrets = lines("webhook-secrets");
  const totpSecrets = lines("two-step-secrets");
  const recoveryCodes = lines("recovery-codes");
  const challenges = lines("challenges");
  const passwords = knownPasswords();
  const findings: string[] = [];
  let bytes = 0;
  const look = (
    where: string,
    text: string,
    allowKeys: boolean,
    allowInvitations = false,
    allowWebhookSecrets = false,
    allowAccessTokens = false,
    allowTwoStep = false,
  ) => {
    bytes += text.length;
    if (!allowTwoStep) {
      for (const secret of totpSecrets)
        if (text.includes(secret)) findings.push(`${where}: a TOTP secret`);
      for (const code of recoveryCodes)
        if (text.includes(code)) findings.push(`${where}: a recovery code`);
      for (const challenge of challenges)
        if (text.includes(challenge)) findings.push(`${where}: a sign-in challenge`);
    }
    if (!allowAccessTokens && ACCESS_TOKEN.test(text)) findings.push(`${where}: an access token`);
    if (!allowKeys && holdsKey(text))
      findings.push(`${where}: an API key (raw or percent-encoded)`);
    for (const token of tokens)
      if (text.includes(token)) findings.push(`${where}: a session token`);
    if (!allowInvitations) {
      for (const token of invitationTokens)
        if (text.includes(token)) findings.push(`${where}: an invitation token`);
    }
    for (const token of resetTokens)
      if (text.includes(token)) findings.push(`${where}: a password-reset token`);
    for (const token of emailChangeTokens)
      if (text.includes(token)) findings.push(`${where}: an email-change token`);
    if (!allowWebhookSecrets) {
      if (/whsec_[A-Za-z0-9+/]{43}=/.test(text)) findings.push(`${where}: a webhook secret`);
      // Its bytes without the prefix, as base64 (a secret logged or stored as it was made).
      for (const secret of webhookSecrets)
        if (text.includes(secret)) findings.push(`${where}: a webhook secret's bytes`);
    }
    for (const password of passwords)
      if (text.includes(password)) findings.push(`${where}: a password`);
  };
  for (const [name, text] of [...read("logs"), ...read("db")]) look(name, text, false);
  for (const [name, text] of read("responses")) {
    for (const line of text.split("\n").filter((l) => l !== "")) {
      const r = JSON.parse(line) as {
        method: string;
        url: string;
        status: number;
        mint: boolean;
        invite?: boolean;
        webhookSecret?: boolean;
        accessToken?: boolean;
        twoStepShown?: boolean;
        body: string;
      };
      look(
        `${name} ${r.method} ${r.url} ${r.status}`,
        r.body,
        r.mint,
        r.invite === true,
        r.webhookSecret === true,
        r.accessToken === true,
        r.twoStepShown === true,
      );
    }
  }
  return {
    files: names.length,
    bytes,
    tokens: tokens.length,
    invitationTokens: invitationTokens.length,
    resetTokens: resetTokens.length,
    emailChangeTokens: emailChangeTokens.length,
    webhookSecrets: webhookSecrets.length,
    totpSecrets: totpSecrets.length,
    recoveryCodes: recoveryCodes.length,
    challenges: challenges.length,
    passwords: passwords.length,
    findings,
  };
}

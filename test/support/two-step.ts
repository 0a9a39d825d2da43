// What the browser suites of two-step sign-in share (admin.yaml, startTwoStep, confirmTwoStep,
// signInWithCode): an authenticator app's codes, computed with `otpauth` from the secret the
// page shows, on the server's clock (`testHooks.now`, moved forward instead of waited for), and
// the patterns of a refusal as the page reports it.

import { Secret, TOTP } from "otpauth";
import type { Locator, Page } from "playwright-core";
import type { DashboardSession } from "./dashboard-session.js";
import type { offsetClock } from "./test-clock.js";

/** One TOTP step (admin.yaml, signInWithCode: RFC 6238, SHA-1, 30-second steps). */
export const STEP_MS = 30_000;

/**
 * An authenticator app for `secret` (base32, as the page shows it), on `clock`: `code()` is what
 * it shows now, `code(-20)` what it showed 10 minutes ago (a wrong code, out of the server's
 * window of one step each way). The server accepts a code once, and none of an earlier step
 * after it (signInWithCode): `next()` moves the clock one step on first, so each use is fresh.
 */
export function authenticatorApp(secret: string, clock: ReturnType<typeof offsetClock>) {
  const totp = new TOTP({
    issuer: "Pressroom",
    algorithm: "SHA1",
    digits: 6,
    period: STEP_MS / 1000,
    secret: Secret.fromBase32(secret),
  });
  const code = (steps = 0): string => totp.generate({ timestamp: clock.now() + steps * STEP_MS });
  return {
    code,
    next(): string {
      clock.advance(STEP_MS);
      return code();
    },
  };
}

/** "492039" as an app shows it, "492 039": the page must send it without the space. */
export const spaced = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A response the step provokes on purpose, as the page reports it (twice: response, console). */
export function failedCall(
  s: DashboardSession,
  method: string,
  path: string,
  status: number,
): RegExp[] {
  const url = escapeRe(`${s.server.url}${path}`);
  return [
    new RegExp(`^response ${status} ${method} ${url}$`),
    new RegExp(`^console\\.error Failed to load resource: .*status of ${status}\\b.* at ${url}$`),
  ];
}

/** What has the keyboard focus: its tag and text (the page's `<body>` reads "BODY"). */
export const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement;
    return el === null || el === document.body
      ? "BODY"
      : `${el.tagName} ${el.textContent ?? ""}`.trim();
  });

/** A field's inline error, in `within`: `aria-invalid` and the text first in its description. */
export const errorOf = (within: Page | Locator, label: string) =>
  within.getByLabel(label, { exact: true }).evaluate((el) => {
    const first = el.getAttribute("aria-describedby")?.split(" ")[0] ?? "";
    return {
      invalid: el.getAttribute("aria-invalid"),
      said: document.getElementById(first)?.textContent ?? null,
    };
  });

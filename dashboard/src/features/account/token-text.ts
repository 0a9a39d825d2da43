import type { components } from "../../../../openapi/generated/admin.js";

// The shapes of admin.yaml's access tokens, from the generated types (as `api.ts` takes its own).
type Schemas = components["schemas"];
export type AccessToken = Schemas["AccessToken"];
export type AccessTokenScope = Schemas["AccessTokenScope"];
export type CreatedAccessToken = Schemas["CreatedAccessToken"];

const DAY_MS = 86_400_000;

/**
 * What each scope lets a token do (admin.yaml, `AccessTokenScope`), in the order the new-token
 * dialog offers them. A `Record` over the generated type: a scope added to or renamed in the
 * spec breaks the compile until it is described here.
 */
export const SCOPE_TEXT: Readonly<Record<AccessTokenScope, string>> = {
  "blogs:read": "List and read blogs and their history.",
  "blogs:write": "Also write, release, schedule and remove blogs (includes blogs:read).",
  "keys:manage": "The workspace's API keys, their usage and rate limits.",
  "webhooks:manage": "Webhook endpoints and their deliveries.",
  "members:manage": "Members and invitations.",
};

const isScope = (name: string): name is AccessTokenScope => name in SCOPE_TEXT;

/** Every scope, in the dialog's order. */
export const SCOPES: readonly AccessTokenScope[] = Object.keys(SCOPE_TEXT).filter(isScope);

/**
 * How long a new token works: a few presets, a year (the longest the API allows is 366 days),
 * or a chosen day. Unlike an API key, a token always expires: it acts as a person.
 */
export const TOKEN_EXPIRY_PRESETS = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "date", label: "On a date" },
] as const;
export type TokenExpiry = (typeof TOKEN_EXPIRY_PRESETS)[number]["value"];
/** Thirty days: long enough for a script, short enough that a forgotten one stops soon. */
export const DEFAULT_TOKEN_EXPIRY: TokenExpiry = "30";

/** A `yyyy-mm-dd` in local time, for a date input. */
export const localDay = (at: Date): string =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;

/** The days a token may be set to expire on: tomorrow to 365 days ahead (the API: 1 to 366). */
export const tokenDayRange = (now: number): { first: string; last: string } => ({
  first: localDay(new Date(now + DAY_MS)),
  last: localDay(new Date(now + 365 * DAY_MS)),
});

/** The "On a date" field's problem, if any: none chosen, or outside tomorrow to a year ahead. */
export function tokenDayProblem(day: string, now: number): string | undefined {
  const { first, last } = tokenDayRange(now);
  if (day === "") return "Choose the day the token stops working.";
  // yyyy-mm-dd strings sort as the days they name.
  if (day < first || day > last) return `Choose a day from ${first} to ${last}.`;
  return undefined;
}

/** The `expiresAt` to send: a preset's days from now, or the chosen day's end (local time). */
export function tokenExpiresAt(choice: TokenExpiry, day: string, now: number): string {
  if (choice === "date") return new Date(`${day}T23:59:59`).toISOString();
  return new Date(now + Number(choice) * DAY_MS).toISOString();
}

/** True once a token's `expiresAt` has passed: its requests get 401 (it stays listed). */
export const isExpired = (expiresAt: string, now: number): boolean => Date.parse(expiresAt) <= now;

/** The environment variable the examples read a token from. */
export const TOKEN_ENV_NAME = "PRESSROOM_TOKEN";

/** The admin API call the examples make: the workspaces the token's user belongs to. */
export const workspacesUrl = (origin: string): string => `${origin}/api/admin/workspaces`;

/** A first call of the admin API with `token` (a real one, or `$PRESSROOM_TOKEN`). */
export const tokenCurl = (token: string, origin: string): string =>
  `curl -H "Authorization: Bearer ${token}" ${workspacesUrl(origin)}`;

/** How often the token list refreshes while the page is visible, so "last used" moves. */
export const TOKENS_REFRESH_MS = 10_000;

import type { ApiKey, RateLimit } from "../../api.js";
import { timeAgo, timeUntil } from "../../time.js";

const DAY_MS = 86_400_000;

/** What the keys table says of a key's expiry: "expires in 3 days", "expired 2 hours ago", "never". */
export function expiryText(key: Pick<ApiKey, "status" | "expiresAt">, now: number): string {
  if (key.expiresAt === null) return "never";
  if (key.status === "Expired") return `expired ${timeAgo(key.expiresAt, now)}`;
  if (key.status === "Revoked") return "—";
  return `expires ${timeUntil(key.expiresAt, now)}`;
}

const WINDOWS: Record<number, string> = { 1: "second", 60: "minute", 3600: "hour", 86400: "day" };

/** "1,200 per minute", "50 per 10 seconds". */
export function limitText(limit: RateLimit): string {
  const requests = limit.requests.toLocaleString("en");
  const window = WINDOWS[limit.windowSeconds];
  return window === undefined
    ? `${requests} per ${limit.windowSeconds.toLocaleString("en")} seconds`
    : `${requests} per ${window}`;
}

/** The mint dialog's expiry choices; 90 days is the default (see the README, "API keys"). */
export const EXPIRY_PRESETS = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "date", label: "On a date" },
  { value: "never", label: "Never" },
] as const;
export type ExpiryChoice = (typeof EXPIRY_PRESETS)[number]["value"];
export const DEFAULT_EXPIRY: ExpiryChoice = "90";

/** A `yyyy-mm-dd` in local time, for a date input. */
export const localDate = (at: Date): string =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;

/** The dates a key may expire on: tomorrow to 365 days ahead (the API allows up to 366). */
export const expiryDateRange = (now: number): { first: string; last: string } => ({
  first: localDate(new Date(now + DAY_MS)),
  last: localDate(new Date(now + 365 * DAY_MS)),
});

/**
 * The `expiresAt` to send for a choice: null for never; a preset's days from now; a date's end
 * (23:59:59 local time) for "On a date".
 */
export function expiresAtOf(choice: ExpiryChoice, date: string, now: number): string | null {
  if (choice === "never") return null;
  if (choice === "date") return new Date(`${date}T23:59:59`).toISOString();
  return new Date(now + Number(choice) * DAY_MS).toISOString();
}

/** A roll's grace periods, in seconds; 24 hours is the default. */
export const GRACE_PRESETS = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 7 * 86_400, label: "7 days" },
  { seconds: 30 * 86_400, label: "30 days" },
] as const;
export const DEFAULT_GRACE_SECONDS = 86_400;

/** The keys screen's filter: all keys, or those in one status. */
export const STATUS_FILTERS = ["All", "Active", "Expired", "Revoked"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const matchesFilter = (key: ApiKey, filter: StatusFilter): boolean =>
  filter === "All" || key.status === filter;

/** The environment variable the SDK's examples read the key from. */
export const KEY_ENV_NAME = "PRESSROOM_API_KEY";

/** The consumer API's blog list on this server (the dashboard is served by it, same origin). */
export const consumerListUrl = (origin: string, kind: "live" | "preview" = "live"): string =>
  `${origin}/api/${kind === "preview" ? "preview" : "consumer"}/blogs`;

/** `PRESSROOM_API_KEY=cp_live_…`, for a `.env` file or a host's secret settings. */
export const envLine = (key: string): string => `${KEY_ENV_NAME}=${key}`;

/** A first call of the consumer API with `key` (a raw key, or `$PRESSROOM_API_KEY`). */
export const curlExample = (key: string, url: string): string =>
  `curl -H "x-api-key: ${key}" ${url}`;

/** How often the keys screen refreshes while visible, so "last used" and expiry move. */
export const KEYS_REFRESH_MS = 10_000;

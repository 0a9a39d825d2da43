// What the keys screen says of expiry and limits (README, "API keys"), and the mint dialog's
// expiry choices: pure functions of dashboard/src/features/keys/key-text.ts and dashboard/src/time.ts.
import { describe, expect, it } from "vitest";
import {
  consumerListUrl,
  curlExample,
  DEFAULT_EXPIRY,
  DEFAULT_GRACE_SECONDS,
  EXPIRY_PRESETS,
  envLine,
  expiresAtOf,
  expiryDateRange,
  expiryText,
  GRACE_PRESETS,
  limitText,
} from "../../dashboard/src/features/keys/key-text.js";
import { timeUntil } from "../../dashboard/src/time.js";
import { adminLimits } from "../../openapi/generated/admin-limits.js";

const now = Date.parse("2026-06-01T12:00:00Z");
const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
const DAY = 86_400;

describe("key text — expiry", () => {
  it("reads “expires in 3 days”, “expired 2 hours ago”, “never”", () => {
    expect(expiryText({ status: "Active", expiresAt: at(3 * DAY) }, now)).toBe("expires in 3 days");
    expect(expiryText({ status: "Expired", expiresAt: at(-2 * 3600) }, now)).toBe(
      "expired 2 hours ago",
    );
    expect(expiryText({ status: "Active", expiresAt: null }, now)).toBe("never");
    expect(expiryText({ status: "Revoked", expiresAt: at(DAY) }, now)).toBe("—");
  });

  it("timeUntil rounds, so a 90-day key minted a minute ago still expires in 3 months", () => {
    expect(timeUntil(at(90 * DAY - 60), now)).toBe("in 3 months");
    expect(timeUntil(at(42), now)).toBe("in 42 seconds");
    expect(timeUntil(at(5 * 60), now)).toBe("in 5 minutes");
    expect(timeUntil(at(DAY), now)).toBe("tomorrow");
    expect(timeUntil(at(-5), now)).toBe("now");
  });

  it("the presets are 7, 30 and 90 days (the default), a date, or never", () => {
    expect(EXPIRY_PRESETS.map((p) => p.label)).toEqual([
      "7 days",
      "30 days",
      "90 days",
      "On a date",
      "Never",
    ]);
    expect(DEFAULT_EXPIRY).toBe("90");
    expect(expiresAtOf("7", "", now)).toBe(at(7 * DAY));
    expect(expiresAtOf("never", "", now)).toBeNull();
    expect(new Date(expiresAtOf("date", "2026-07-04", now) ?? "").getDate()).toBe(4);
  });

  it("a date can be picked from tomorrow to 365 days ahead, within the API's 366", () => {
    const { first, last } = expiryDateRange(now);
    const days = (Date.parse(last) - Date.parse(first)) / (DAY * 1000);
    expect(days).toBe(364);
  });
});

describe("key text — roll and limits", () => {
  it("the grace presets are 1 hour, 24 hours (the default), 7 and 30 days, all within the API's bounds", () => {
    expect(GRACE_PRESETS.map((p) => p.label)).toEqual(["1 hour", "24 hours", "7 days", "30 days"]);
    expect(DEFAULT_GRACE_SECONDS).toBe(DAY);
    const { minimum, maximum } = adminLimits.rollKey.gracePeriodSeconds;
    for (const { seconds } of GRACE_PRESETS) {
      expect(seconds).toBeGreaterThanOrEqual(minimum);
      expect(seconds).toBeLessThanOrEqual(maximum);
    }
  });

  it("limits read “1,200 per minute”, “50 per 10 seconds”", () => {
    expect(limitText({ requests: 1200, windowSeconds: 60 })).toBe("1,200 per minute");
    expect(limitText({ requests: 50, windowSeconds: 10 })).toBe("50 per 10 seconds");
    expect(limitText({ requests: 600, windowSeconds: 3600 })).toBe("600 per hour");
  });

  it("the once-only key dialog's lines: PRESSROOM_API_KEY=<key>, and a curl call of this server's blog list", () => {
    expect(envLine("cp_live_abc")).toBe("PRESSROOM_API_KEY=cp_live_abc");
    const url = consumerListUrl("https://press.example.com");
    expect(url).toBe("https://press.example.com/api/consumer/blogs");
    expect(curlExample("cp_live_abc", url)).toBe(
      'curl -H "x-api-key: cp_live_abc" https://press.example.com/api/consumer/blogs',
    );
  });
});

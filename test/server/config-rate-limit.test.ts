// CONSUMER_RATE_LIMIT (README, "Configuration"): the server's default rate limit of keys,
// REQUESTS/SECONDS or "off", default 1200/60, validated at boot with a message naming it.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/src/platform/config.js";

describe("CONSUMER_RATE_LIMIT — the server's default key limit", () => {
  it("defaults to 1200 requests per 60 seconds", () => {
    expect(loadConfig({}).consumerRateLimit).toEqual({ requests: 1200, windowSeconds: 60 });
  });

  it("takes REQUESTS/SECONDS within the RateLimit bounds, or off", () => {
    expect(loadConfig({ CONSUMER_RATE_LIMIT: "100/1" }).consumerRateLimit).toEqual({
      requests: 100,
      windowSeconds: 1,
    });
    expect(loadConfig({ CONSUMER_RATE_LIMIT: "1000000/86400" }).consumerRateLimit).toEqual({
      requests: 1_000_000,
      windowSeconds: 86_400,
    });
    expect(loadConfig({ CONSUMER_RATE_LIMIT: "off" }).consumerRateLimit).toBeNull();
  });

  it.each([
    "0/60",
    "-1/60",
    "1000001/60",
    "100/0",
    "100/86401",
    "1.5/60",
    "100",
    "100 per 60",
    "on",
  ])("refuses %s at boot, naming the variable", (value) => {
    const attempt = () => loadConfig({ CONSUMER_RATE_LIMIT: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/CONSUMER_RATE_LIMIT must be REQUESTS\/SECONDS/);
  });
});

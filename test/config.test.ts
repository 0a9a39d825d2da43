import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../server/src/config.js";

describe("configuration is read once and validated at boot", () => {
  it("has working defaults", () => {
    const config = loadConfig({}, "/srv/app");
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      mongodbUri: undefined,
      mongodbDb: "pressroom",
      dataDir: "/srv/app/data",
      validateResponses: true,
      lastUsedFlushMs: 1000,
      cacheMaxAgeSeconds: 60,
    });
  });

  it("turns response validation off in production unless asked for", () => {
    expect(loadConfig({ NODE_ENV: "production" }).validateResponses).toBe(false);
    expect(
      loadConfig({ NODE_ENV: "production", VALIDATE_RESPONSES: "true" }).validateResponses,
    ).toBe(true);
  });

  it("fails fast with one message naming every bad variable", () => {
    const attempt = () =>
      loadConfig({ PORT: "http", MONGODB_URI: "postgres://x", LOG_LEVEL: "loud" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT must be an integer from 0 to 65535 \(got "http"\)/);
    expect(attempt).toThrow(/MONGODB_URI must start with mongodb:\/\//);
    expect(attempt).toThrow(/LOG_LEVEL must be one of/);
  });
});

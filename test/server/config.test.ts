import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/src/config.js";

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

  it("uses the database named in MONGODB_URI's path, as MongoDB's own tools do", () => {
    const db = (env: Record<string, string>) => loadConfig(env).mongodbDb;
    expect(db({ MONGODB_URI: "mongodb://db.example:27017/mydb" })).toBe("mydb");
    expect(db({ MONGODB_URI: "mongodb://u:p%2Fq@h1,h2:27018/blogs_prod?replicaSet=rs0" })).toBe(
      "blogs_prod",
    );
    expect(db({ MONGODB_URI: "mongodb+srv://cluster0.example.net/site-1?retryWrites=true" })).toBe(
      "site-1",
    );
  });

  it("MONGODB_DB overrides the URI's database; with neither the database is pressroom", () => {
    const db = (env: Record<string, string>) => loadConfig(env).mongodbDb;
    expect(db({ MONGODB_URI: "mongodb://h/mydb", MONGODB_DB: "other" })).toBe("other");
    expect(db({ MONGODB_URI: "mongodb://h:27017" })).toBe("pressroom");
    expect(db({ MONGODB_URI: "mongodb://h:27017/" })).toBe("pressroom");
    expect(db({ MONGODB_URI: "mongodb://h:27017/?directConnection=true" })).toBe("pressroom");
  });

  it("refuses a database name in the URI that MongoDB would refuse, naming where it came from", () => {
    const attempt = (uri: string) => () => loadConfig({ MONGODB_URI: uri });
    expect(attempt("mongodb://h/my.db")).toThrow(/the path of MONGODB_URI must name a database/);
    expect(attempt("mongodb://h/a%2Fb")).toThrow(/got "a\/b"/);
    expect(attempt("mongodb://h/%E0%A4%A")).toThrow(/malformed database name/);
    expect(() => loadConfig({ MONGODB_DB: "x y" })).toThrow(/MONGODB_DB must name a database/);
  });
});

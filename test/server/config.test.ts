import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, MAX_WORKERS } from "../../server/src/platform/config.js";
import { loadRemoteSettings } from "../../server/src/platform/remote-settings.js";

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

describe('metrics settings (README, "Configuration" and "Metrics")', () => {
  it("happy: without METRICS_PORT there is no metrics listener; with it, loopback by default", () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464" }).metrics).toEqual({
      port: 9464,
      host: "127.0.0.1",
      token: undefined,
    });
    expect(
      loadConfig({
        METRICS_PORT: "0",
        METRICS_HOST: "0.0.0.0",
        METRICS_TOKEN: "0123456789abcdef",
      }).metrics,
    ).toEqual({ port: 0, host: "0.0.0.0", token: "0123456789abcdef" });
  });

  it("error: refuses a bad port, a short or spaced token, the API's own port, and METRICS_HOST/TOKEN without a port", () => {
    const attempt = (env: Record<string, string>) => () => loadConfig(env);
    expect(attempt({ METRICS_PORT: "http" })).toThrow(
      /METRICS_PORT must be an integer from 0 to 65535 \(got "http"\)/,
    );
    expect(attempt({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT must be an integer/);
    expect(attempt({ METRICS_PORT: "9464", METRICS_TOKEN: "short" })).toThrow(
      /METRICS_TOKEN must be 16-256 printable characters/,
    );
    expect(attempt({ METRICS_PORT: "9464", METRICS_TOKEN: "0123456789 abcdef" })).toThrow(
      /METRICS_TOKEN must be 16-256 printable characters/,
    );
    expect(attempt({ METRICS_PORT: "3000" })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(attempt({ PORT: "8080", METRICS_PORT: "8080" })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(attempt({ METRICS_HOST: "0.0.0.0" })).toThrow(/need METRICS_PORT/);
    expect(attempt({ METRICS_TOKEN: "0123456789abcdef" })).toThrow(/need METRICS_PORT/);
  });

  it("security: a token is never echoed in the error message", () => {
    expect(() =>
      loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: "secret-but-short" }),
    ).not.toThrow();
    expect(() => loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: "tiny-secret" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("tiny-secret") }),
    );
  });
});

describe('admin body limits (README, "Configuration": ADMIN_BODY_LIMIT_BYTES, BLOG_BODY_LIMIT_BYTES, IMPORT_BODY_LIMIT_BYTES)', () => {
  it("happy: 16 KiB for every admin body but a blog's and an import's, 3 MiB for a blog's, 64 MiB for an import's, unless set", () => {
    expect(loadConfig({}).adminBodyLimits).toEqual({
      adminBytes: 16_384,
      blogBytes: 3_145_728,
      importBytes: 67_108_864,
    });
    expect(
      loadConfig({
        ADMIN_BODY_LIMIT_BYTES: "4096",
        BLOG_BODY_LIMIT_BYTES: "1048576",
        IMPORT_BODY_LIMIT_BYTES: "2097152",
      }).adminBodyLimits,
    ).toEqual({ adminBytes: 4096, blogBytes: 1_048_576, importBytes: 2_097_152 });
  });

  it("error: refuses values outside their ranges", () => {
    expect(() => loadConfig({ ADMIN_BODY_LIMIT_BYTES: "100" })).toThrow(
      /ADMIN_BODY_LIMIT_BYTES must be an integer from 1024 to 1048576/,
    );
    expect(() => loadConfig({ BLOG_BODY_LIMIT_BYTES: "3mb" })).toThrow(
      /BLOG_BODY_LIMIT_BYTES must be an integer from 65536 to 67108864/,
    );
    expect(() => loadConfig({ IMPORT_BODY_LIMIT_BYTES: "1024" })).toThrow(
      /IMPORT_BODY_LIMIT_BYTES must be an integer from 1048576 to 536870912/,
    );
  });
});

describe('remote mode settings (README, "Operator CLI": --server, PRESSROOM_SERVER, PRESSROOM_TOKEN)', () => {
  const TOKEN = `pr_pat_${"A".repeat(42)}`;
  it("happy: none without a server; --server wins over PRESSROOM_SERVER; http only for this machine", () => {
    expect(loadRemoteSettings({ PRESSROOM_TOKEN: TOKEN }, undefined)).toBeUndefined();
    const env = { PRESSROOM_SERVER: "https://env.example.com", PRESSROOM_TOKEN: TOKEN };
    expect(loadRemoteSettings(env, undefined)?.server.href).toBe("https://env.example.com/");
    expect(loadRemoteSettings(env, "https://flag.example.com/cms")?.server.href).toBe(
      "https://flag.example.com/cms",
    );
    for (const local of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect(loadRemoteSettings(env, local)?.server.origin).toBe(local);
    }
  });

  it("error: clear text to another host, credentials in the URL, a missing or malformed token — never quoting the token", () => {
    const env = { PRESSROOM_TOKEN: TOKEN };
    expect(() => loadRemoteSettings(env, "http://cms.example.com")).toThrow(/must use https/);
    expect(() => loadRemoteSettings(env, "https://u:p@cms.example.com")).toThrow(
      /takes no user, password, query or fragment/,
    );
    expect(() => loadRemoteSettings(env, "ftp://cms.example.com")).toThrow(/http or https/);
    expect(() => loadRemoteSettings({}, "https://cms.example.com")).toThrow(
      /PRESSROOM_TOKEN must hold an access token/,
    );
    const wrong = "cp_live_not-a-pat-but-secret";
    expect(() => loadRemoteSettings({ PRESSROOM_TOKEN: wrong }, "https://cms.example.com")).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(wrong) }),
    );
  });
});

describe('workers (README, "Workers": WORKERS and pressroom start --workers)', () => {
  it("happy: one process by default; a number; auto is one per core; the flag wins over the variable", () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: "" }).workers).toBe(1);
    expect(loadConfig({ WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ WORKERS: "auto" }).workers).toBe(
      Math.min(MAX_WORKERS, availableParallelism()),
    );
    expect(loadConfig({ WORKERS: "3" }, "/srv", { workers: "2" }).workers).toBe(2);
    expect(loadConfig({}, "/srv", { workers: "auto" }).workers).toBe(
      Math.min(MAX_WORKERS, availableParallelism()),
    );
  });

  it("error: zero, too many, fractions and words are refused, naming where the value came from", () => {
    for (const bad of ["0", "-1", "1.5", "65", "two", "2x", " "]) {
      expect(() => loadConfig({}, "/srv", { workers: bad })).toThrow(
        new RegExp(
          `--workers must be a whole number of server processes from 1 to 64, or "auto" for one per core \\(got "${bad.trim()}"\\)`,
        ),
      );
    }
    expect(() => loadConfig({ WORKERS: "0" })).toThrow(/WORKERS must be a whole number/);
    expect(() => loadConfig({ WORKERS: "0" })).toThrow(ConfigError);
  });
});

describe('answer cache (README, "Configuration": ANSWER_CACHE_BYTES, ANSWER_CACHE_WORKSPACE_BYTES)', () => {
  it("happy: 32 MiB in all and 4 MiB a workspace unless set; a workspace's share defaults to at most the whole; 0 keeps none", () => {
    expect(loadConfig({}).answerCache).toEqual({ bytes: 33_554_432, workspaceBytes: 4_194_304 });
    expect(
      loadConfig({ ANSWER_CACHE_BYTES: "1048576", ANSWER_CACHE_WORKSPACE_BYTES: "65536" })
        .answerCache,
    ).toEqual({ bytes: 1_048_576, workspaceBytes: 65_536 });
    expect(loadConfig({ ANSWER_CACHE_BYTES: "1048576" }).answerCache).toEqual({
      bytes: 1_048_576,
      workspaceBytes: 1_048_576,
    });
    expect(loadConfig({ ANSWER_CACHE_BYTES: "0" }).answerCache).toEqual({
      bytes: 0,
      workspaceBytes: 0,
    });
  });

  it("error: a workspace's share above the whole, negative or fractional sizes are refused", () => {
    expect(() =>
      loadConfig({ ANSWER_CACHE_BYTES: "1048576", ANSWER_CACHE_WORKSPACE_BYTES: "2097152" }),
    ).toThrow(/ANSWER_CACHE_WORKSPACE_BYTES must not exceed ANSWER_CACHE_BYTES/);
    expect(() => loadConfig({ ANSWER_CACHE_BYTES: "-1" })).toThrow(
      /ANSWER_CACHE_BYTES must be an integer from 0 to 4294967296/,
    );
    expect(() => loadConfig({ ANSWER_CACHE_WORKSPACE_BYTES: "1.5" })).toThrow(
      /ANSWER_CACHE_WORKSPACE_BYTES must be an integer from 0 to 4294967296/,
    );
  });
});

/**
 * Configuration: every setting Pressroom reads, parsed and checked once at start (README,
 * "Configuration"). Longer than ~250 lines on purpose: one place reads `process.env`, so every
 * setting, its default and its bounds are here together.
 */
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { type MailSettings, parseMail } from "./mail-settings.js";
import { parseTracing, type TracingSettings } from "./tracing/tracing-settings.js";

/**
 * IMPORT_MAX_BYTES by default: the largest JSON file an import reads (Pressroom's export format
 * or a Ghost export), 256 MiB. A Pressroom export of 10,000 blogs of ~2 KB of Markdown is under 30 MB, and a Ghost
 * export holds each post about three times (html, lexical, mobiledoc); the file is held as one
 * string and parsed whole (text and tree in memory at once), and V8 cannot hold a string of
 * 512 MiB at all.
 */
export const IMPORT_MAX_BYTES_DEFAULT = 256 * 1024 * 1024;

/** Every setting Pressroom reads, validated once at boot. Nothing else reads `process.env`. */
export interface Config {
  /** HTTP port; 0 picks a free one. */
  readonly port: number;
  readonly host: string;
  /** Unset: the embedded database is started in `dataDir`. */
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  /** LOG_FORMAT: forced "json" or "pretty"; unset, pretty in a terminal and JSON otherwise. */
  readonly logFormat: LogFormat | undefined;
  /** Where the embedded database keeps its files. */
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  /** Response validation against the spec: on in development and tests, off in production. */
  readonly validateResponses: boolean;
  /** Coalescing window for `lastUsedAt` writes: at most one write per key per window. */
  readonly lastUsedFlushMs: number;
  /** `max-age` of the consumer API's `Cache-Control: private` responses. */
  readonly cacheMaxAgeSeconds: number;
  /**
   * ANSWER_CACHE_BYTES and ANSWER_CACHE_WORKSPACE_BYTES: the consumer list pages and feeds kept in
   * memory under their ETags (platform/http/answer-cache.ts), in all and per workspace.
   */
  readonly answerCache: { readonly bytes: number; readonly workspaceBytes: number };
  /** Bound on waiting for the database (server selection, connect, socket). */
  readonly dbTimeoutMs: number;
  /** How long SIGTERM waits for in-flight requests before closing their connections. */
  readonly shutdownTimeoutMs: number;
  /** The origin browsers use to reach the dashboard, when behind a proxy; https ⇒ Secure cookies. */
  readonly publicOrigin: string | undefined;
  /** Lifetime of a dashboard session. */
  readonly sessionTtlMs: number;
  /** Longest a blog body's Markdown may take to render (in a worker thread) before a 422. */
  readonly renderTimeoutMs: number;
  /** The render pool's threads and its per-workspace and per-user limits (README, "Production"). */
  readonly renderPool: RenderPoolSettings;
  /** IMPORT_MAX_BYTES: the largest JSON file `pressroom import` reads (README, "Import and export"). */
  readonly importMaxBytes: number;
  /**
   * Express's "trust proxy": which peers' X-Forwarded-For/-Proto to believe, so that `req.ip` is
   * the client's address (sign-in throttling counts per address). False: the TCP peer's address.
   */
  readonly trustProxy: TrustProxy;
  /** How long a changes-feed token stays usable; older ones get 410 (entries are then deleted). */
  readonly changesRetentionMs: number;
  /** BLOG_REVISIONS_KEPT: the newest revisions of each blog its history keeps (admin.yaml, "History"). */
  readonly blogRevisionsKept: number;
  /**
   * CONSUMER_RATE_LIMIT: the rate limit of keys that have none of their own and whose workspace
   * sets no default; null ("off"): no limit. Enforced by the consumer API's limiter.
   */
  readonly consumerRateLimit: { readonly requests: number; readonly windowSeconds: number } | null;
  /** Webhook delivery settings (README, "Webhooks"). */
  readonly webhooks: WebhookSettings;
  /** Webhook fair share and limits (README, "Webhooks": fair share and limits). */
  readonly webhookLimits: WebhookLimitSettings;
  /** METRICS_PORT set: Prometheus metrics on a listener of their own (README, "Metrics"). */
  readonly metrics: MetricsSettings | undefined;
  /** SMTP_URL set: invitations and password-reset links are mailed (platform/mail-settings.ts). */
  readonly mail: MailSettings | undefined;
  /** OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT set: OpenTelemetry spans (platform/tracing/tracing-settings.ts). */
  readonly tracing: TracingSettings | undefined;
  /** The admin API's request body limits (README, "Configuration"; platform/http/json-body.ts). */
  readonly adminBodyLimits: AdminBodyLimits;
  /**
   * WORKERS or `pressroom start --workers`: server processes sharing the port and the database
   * (README, "Workers"). 1 (the default): one process, no cluster; `auto`: one per core.
   */
  readonly workers: number;
  /** The media library's limits (admin.yaml `uploadMedia`; media/media-store.ts). */
  readonly media: MediaLimits;
}

/** Settings given on `pressroom start`'s command line; each wins over its variable. */
export interface StartFlags {
  /** `--workers N|auto`, over WORKERS. */
  readonly workers?: string | undefined;
}

/** The most workers a start may ask for: far beyond any machine's need, short of a fork bomb. */
export const MAX_WORKERS = 64;

/** WORKERS / `--workers`: a whole number from 1 to MAX_WORKERS, or `auto` (the available cores). */
function parseWorkers(
  flag: string | undefined,
  env: string | undefined,
  problems: string[],
): number {
  const source = flag !== undefined ? "--workers" : "WORKERS";
  const raw = (flag ?? env)?.trim();
  if (raw === undefined || (flag === undefined && raw === "")) return 1;
  if (raw === "auto") return Math.min(MAX_WORKERS, availableParallelism());
  const n = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= MAX_WORKERS)) {
    problems.push(
      `${source} must be a whole number of server processes from 1 to ${MAX_WORKERS}, or "auto" for one per core (got "${raw}")`,
    );
    return 1;
  }
  return n;
}

export interface AdminBodyLimits {
  /**
   * ADMIN_BODY_LIMIT_BYTES: the JSON body of every admin operation but a blog's create, update
   * and preview, the open ones (setup, sign-in, invitations) included. Default 16 KiB: the
   * largest such body admin.yaml allows is under 9 KB as JSON.stringify sends it.
   */
  readonly adminBytes: number;
  /**
   * BLOG_BODY_LIMIT_BYTES: a blog's create, update and preview, whose bodyMarkdown may hold
   * 200,000 characters. Default 3 MiB: room for them however a client escapes them (up to 12
   * bytes each, as two \u escapes), 2.4 MB.
   */
  readonly blogBytes: number;
  /**
   * IMPORT_BODY_LIMIT_BYTES: an import's set of blogs (admin.yaml `importBlogs`), taken only from
   * a member allowed to write blogs, one import of a workspace at a time. Default 64 MiB: a few
   * thousand blogs of ordinary length, as `pressroom --server … import` sends them.
   */
  readonly importBytes: number;
}

export interface MetricsSettings {
  /** METRICS_PORT: the metrics listener's port, never the API's; 0 picks a free one. */
  readonly port: number;
  /** METRICS_HOST: default 127.0.0.1. */
  readonly host: string;
  /** METRICS_TOKEN (16+ characters): `/metrics` then needs `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
}

export interface RenderPoolSettings {
  /**
   * RENDER_THREADS: worker threads rendering blog bodies, all kept running. Default one less
   * than the machine's cores, at least 2 (so that a workspace, which may use all but one, never
   * holds them all) and at most 4.
   */
  readonly threads: number;
  /** RENDER_WORKSPACE_PENDING: renders of one workspace waiting or running; more get 503. */
  readonly workspacePending: number;
  /** RENDER_PREVIEW_PER_USER: editor previews of one user waiting or running; more get 503. */
  readonly previewPerUser: number;
  /**
   * RENDER_NICE: how much lower than the request thread's a long render's CPU priority becomes
   * (0-19, Linux; default 10), where RENDER_TIMEOUT_MS can count its CPU time.
   */
  readonly nice: number;
  /**
   * RENDER_NICE_AFTER_MS: CPU time a render takes at the request thread's priority before
   * RENDER_NICE applies to the rest of it (default 50; an ordinary body takes a few ms).
   */
  readonly niceAfterMs: number;
}

export interface WebhookSettings {
  /**
   * WEBHOOK_DELIVERY=off: this instance does not send deliveries (its blog writes still queue
   * events; another instance, or this one restarted with it on, sends them). Default on.
   */
  readonly deliver: boolean;
  /** WEBHOOK_TIMEOUT_MS: how long one attempt may take, connect to last byte. Default 10 s. */
  readonly timeoutMs: number;
  /**
   * WEBHOOK_ALLOW_HTTP_LOOPBACK=true (development only): endpoints may be plain `http://` to a
   * loopback address (and only those), e.g. a receiver on the developer's machine.
   */
  readonly allowHttpLoopback: boolean;
  /**
   * WEBHOOK_SECRETS_KEY: 32 bytes in base64 that seal endpoints' signing secrets at rest. Unset:
   * a key made once and kept in the database (`markers`), so a copy of the database alone opens
   * them; set it to keep the key apart.
   */
  readonly secretsKey: Buffer | undefined;
}

// --- Webhook fair share and limits (README, "Webhooks": fair share and limits) ---------------

export interface WebhookLimitSettings {
  /**
   * WEBHOOK_CONNECT_TIMEOUT_MS: how long an attempt may take to resolve the name and connect
   * (TLS handshake included), at most WEBHOOK_TIMEOUT_MS. Default 3 s.
   */
  readonly connectTimeoutMs: number;
  /** WEBHOOK_WORKSPACE_IN_FLIGHT: attempts one workspace may have in flight per instance. Default 4. */
  readonly workspaceInFlight: number;
  /** WEBHOOK_MANUAL_RATE_LIMIT: test events and redeliveries per workspace per window. Default 10/60. */
  readonly manualRate: { readonly requests: number; readonly windowSeconds: number };
  /** WEBHOOK_MANUAL_PENDING_MAX: test events and redeliveries waiting per endpoint. Default 20. */
  readonly manualPendingMax: number;
}

function parseWebhookLimits(
  int: (name: string, fallback: number, min: number, max: number) => number,
  raw: string | undefined,
  timeoutMs: number,
  problems: string[],
): WebhookLimitSettings {
  const connectTimeoutMs = int(
    "WEBHOOK_CONNECT_TIMEOUT_MS",
    Math.min(3000, timeoutMs),
    100,
    30_000,
  );
  if (connectTimeoutMs > timeoutMs) {
    problems.push(
      `WEBHOOK_CONNECT_TIMEOUT_MS (${connectTimeoutMs}) must not exceed WEBHOOK_TIMEOUT_MS (${timeoutMs})`,
    );
  }
  const match = raw === undefined ? null : /^(\d{1,4})\/(\d{1,4})$/.exec(raw);
  const manualRate = {
    requests: Number(match?.[1] ?? 10),
    windowSeconds: Number(match?.[2] ?? 60),
  };
  if (
    raw !== undefined &&
    (match === null ||
      manualRate.requests < 1 ||
      manualRate.requests > 1000 ||
      manualRate.windowSeconds < 1 ||
      manualRate.windowSeconds > 3600)
  ) {
    problems.push(
      `WEBHOOK_MANUAL_RATE_LIMIT must be REQUESTS/SECONDS, 1-1000 per 1-3600 seconds (e.g. 10/60) (got "${raw}")`,
    );
  }
  return {
    connectTimeoutMs,
    workspaceInFlight: int("WEBHOOK_WORKSPACE_IN_FLIGHT", 4, 1, 16),
    manualRate,
    manualPendingMax: int("WEBHOOK_MANUAL_PENDING_MAX", 20, 1, 1000),
  };
}

/** CONSUMER_RATE_LIMIT: `REQUESTS/SECONDS` (1-1000000 per 1-86400 s) or `off`; default 1200/60. */
function parseRateLimit(raw: string | undefined, problems: string[]): Config["consumerRateLimit"] {
  if (raw === undefined) return { requests: 1200, windowSeconds: 60 };
  if (raw === "off") return null;
  const match = /^(\d{1,7})\/(\d{1,5})$/.exec(raw);
  const requests = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (
    match === null ||
    requests < 1 ||
    requests > 1_000_000 ||
    windowSeconds < 1 ||
    windowSeconds > 86_400
  ) {
    problems.push(
      `CONSUMER_RATE_LIMIT must be REQUESTS/SECONDS, 1-1000000 requests per 1-86400 seconds (e.g. 1200/60), or "off" (got "${raw}")`,
    );
    return null;
  }
  return { requests, windowSeconds };
}

/** False, a hop count, or addresses, subnets and proxy-addr's names (loopback, …). */
export type TrustProxy = false | number | readonly string[];

const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** TRUST_PROXY: unset/"false", a hop count 1-10, or a comma-separated list; never "true". */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") {
    problems.push(
      "TRUST_PROXY=true would believe X-Forwarded-For from anyone, so every client could pick its own address: give the number of proxies in front (e.g. 1) or their addresses/subnets",
    );
    return false;
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
    problems.push(`TRUST_PROXY must be a hop count from 1 to 10 when a number (got "${raw}")`);
    return false;
  }
  const entries = raw.split(",").map((e) => e.trim());
  const valid = (entry: string) => {
    if (PROXY_NAMES.includes(entry)) return true;
    const [address = "", prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  const bad = entries.filter((e) => !valid(e));
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be "false", a hop count, or a comma-separated list of IP addresses, subnets (10.0.0.0/8) and ${PROXY_NAMES.join("/")} (got "${raw}")`,
    );
    return false;
  }
  return entries;
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;

export interface MediaLimits {
  /** MEDIA_UPLOAD_LIMIT_BYTES: an upload past it is 413, the rest not read. */
  readonly uploadBytes: number;
  /** MEDIA_MAX_PIXELS: an image with more pixels is 422, refused before it is decoded. */
  readonly maxPixels: number;
}

export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  flags: StartFlags = {},
): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const str = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };

  const mongodbUri = str("MONGODB_URI");
  if (mongodbUri !== undefined && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    problems.push("MONGODB_URI must start with mongodb:// or mongodb+srv://");
  }
  // As MongoDB's own tools read it: MONGODB_DB, else the database in the URI's path, else ours.
  const uriDb = mongodbUri === undefined ? undefined : databaseInUri(mongodbUri, problems);
  const dbSource = str("MONGODB_DB") !== undefined ? "MONGODB_DB" : "the path of MONGODB_URI";
  const mongodbDb = str("MONGODB_DB") ?? uriDb ?? "pressroom";
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(mongodbDb)) {
    problems.push(
      `${dbSource} must name a database of 1-63 letters, digits, "_" or "-" (got "${mongodbDb}")`,
    );
  }
  const logLevel = (str("LOG_LEVEL") ?? "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${logLevel}")`);
  }
  const logFormat = str("LOG_FORMAT") as LogFormat | undefined;
  if (logFormat !== undefined && !LOG_FORMATS.includes(logFormat)) {
    problems.push(`LOG_FORMAT must be "json" or "pretty" (got "${logFormat}")`);
  }
  const production = env.NODE_ENV === "production";
  let publicOrigin: string | undefined;
  const publicUrl = str("PUBLIC_URL");
  if (publicUrl !== undefined) {
    try {
      const url = new URL(publicUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
      publicOrigin = url.origin;
    } catch {
      problems.push(
        `PUBLIC_URL must be an http(s) URL such as https://pressroom.example.com (got "${publicUrl}")`,
      );
    }
  }
  const validate = str("VALIDATE_RESPONSES");
  if (validate !== undefined && validate !== "true" && validate !== "false") {
    problems.push(`VALIDATE_RESPONSES must be "true" or "false" (got "${validate}")`);
  }

  const flag = (name: string, fallback: boolean): boolean => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (raw === "true" || raw === "on") return true;
    if (raw === "false" || raw === "off") return false;
    problems.push(`${name} must be "true"/"on" or "false"/"off" (got "${raw}")`);
    return fallback;
  };
  const secretsKeyRaw = str("WEBHOOK_SECRETS_KEY");
  let secretsKey: Buffer | undefined;
  if (secretsKeyRaw !== undefined) {
    secretsKey = Buffer.from(secretsKeyRaw, "base64");
    if (!/^[A-Za-z0-9+/]{43}=?$/.test(secretsKeyRaw) || secretsKey.length !== 32) {
      problems.push(
        "WEBHOOK_SECRETS_KEY must be 32 bytes in base64 (44 characters; make one with `openssl rand -base64 32`)",
      );
    }
  }

  const port = int("PORT", 3000, 0, 65535);
  const metricsPort =
    str("METRICS_PORT") === undefined ? undefined : int("METRICS_PORT", 0, 0, 65535);
  const metricsToken = str("METRICS_TOKEN");
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push(
      "METRICS_TOKEN must be 16-256 printable characters without spaces (make one with `openssl rand -hex 32`)",
    );
  }
  if (metricsPort === undefined && (str("METRICS_HOST") ?? metricsToken) !== undefined) {
    problems.push("METRICS_HOST and METRICS_TOKEN need METRICS_PORT (unset: no metrics listener)");
  }
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push("METRICS_PORT must differ from PORT: metrics have a listener of their own");
  }

  // Read once: WEBHOOK_CONNECT_TIMEOUT_MS (webhook limits, below) must not exceed it.
  const webhookTimeoutMs = int("WEBHOOK_TIMEOUT_MS", 10_000, 1000, 30_000);
  const config: Config = {
    port,
    host: str("HOST") ?? "127.0.0.1",
    mongodbUri,
    mongodbDb,
    dataDir: path.resolve(cwd, str("DATA_DIR") ?? "data"),
    logLevel,
    logFormat,
    validateResponses: validate === undefined ? !production : validate === "true",
    lastUsedFlushMs: int("LAST_USED_FLUSH_MS", 1000, 10, 3_600_000),
    cacheMaxAgeSeconds: int("CACHE_MAX_AGE_SECONDS", 60, 0, 86_400),
    answerCache: parseAnswerCache(int, problems),
    dbTimeoutMs: int("DB_TIMEOUT_MS", 5000, 100, 120_000),
    shutdownTimeoutMs: int("SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    publicOrigin,
    sessionTtlMs: int("SESSION_TTL_HOURS", 168, 1, 8760) * 3_600_000,
    renderTimeoutMs: int("RENDER_TIMEOUT_MS", 2000, 100, 60_000),
    renderPool: {
      threads: int("RENDER_THREADS", Math.max(2, Math.min(4, availableParallelism() - 1)), 1, 16),
      workspacePending: int("RENDER_WORKSPACE_PENDING", 8, 1, 1000),
      previewPerUser: int("RENDER_PREVIEW_PER_USER", 2, 1, 1000),
      nice: int("RENDER_NICE", 10, 0, 19),
      niceAfterMs: int("RENDER_NICE_AFTER_MS", 50, 1, 60_000),
    },
    // Below V8's longest string (~512 MiB): the file is read as one.
    importMaxBytes: int("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES_DEFAULT, 1024, 500 * 1024 * 1024),
    trustProxy: parseTrustProxy(str("TRUST_PROXY"), problems),
    changesRetentionMs: int("CHANGES_RETENTION_DAYS", 30, 1, 3650) * 86_400_000,
    blogRevisionsKept: int("BLOG_REVISIONS_KEPT", 100, 1, 10_000),
    consumerRateLimit: parseRateLimit(str("CONSUMER_RATE_LIMIT"), problems),
    webhooks: {
      deliver: flag("WEBHOOK_DELIVERY", true),
      timeoutMs: webhookTimeoutMs,
      allowHttpLoopback: flag("WEBHOOK_ALLOW_HTTP_LOOPBACK", false),
      secretsKey,
    },
    webhookLimits: parseWebhookLimits(
      int,
      str("WEBHOOK_MANUAL_RATE_LIMIT"),
      webhookTimeoutMs,
      problems,
    ),
    metrics:
      metricsPort === undefined
        ? undefined
        : { port: metricsPort, host: str("METRICS_HOST") ?? "127.0.0.1", token: metricsToken },
    mail: parseMail(env, problems),
    tracing: parseTracing(env, problems),
    // Admin API body limits (platform/http/json-body.ts): the open operations' small, a blog's large.
    adminBodyLimits: {
      adminBytes: int("ADMIN_BODY_LIMIT_BYTES", 16_384, 1024, 1_048_576),
      blogBytes: int("BLOG_BODY_LIMIT_BYTES", 3_145_728, 65_536, 67_108_864),
      importBytes: int("IMPORT_BODY_LIMIT_BYTES", 67_108_864, 1_048_576, 536_870_912),
    },
    workers: parseWorkers(flags.workers, env.WORKERS, problems),
    media: {
      uploadBytes: int("MEDIA_UPLOAD_LIMIT_BYTES", 10_485_760, 65_536, 268_435_456),
      maxPixels: int("MEDIA_MAX_PIXELS", 40_000_000, 1_000_000, 268_402_689),
    },
  };
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }
  return config;
}

/**
 * The answer cache's budgets: 32 MiB in all, a workspace's answers at most 4 MiB of it (about
 * forty full list pages of 20), so that eight workspaces' hot pages fit whatever the others do;
 * `ANSWER_CACHE_BYTES=0` keeps none. A workspace's budget above the whole is refused.
 */
function parseAnswerCache(
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): Config["answerCache"] {
  const bytes = int("ANSWER_CACHE_BYTES", 33_554_432, 0, 4_294_967_296);
  const workspaceBytes = int(
    "ANSWER_CACHE_WORKSPACE_BYTES",
    Math.min(bytes, 4_194_304),
    0,
    4_294_967_296,
  );
  if (workspaceBytes > bytes) {
    problems.push(
      `ANSWER_CACHE_WORKSPACE_BYTES must not exceed ANSWER_CACHE_BYTES (${workspaceBytes} > ${bytes})`,
    );
  }
  return { bytes, workspaceBytes: Math.min(workspaceBytes, bytes) };
}

/**
 * The database named in a connection string's path (`mongodb://host:27017/mydb?…`), or
 * undefined when there is none. Hosts cannot hold a "/" (a socket path in the host list is
 * percent-encoded), so the path starts at the first "/" after the scheme.
 */
function databaseInUri(uri: string, problems: string[]): string | undefined {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(uri)?.[1];
  if (path === undefined || path === "") return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    problems.push("MONGODB_URI has a malformed database name in its path");
    return undefined;
  }
}

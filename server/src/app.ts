/**
 * The composition root of the HTTP server (README, "Architecture"). Longer than ~250 lines on
 * purpose: it wires every part in one sequence, so what is built from what, and what `close`
 * stops in which order, read top to bottom in one file.
 */

import path from "node:path";
import express, { type Express } from "express";
import helmet from "helmet";
import type { Db } from "mongodb";
import type { Registry } from "prom-client";
import { adminRouter } from "./admin/admin-router.js";
import { type BlogScheduler, startBlogScheduler } from "./blogs/blog-scheduler.js";
import { renderPool } from "./blogs/render-pool.js";
import { type ConsumerDeps, consumerRouter } from "./consumer/consumer-routes.js";
import { startExpirySweeper } from "./keys/expiry-sweeper.js";
import { LastUsedRecorder } from "./keys/last-used.js";
import { RateLimiter } from "./limits/rate-limiter.js";
import { UsageRecorder } from "./limits/usage-recorder.js";
import type { Mailer } from "./mail/mailer.js";
import { smtpMailer } from "./mail/smtp-mailer.js";
import { mediaPool } from "./media/media-pool.js";
import { mediaStore } from "./media/media-store.js";
import type { Config } from "./platform/config.js";
import { collections } from "./platform/db/collections.js";
import { startSweeper } from "./platform/db/ttl-sweeper.js";
import { answerCache } from "./platform/http/answer-cache.js";
import { dashboardRouter } from "./platform/http/dashboard-static.js";
import { docsRouter } from "./platform/http/docs.js";
import { errorHandler, notFoundHandler } from "./platform/http/errors.js";
import { healthRouter } from "./platform/http/health.js";
import { requestContext } from "./platform/http/request-context.js";
import { specValidator } from "./platform/http/spec-validator.js";
import { readSpec } from "./platform/http/validator-warm-up.js";
import type { Logger } from "./platform/logger.js";
import { observeDbCommands } from "./platform/metrics/db-commands.js";
import { httpMetrics } from "./platform/metrics/http-metrics.js";
import { createMetrics } from "./platform/metrics/metrics.js";
import {
  ADMIN_SPEC_PATH,
  CONSUMER_SPEC_PATH,
  DASHBOARD_DIST_PATH,
  DOCS_HTML_PATH,
} from "./platform/paths.js";
import type { Tracing } from "./platform/tracing/tracing.js";
import { createStores, type StoreOptions } from "./stores.js";
import { emailChange } from "./users/email-change.js";
import { passwordReset } from "./users/password-reset.js";
import { startWebhookRetention } from "./webhooks/retention.js";
import {
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookTestHooks,
} from "./webhooks/webhook-delivery.js";

export interface AppDeps {
  readonly config: Config;
  readonly db: Db;
  readonly logger: Logger;
  /**
   * Tests only: the clock of key expiry, the audit log and the changes feed (epoch ms), and the
   * stores' other test hooks (stores.ts); the webhook worker's retry delays and sender
   * (webhooks/webhook-delivery.ts). The clock is also the webhook worker's.
   */
  readonly testHooks?: Pick<
    StoreOptions,
    | "now"
    | "minKeyLifetimeMs"
    | "afterSuccessorInsert"
    | "beforeSessionInsert"
    | "afterInvitationClaim"
  > &
    WebhookTestHooks;
  /**
   * Mails invitation and password-reset links (mail/mailer.ts; README, "Mail") in place of the
   * SMTP mailer that SMTP_URL makes. Without either, the owner hands each invitation link over,
   * and an operator makes reset links with the CLI.
   */
  readonly mailer?: Mailer;
  /** OpenTelemetry tracing (platform/tracing/tracing.ts), when OTEL_* asks for it; its owner closes it. */
  readonly tracing?: Tracing;
  /**
   * A worker of `--workers` (platform/cluster/worker-link.ts): why it is not ready yet although
   * it serves (another worker is not up); `/readyz` answers 503 with it until undefined.
   */
  readonly notReady?: () => string | undefined;
}

export interface App {
  /** The request handler, for `http.createServer`. */
  readonly handler: Express;
  /** The app's metrics (platform/metrics/metrics.ts), served by the metrics listener when METRICS_PORT is set. */
  readonly metrics: Registry;
  /**
   * Readies, before the server listens, what would otherwise be made on the first requests:
   * both validators loaded with every operation's request schemas compiled, and a render
   * worker started. Resolves with how long it took; rejects when a spec cannot be used.
   */
  warmUp(): Promise<{ ms: number }>;
  /**
   * Flushes pending `lastUsedAt` values, rate-limit counts and usage counts, stops timers and the render workers, waits for
   * webhook attempts in flight (each at most WEBHOOK_TIMEOUT_MS); call after the server has closed.
   */
  close(): Promise<void>;
}

/** The composition root: builds the whole HTTP application from its parts. */
export function createApp({
  config,
  db,
  logger,
  testHooks = {},
  mailer,
  tracing,
  notReady,
}: AppDeps): App {
  const { webhookRetryDelaysMs, webhookSend, ...storeHooks } = testHooks;
  // Metrics (README, "Metrics"): recorded always (cheap), served only with METRICS_PORT.
  const metrics = createMetrics({ processMetrics: config.metrics !== undefined });
  const stopDbMetrics = observeDbCommands(db.client, metrics);
  const stopDbTracing = tracing?.observeDb(db.client);
  // Blog bodies are rendered in worker threads: a slow body never blocks a consumer request.
  const renderer = renderPool({ timeoutMs: config.renderTimeoutMs, ...config.renderPool });
  // Set below once the relay exists; a blog write that queued a webhook event nudges it.
  let webhooks: WebhookDelivery | undefined;
  // Set below once the stores exist; setting a blog's schedule nudges it to that time.
  let scheduler: BlogScheduler | undefined;
  const stores = createStores(db, {
    onWebhookEvent: (blogId) => webhooks?.relay.wrote(blogId),
    onScheduled: (at) => scheduler?.nudge(at),
    renderer,
    sessionTtlMs: config.sessionTtlMs,
    changesRetentionMs: config.changesRetentionMs,
    blogRevisionsKept: config.blogRevisionsKept,
    consumerRateLimit: config.consumerRateLimit,
    ...(config.webhooks.secretsKey === undefined
      ? {}
      : { webhookSecretsKey: config.webhooks.secretsKey }),
    webhookUrlPolicy: { allowHttpLoopback: config.webhooks.allowHttpLoopback },
    ...storeHooks,
  });
  const lastUsed = new LastUsedRecorder(
    (entries) => stores.keys.recordLastUsed(entries),
    config.lastUsedFlushMs,
    logger,
    metrics.bufferMonitor("last_used"),
  );
  // Access tokens' `lastUsedAt`, batched the same way (README, "Access tokens").
  const tokensUsed = new LastUsedRecorder(
    (entries) => stores.accessTokens.recordLastUsed(entries),
    config.lastUsedFlushMs,
    logger,
    metrics.bufferMonitor("token_last_used"),
  );
  // Rate limits (counts shared through the database, no round trip while well under) and usage
  // counts (coalesced like lastUsedAt): README, "Rate limits".
  const limiter = new RateLimiter(stores.rateCounters, logger);
  const usageRecorder = new UsageRecorder(
    (entries) => stores.usage.add(entries),
    config.lastUsedFlushMs,
    logger,
    metrics.bufferMonitor("usage"),
  );
  const consumerSpec = specValidator(readSpec(CONSUMER_SPEC_PATH), config.validateResponses);
  const adminDocument = readSpec(ADMIN_SPEC_PATH);
  const adminSpec = specValidator(adminDocument, config.validateResponses);
  // The background jobs below work on the collections themselves; requests go through stores.
  const c = collections(db);
  // Deletes expired sessions and sign-in records (FerretDB has no TTL indexes); `close` stops it.
  const sweeper = startSweeper(c, logger);
  // Writes `key.expired` to the audit log once a key's expiresAt has passed; `close` stops it.
  const expirySweeper = startExpirySweeper(c, stores.audit, logger, {
    ...(testHooks.now === undefined ? {} : { now: testHooks.now }),
  });
  // Webhooks (README, "Webhooks"): events wait in their blogs' outboxes until an instance with
  // WEBHOOK_DELIVERY on relays and sends them; every instance deletes the old delivery log.
  const clock = testHooks.now ?? Date.now;
  if (config.webhooks.deliver) {
    webhooks = startWebhookDelivery({
      collections: c,
      blogs: stores.blogs,
      endpoints: stores.webhookEndpoints,
      timeoutMs: config.webhooks.timeoutMs,
      connectTimeoutMs: config.webhookLimits.connectTimeoutMs,
      workspaceInFlight: config.webhookLimits.workspaceInFlight,
      urlPolicy: { allowHttpLoopback: config.webhooks.allowHttpLoopback },
      now: clock,
      log: logger,
      onAttempt: metrics.webhookAttempt,
      ...(webhookRetryDelaysMs === undefined ? {} : { webhookRetryDelaysMs }),
      ...(webhookSend === undefined ? {} : { webhookSend }),
    });
  }
  const webhookRetention = startWebhookRetention(c, logger, clock);
  // The media library (admin.yaml, "Media"): bytes in GridFS, this instance's cache in DATA_DIR.
  const media = mediaStore(c, db, {
    ...config.media,
    dir: path.join(config.dataDir, "media"),
    pool: mediaPool(),
  });
  // Releases, publishes and unreleases blogs at the times set (admin.yaml, "Schedules").
  scheduler = startBlogScheduler({
    collections: c,
    fire: stores.blogs.fireSchedule,
    log: logger,
    now: clock,
  });

  const app = express();
  app.disable("x-powered-by");
  // Consumer responses set their own strong ETags (platform/http/conditional.ts).
  app.set("etag", false);
  app.set("query parser", "simple");
  // Which proxies' X-Forwarded-For to believe for `req.ip` (sign-in throttling counts by it).
  app.set("trust proxy", config.trustProxy);

  app.use(requestContext(logger));
  if (tracing !== undefined) app.use(tracing.middleware);
  app.use(httpMetrics(metrics));
  // Security headers on every response. JSON needs no sources at all; the docs and the
  // dashboard replace this policy with their own.
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
    }),
  );
  // Routes, at a glance:
  //   GET /api/consumer/blogs[/:blogId | /by-slug/:slug]   consumer API (openapi/openapi.yaml)
  //   GET /api/consumer/tags, /changes          tag counts, changes feed
  //   GET /api/consumer/media/:mediaId/:name    a library image, public (no key)
  //   POST /api/consumer/preview-tokens/exchange a preview link's blog
  //   GET /api/preview/blogs…, /tags             the same, preview perspective (preview keys)
  //   GET /healthz, GET /readyz                 health
  //   GET /docs, GET /openapi.yaml              consumer API reference
  //   /api/admin/…                               admin API (openapi/admin.yaml)
  //   GET /dashboard[/…]                         the dashboard (dashboard/dist); GET / leads there
  // The consumer API first: it carries nearly all the traffic, and Express tries each mount in
  // order on every request.
  const consumerDeps: ConsumerDeps = {
    specValidation: consumerSpec.handlers,
    cacheMaxAgeSeconds: config.cacheMaxAgeSeconds,
    keys: stores.keys,
    blogs: stores.blogs,
    authors: { store: stores.authors, ofBlogs: stores.blogAuthors },
    changes: stores.changes,
    tagCounts: stores.tagCounts,
    lastUsed,
    limits: {
      limiter,
      workspaceLimits: stores.workspaceLimits,
      serverDefault: config.consumerRateLimit,
      usage: usageRecorder,
      rejected: metrics.rejected,
    },
    feeds: { settings: stores.publicFeeds, publicOrigin: config.publicOrigin },
    preview: stores.preview,
    media,
    // Live list pages only: a preview page is read whole to check it (preview-reads.ts), so
    // keeping its answer would save little, for memory the live answers use better.
    answers: {
      live: answerCache({
        ...config.answerCache,
        validated: config.validateResponses,
        monitor: metrics.answerCache,
      }),
      preview: answerCache({ bytes: 0, workspaceBytes: 0, validated: config.validateResponses }),
    },
  };
  // Mail (README, "Mail"): the embedder's mailer, else SMTP when SMTP_URL is set, else none.
  const mail = mailer ?? (config.mail === undefined ? undefined : smtpMailer(config.mail));
  const resets = passwordReset({
    links: stores.passwordResetLinks,
    users: stores.users,
    sessions: stores.sessions,
    throttle: stores.throttle,
    mailer: mail,
    log: logger,
    ...(testHooks.now === undefined ? {} : { now: testHooks.now }),
  });
  const emailChanges = emailChange({
    links: stores.emailChangeLinks,
    users: stores.users,
    throttle: stores.throttle,
    mailer: mail,
    log: logger,
    ...(testHooks.now === undefined ? {} : { now: testHooks.now }),
  });
  app.use("/api/consumer", consumerRouter(consumerDeps, "live"));
  app.use("/api/preview", consumerRouter(consumerDeps, "preview"));
  app.use(healthRouter(db, notReady));
  app.use(docsRouter(CONSUMER_SPEC_PATH, DOCS_HTML_PATH));
  app.use(
    "/api/admin",
    adminRouter({
      specValidation: adminSpec.handlers,
      spec: adminDocument,
      publicOrigin: config.publicOrigin,
      bodyLimits: config.adminBodyLimits,
      // Half of a workspace's renders (RENDER_WORKSPACE_PENDING): its editors keep the rest.
      importRendersAtOnce: Math.max(1, Math.floor(config.renderPool.workspacePending / 2)),
      renderer,
      stores,
      media,
      mailer: mail,
      passwordReset: resets,
      emailChange: emailChanges,
      tokenUsed: (hash) => tokensUsed.record(hash),
      // A test event or redelivery is sent at once when this instance delivers.
      webhooks: {
        nudge: () => webhooks?.worker.nudge(),
        // Test events and redeliveries: a rate per workspace (counted like API keys' requests)
        // and a cap of pending ones per endpoint (README, "Webhooks": fair share and limits).
        limits: {
          limiter,
          rate: config.webhookLimits.manualRate,
          pendingMax: config.webhookLimits.manualPendingMax,
        },
      },
    }),
  );
  app.use(dashboardRouter(DASHBOARD_DIST_PATH));
  app.get("/", (_req, res) => res.redirect(302, "/dashboard/"));
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    handler: app,
    metrics: metrics.registry,
    warmUp: async () => {
      const started = performance.now();
      await Promise.all([consumerSpec.warmUp(), adminSpec.warmUp(), renderer.warmUp()]);
      return { ms: performance.now() - started };
    },
    close: async () => {
      await lastUsed.close();
      await tokensUsed.close();
      await limiter.close();
      await usageRecorder.close();
      await renderer.close();
      await sweeper.close();
      await expirySweeper.close();
      await webhooks?.close();
      await webhookRetention.close();
      await scheduler?.close();
      await resets.drain();
      await emailChanges.drain();
      stopDbMetrics();
      stopDbTracing?.();
    },
  };
}

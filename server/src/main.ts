/**
 * The process entry of `pressroom start` (README, "Architecture"): one server, or with
 * `--workers` the cluster primary and its workers. Just past ~250 lines: the two ways a start
 * composes the same parts read best side by side.
 */
import cluster from "node:cluster";
import { createApp } from "./app.js";
import { MIGRATIONS } from "./migrations.js";
import { superviseWorkers } from "./platform/cluster/supervisor.js";
import { joinCluster, type WorkerLink } from "./platform/cluster/worker-link.js";
import { type Config, loadConfig } from "./platform/config.js";
import { openDatabase, runningEmbedded, startRecordedEmbeddedDb } from "./platform/db/database.js";
import { type LauncherEvent, launcherEventLog } from "./platform/embedded-db/supervisor.js";
import { isLoopbackHostname } from "./platform/http/loopback.js";
import { closeGracefully, type DrainableServer, listen, urlOf } from "./platform/http/server.js";
import { createLogger, type Logger, logFormatFor } from "./platform/logger.js";
import { shareWithPrimary, workersMetrics } from "./platform/metrics/cluster-metrics.js";
import {
  type MetricsServer,
  metricsReachNote,
  startMetricsServer,
} from "./platform/metrics/metrics-server.js";
import { startTracing } from "./platform/tracing/tracing.js";

/**
 * `npm start` / `pressroom start`: database (MONGODB_URI or embedded), app, HTTP server, and a
 * graceful stop on SIGTERM/SIGINT: stop accepting, finish in-flight requests, flush
 * `lastUsedAt`, close the driver (and the embedded database), exit 0. The embedded database it
 * started is restarted when it dies; if that keeps failing, the same stop ends in exit 1. With
 * `--workers N` (N > 1) this process is the cluster primary (`runPrimary`) and each of its N
 * workers runs the rest.
 */
export async function runServer(
  config: Config = loadConfig(),
  logger: Logger = createLogger(
    config.logLevel,
    undefined,
    logFormatFor(config.logFormat, process.stdout.isTTY === true),
  ),
): Promise<void> {
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const link = config.workers > 1 ? joinCluster() : undefined;
  try {
    await runInstance(
      config,
      link === undefined
        ? logger
        : logger.child({ role: "worker", worker: link.id, pid: process.pid }),
      link,
    );
  } catch (err) {
    link?.leave();
    throw err;
  }
}

/**
 * The embedded database supervisor's events, logged; when it gives up, `lost()` (the stop a
 * serving process makes, exit code 1) or, while still starting, exit 1 at once.
 */
function logLauncherEvent(
  logger: Logger,
  lost: () => (() => void) | undefined,
): (event: LauncherEvent) => void {
  return (event) => {
    const { level, fields, msg } = launcherEventLog(event);
    if (event.kind !== "gave-up") return logger[level](fields, msg);
    logger[level](
      fields,
      `${msg} Pressroom stops with exit code 1, for a process manager (or you) to start it again.`,
    );
    const stop = lost();
    if (stop !== undefined) return stop();
    logger.flush(); // still starting: nothing to drain
    process.exit(1);
  };
}

/** One server: what `pressroom start` runs, alone or as one of the workers. */
async function runInstance(
  config: Config,
  logger: Logger,
  link: WorkerLink | undefined,
): Promise<void> {
  /** Set once serving: what to do when the embedded database can no longer be kept running. */
  let onDatabaseLost: (() => void) | undefined;
  const database = await openDatabase(config, MIGRATIONS, {
    onProgress: (line) => logger.info(line),
    onMonitorStuck: (message) => logger.warn(message),
    onLauncherEvent: logLauncherEvent(logger, () => onDatabaseLost),
  });
  // OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT: the SDK is loaded only then (README, "Tracing").
  const tracing = config.tracing === undefined ? undefined : await startTracing(config.tracing);
  if (config.tracing !== undefined) {
    logger.info({ otlp: new URL(config.tracing.url).origin }, "tracing: spans sent over OTLP/HTTP");
  }
  const app = createApp({
    config,
    db: database.db,
    logger,
    tracing,
    ...(link === undefined ? {} : { notReady: link.notReady }),
  });
  let server: DrainableServer | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    // Before listening: the first requests are then as fast as the next ones.
    const warm = await app.warmUp();
    logger.debug({ ms: Math.round(warm.ms) }, "validators and renderer ready");
    // METRICS_PORT: Prometheus metrics on a listener of their own (README, "Metrics"), opened
    // first, so that a port already taken stops the start before the API serves anything.
    // A worker's are served by the primary, with the other workers' (cluster-metrics.ts).
    if (config.metrics !== undefined && link !== undefined) shareWithPrimary(app.metrics);
    else if (config.metrics !== undefined) {
      metricsServer = await startMetricsServer(app.metrics, config.metrics);
    }
    server = await listen(app.handler, config.port, config.host);
  } catch (err) {
    // A start that fails (a port taken, a spec that cannot be used) leaves nothing running: the
    // app's timers, the driver and the embedded database would otherwise keep the process alive.
    if (server !== undefined) await closeGracefully(server, 0);
    await metricsServer?.close();
    await app.close();
    await tracing?.close();
    await database.close();
    throw err;
  }
  const url = urlOf(server);
  logger.info(
    { url, database: database.description },
    `Pressroom listening on ${url} — dashboard ${url}/dashboard/, API docs ${url}/docs`,
  );

  link?.serving(url);
  // With workers the primary says it once, for all of them.
  if (link === undefined) {
    const note = adminReachNote(config);
    logger[note.level]({ publicUrl: config.publicOrigin ?? null }, note.msg);
  }
  if (config.metrics !== undefined && metricsServer !== undefined) {
    const metricsNote = metricsReachNote(config.metrics, metricsServer.url);
    logger[metricsNote.level]({ metricsUrl: `${metricsServer.url}/metrics` }, metricsNote.msg);
  }
  const api = server;

  let stopping = false;
  /** Drains and closes everything, then exits with `exitCode` (1 if the stop itself fails). */
  const stop = async (why: Record<string, string>, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info(why, "shutting down");
    try {
      const cut = await closeGracefully(api, config.shutdownTimeoutMs);
      if (cut > 0) {
        logger.warn(
          { requestsCut: cut, shutdownTimeoutMs: config.shutdownTimeoutMs },
          "shutdown timeout: closed connections with requests still in flight",
        );
      }
      await metricsServer?.close();
      await app.close();
      await tracing?.close();
      await database.close();
      logger.info("stopped");
      logger.flush();
      process.exit(exitCode);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      logger.flush();
      process.exit(1);
    }
  };
  // Nothing a request does may take the process down; a stray rejection is logged, not fatal.
  process.on("unhandledRejection", (err) => logger.error({ err }, "unhandled rejection"));
  process.once("SIGTERM", () => void stop({ signal: "SIGTERM" }));
  process.once("SIGINT", () => void stop({ signal: "SIGINT" }));
  onDatabaseLost = () => void stop({ reason: "the embedded database could not be restarted" }, 1);
}

/**
 * `--workers N` (README, "Workers"): this process prepares the database once — starts the
 * embedded one and records it in DATA_DIR (the workers attach to it, as the CLI does), and runs
 * the indexes and migrations, so N workers do not run them at once — then keeps N workers
 * serving on the one port, and on SIGTERM/SIGINT stops them (each drains as one server does),
 * then the embedded database. It gives up (exit 1) when a worker fails to start, or after
 * repeated crashes (platform/cluster/restart-policy.ts).
 */
async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const log = logger.child({ role: "primary", pid: process.pid });
  const progress = (line: string) => log.info(line);
  /** Set once the workers are started: what to do when the embedded database is lost for good. */
  let onDatabaseLost: (() => void) | undefined;
  const embedded =
    config.mongodbUri === undefined && (await runningEmbedded(config.dataDir)) === null
      ? await startRecordedEmbeddedDb(
          config.dataDir,
          0,
          progress,
          logLauncherEvent(log, () => onDatabaseLost),
        )
      : undefined;
  try {
    const database = await openDatabase(config, MIGRATIONS, { onProgress: progress });
    log.info({ database: database.description }, "database ready: indexes and migrations done");
    await database.close();
  } catch (err) {
    await embedded?.stop();
    throw err;
  }

  // Opened before any worker starts, as one server opens it before it listens: a port taken
  // stops the start before anything serves.
  let metricsServer: MetricsServer | undefined;
  try {
    if (config.metrics !== undefined) {
      metricsServer = await startMetricsServer(workersMetrics(), config.metrics);
    }
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const supervisor = superviseWorkers({
    count: config.workers,
    log,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
  });
  let stopping: Promise<boolean> | undefined;
  const stopAll = () => {
    stopping ??= (async () => {
      const clean = await supervisor.stop();
      await metricsServer?.close();
      await embedded?.stop();
      return clean;
    })();
    return stopping;
  };
  process.once("SIGTERM", () => void exitAfter("SIGTERM", 0));
  process.once("SIGINT", () => void exitAfter("SIGINT", 0));
  async function exitAfter(reason: string, code: number): Promise<void> {
    log.info({ reason }, "shutting down every worker");
    let clean = false;
    try {
      clean = await stopAll();
      log.info({ clean }, "stopped");
    } catch (err) {
      log.error({ err }, "shutdown failed");
    }
    log.flush();
    process.exit(clean ? code : 1);
  }
  void supervisor.gaveUp.then((reason) => exitAfter(reason, 1));
  onDatabaseLost = () => void exitAfter("the embedded database could not be restarted", 1);

  try {
    const { url, pids } = await supervisor.started;
    log.info(
      { url, workers: config.workers, pids },
      `Pressroom listening on ${url} with ${config.workers} workers — dashboard ${url}/dashboard/, API docs ${url}/docs`,
    );
  } catch (err) {
    if (stopping !== undefined) return; // a signal came first: exitAfter is stopping
    await stopAll();
    throw err;
  }
  const note = adminReachNote(config);
  log[note.level]({ publicUrl: config.publicOrigin ?? null }, note.msg);
  if (config.metrics !== undefined && metricsServer !== undefined) {
    const metricsNote = metricsReachNote(config.metrics, metricsServer.url);
    log[metricsNote.level]({ metricsUrl: `${metricsServer.url}/metrics` }, metricsNote.msg);
  }
}

/**
 * Where the dashboard can be used, said at start-up: without PUBLIC_URL the admin API answers on
 * loopback addresses only (admin/guards.ts, DNS rebinding) — a warning when the server listens
 * beyond loopback, where that is surely not what the operator expects.
 */
export function adminReachNote(config: Pick<Config, "publicOrigin" | "host">): {
  level: "info" | "warn";
  msg: string;
} {
  if (config.publicOrigin !== undefined) {
    return {
      level: "info",
      msg: `Dashboard and admin API: requests must come from ${config.publicOrigin} (PUBLIC_URL)`,
    };
  }
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    level: isLoopbackHostname(host) ? "info" : "warn",
    msg:
      "PUBLIC_URL is unset: the dashboard and admin API answer only on loopback addresses " +
      "(localhost, 127.0.0.1, [::1]); set PUBLIC_URL to the URL browsers use to serve them elsewhere",
  };
}

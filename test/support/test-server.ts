import { Writable } from "node:stream";
import type { Db } from "mongodb";
import { type App, type AppDeps, createApp } from "../../server/src/app.js";
import { type Config, loadConfig } from "../../server/src/platform/config.js";
import { closeGracefully, listen, urlOf } from "../../server/src/platform/http/server.js";
import { createLogger } from "../../server/src/platform/logger.js";
import { startMetricsServer } from "../../server/src/platform/metrics/metrics-server.js";
import { startTracing } from "../../server/src/platform/tracing/tracing.js";
import { onFileEnd } from "./cleanup.js";
import { recordingHandler, recordLogs } from "./secret-scan.js";

export interface TestServer {
  readonly url: string;
  readonly app: App;
  readonly config: Config;
  /** Every line the server logged, as written. */
  readonly logLines: string[];
  /** With METRICS_PORT in `env`: the metrics listener's `http://host:port` (scrape `/metrics`). */
  readonly metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/** The real app on a real port (127.0.0.1:0), logging at debug into memory. */
export async function startTestServer(
  db: Db,
  env: Record<string, string> = {},
  /** Tests only: the app's test hooks (a clock of its own …) and a mailer of invitation links. */
  extras: Pick<AppDeps, "testHooks" | "mailer"> = {},
): Promise<TestServer> {
  // One render thread unless a test asks for more (the render fairness tests ask for 2, as a
  // 2-core machine gets by default): each thread loads the renderer through tsx here, and the
  // suite starts a hundred servers on 2 cores (a second thread each cost ~16 % more CPU).
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "debug",
    DB_TIMEOUT_MS: "1500",
    RENDER_THREADS: "1",
    ...env,
  });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(
        ...chunk
          .toString("utf8")
          .split("\n")
          .filter((l) => l !== ""),
      );
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const tracing = config.tracing === undefined ? undefined : await startTracing(config.tracing);
  const app = createApp({ config, db, logger, ...extras, tracing });
  // As `npm start` does: the suites exercise the warmed validators that production serves with.
  await app.warmUp();
  const recording = recordingHandler(app.handler);
  const server = await listen(recording.handler, 0, "127.0.0.1");
  const metricsServer =
    config.metrics === undefined
      ? undefined
      : await startMetricsServer(app.metrics, config.metrics);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await closeGracefully(server, 1000);
    await metricsServer?.close();
    await app.close();
    await tracing?.close();
    recordLogs(logLines);
    recording.flush();
  };
  onFileEnd(stop);
  return { url: urlOf(server), app, config, logLines, metricsUrl: metricsServer?.url, stop };
}

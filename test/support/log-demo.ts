/** Logs two lines with a logger made as `pressroom start` makes it (test/server/log-format.test.ts). */
import { loadConfig } from "../../server/src/platform/config.js";
import { createLogger, logFormatFor } from "../../server/src/platform/logger.js";

const config = loadConfig();
const logger = createLogger(
  config.logLevel,
  undefined,
  logFormatFor(config.logFormat, process.stdout.isTTY === true),
);
logger.info({ url: "http://127.0.0.1:3000" }, "Pressroom listening");
logger.warn("careful");

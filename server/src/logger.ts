import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "./config.js";

export type { Logger };

/** Raw keys must never reach a log line, even when a client puts one where it does not belong. */
const RAW_KEY = /cp_(live|test)_[A-Za-z0-9]+/g;

export function redactKeys(text: string): string {
  return text.replace(RAW_KEY, "cp_$1_[REDACTED]");
}

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "pressroom" },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: these paths never hold anything we log, but if one ever does, it is cut.
      redact: {
        paths: ["req.headers", "headers", "authorization", "apiKey", "key", "password"],
        censor: "[REDACTED]",
      },
    },
    destination,
  );
}

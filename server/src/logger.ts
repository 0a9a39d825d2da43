import { createRequire } from "node:module";
import { type DestinationStream, type Logger, pino } from "pino";
import type { PrettyOptions, PrettyStream } from "pino-pretty";
import type { LogFormat, LogLevel } from "./config.js";

export type { Logger };

/** Raw keys must never reach a log line, even when a client puts one where it does not belong. */
const RAW_KEY = /cp_(live|test)_[A-Za-z0-9]+/g;
/** A run of characters a key can be spelled with, percent-escapes included. */
const KEY_RUN = /[A-Za-z0-9_%]+/g;
/** One level of percent-encoding, of ASCII characters only: all a key is made of. */
const ASCII_ESCAPE = /%([0-7][0-9A-Fa-f])/g;
/**
 * How many levels of percent-encoding are decoded: once by every client, twice by a client that
 * encodes what is encoded already, three and four times by chains of them. A run still not
 * decoded after that is cut whole, so this bounds the work, not what is found.
 */
const MAX_DECODES = 4;

const KEY = /cp_(?:live|test)_[A-Za-z0-9]/;
const decodeOnce = (text: string): string =>
  text.replace(ASCII_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * A run holding a "%": decoded level by level (malformed escapes stay as they are). With a key
 * at the last level, that level with the key cut; with a key at an earlier level only (a stray
 * "%4" before "cp_live_…" decodes to "Lp_live_…"), or still not decoded after MAX_DECODES
 * levels, the whole run is cut; with no key at any level, the run as it was.
 */
function redactEncodedRun(run: string): string {
  let current = run;
  let keySeen = KEY.test(current);
  for (let level = 0; ; level++) {
    const next = decodeOnce(current);
    if (next === current) break;
    if (level === MAX_DECODES) return "[REDACTED]";
    current = next;
    keySeen ||= KEY.test(current);
  }
  if (KEY.test(current)) return current.replace(RAW_KEY, "cp_$1_[REDACTED]");
  return keySeen ? "[REDACTED]" : run;
}

/**
 * Cuts API keys out of text bound for the log: raw, or percent-encoded (any case of hex digits,
 * up to MAX_DECODES levels deep, in part or in whole). Text without a key is left as it is.
 */
export function redactKeys(text: string): string {
  const decoded = text.includes("%")
    ? text.replace(KEY_RUN, (run) => (run.includes("%") ? redactEncodedRun(run) : run))
    : text;
  return decoded.replace(RAW_KEY, "cp_$1_[REDACTED]");
}

/** LOG_FORMAT when set; else readable lines for a person at a terminal, JSON lines for machines. */
export function logFormatFor(forced: LogFormat | undefined, isTty: boolean): LogFormat {
  return forced ?? (isTty ? "pretty" : "json");
}

/**
 * Readable lines (pino-pretty, synchronous, so nothing is lost when the process exits): time,
 * level and message, then the fields. Redaction has happened by then: pretty-printing formats
 * the JSON line pino wrote, key cuts included.
 */
function prettyStream(destination: DestinationStream | undefined, colorize: boolean) {
  // Loaded only when wanted: JSON logging (production) does not pay for it at start-up.
  const pinoPretty = createRequire(import.meta.url)("pino-pretty") as (
    options: PrettyOptions,
  ) => PrettyStream;
  return pinoPretty({
    colorize,
    sync: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,service",
    singleLine: true,
    ...(destination === undefined ? {} : { destination }),
  });
}

export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
  format: LogFormat = "json",
): Logger {
  const out =
    format === "pretty"
      ? prettyStream(destination, destination === undefined && process.stdout.isTTY === true)
      : destination;
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
    out,
  );
}

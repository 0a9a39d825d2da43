import { createRequire } from "node:module";
import { type DestinationStream, type Logger, pino } from "pino";
import type { PrettyOptions, PrettyStream } from "pino-pretty";
import type { LogFormat, LogLevel } from "./config.js";

export type { Logger };

/**
 * Where a key starts: `cp_live` or `cp_test` (not inside a longer word), with or without its
 * `_`. Keys are `cp_live_` and 42 base62 characters (keys/key-format.ts), but a client may split
 * one with anything (`%20`, `+`, `-`, `.`, `/`) or mistype the last `_` of its prefix: from here
 * on nothing of the path is logged.
 */
const KEY_START = /cp_(live|test)(?![A-Za-z0-9])/;
/** One level of percent-encoding, of ASCII characters only: all a key and its prefix are made of. */
const ASCII_ESCAPE = /%([0-7][0-9A-Fa-f])/g;
/**
 * How many levels of percent-encoding are decoded: once by every client, twice by a client that
 * encodes what is encoded already, three and four times by chains of them. A segment still not
 * decoded after that is cut whole, with the rest of the path, so this bounds the work, not what
 * is found.
 */
const MAX_DECODES = 4;

const decodeOnce = (text: string): string =>
  text.replace(ASCII_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A segment as sent, then decoded level by level; null when it is still not decoded after MAX_DECODES. */
function levelsOf(segment: string): string[] | null {
  const levels = [segment];
  for (let current = segment; ; ) {
    const next = decodeOnce(current);
    if (next === current) return levels;
    if (levels.length > MAX_DECODES) return null;
    levels.push(next);
    current = next;
  }
}

/**
 * Cuts API keys out of a URL path bound for the log, in any spelling a client can send: raw or
 * percent-encoded (any case of hex digits, up to MAX_DECODES levels deep, in part or in whole),
 * whole or split by separators. Segment by segment: at the first one where a key starts (at any
 * level of decoding) with anything after it, that segment is logged decoded up to the key, then
 * `cp_live_[REDACTED]`, and nothing after it — not the rest of the segment, nor of the path, so
 * no piece of a split key gets through (the access log's `route` still names the operation).
 * Where the key starts only at an earlier level (a stray `%4` before `cp_live_…` decodes to
 * `Lp_live_…`), or decoding does not end, the segment is `[REDACTED]` and the rest is cut as
 * well. A path without a key is left exactly as it is; so is a bare `cp_live_` ending it.
 */
export function redactKeys(path: string): string {
  if (!path.includes("cp") && !path.includes("%")) return path;
  const segments = path.split("/");
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const levels = levelsOf(segment);
    if (levels === null) return [...out, "[REDACTED]"].join("/");
    const isLast = i === segments.length - 1;
    const keyWithMore = levels.some((level) => {
      const start = KEY_START.exec(level);
      if (start === null) return false;
      const after = level.slice(start.index + start[0].length);
      return !isLast || (after !== "" && after !== "_");
    });
    if (!keyWithMore) {
      out.push(segment);
      continue;
    }
    const decoded = levels[levels.length - 1] ?? segment;
    const start = KEY_START.exec(decoded);
    out.push(
      start === null ? "[REDACTED]" : `${decoded.slice(0, start.index)}cp_${start[1]}_[REDACTED]`,
    );
    return out.join("/");
  }
  return path;
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

import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { type Logger, redactKeys } from "../logger.js";

declare global {
  namespace Express {
    interface Locals {
      requestId: string;
      /** The request's logger, tagged with its id. */
      log: Logger;
      /** Display prefix of the API key that authenticated the request, for the access log. */
      keyPrefix?: string;
    }
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives each request an id (a sane incoming `x-request-id` from a proxy is kept), returns it
 * in `x-request-id`, hangs a logger tagged with it on `res.locals` (made on first use: most
 * requests never log anything of their own), logs "request started" at debug level, and writes
 * one access-log line when the response is finished: id, method, path, route, status, duration,
 * key prefix. Never a header, never a query string.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const incoming = req.get("x-request-id");
    const reqId = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = reqId;
    let log: Logger | undefined;
    Object.defineProperty(res.locals, "log", {
      get: () => {
        log ??= logger.child({ reqId });
        return log;
      },
      enumerable: true,
    });
    res.setHeader("x-request-id", reqId);
    if (logger.isLevelEnabled("debug")) {
      logger.debug({ reqId, method: req.method, path: pathOf(req.originalUrl) }, "request started");
    }
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          reqId,
          method: req.method,
          path: pathOf(req.originalUrl),
          route: req.route?.path === undefined ? undefined : `${req.baseUrl}${req.route.path}`,
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          keyPrefix: res.locals.keyPrefix,
        },
        "request",
      );
    });
    next();
  };
}

/**
 * The path of a request URL for the log: no query string, and no key in any spelling — raw or
 * percent-encoded, once or more, whole or split by separators (`redactKeys` decodes before it
 * looks, and logs the path decoded up to the key, then the key cut and nothing after it; a path
 * without a key is logged as it was sent).
 */
const pathOf = (url: string): string => redactKeys(url.split("?", 1)[0] ?? "");

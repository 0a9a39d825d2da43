import type { IncomingMessage } from "node:http";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { HttpError } from "./errors.js";
import type { SpecDocument } from "./validator-warm-up.js";

/**
 * How deep a JSON request body may nest arrays and objects. Not a setting: it follows from
 * admin.yaml, whose deepest request body nests 5 levels (an import's entries, each with its
 * authors; test/hardening/admin-body-limits.test.ts checks the spec against it, four times
 * over), and no valid body can need more. The bound stops bodies that nest deeper — thousands of `[` fit
 * in a few KB — before `JSON.parse` builds them.
 */
export const MAX_BODY_DEPTH = 20;

/** One byte limit and the setting (platform/config.ts) it comes from, named in the 413's message. */
export interface BodyLimit {
  readonly bytes: number;
  readonly setting: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether UTF-8 JSON text nests arrays and objects more than `max` levels, in one pass over its
 * bytes that skips strings (and the character after each backslash in them). UTF-8 never uses
 * the bytes of `"`, `\`, brackets or braces inside a multi-byte character, so bytes are exact.
 * Malformed JSON is left to `JSON.parse`.
 */
export function nestsDeeperThan(body: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

const hasBody = (req: IncomingMessage): boolean =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

export const COMPRESSED_BODY_MESSAGE =
  "Compressed request bodies are not accepted: send the JSON without Content-Encoding.";
export const CHARSET_MESSAGE = "JSON request bodies must be UTF-8.";
export const tooDeepMessage = (max: number): string =>
  `The JSON body nests arrays or objects more than ${max} levels deep.`;
export const tooLargeMessage = (limit: BodyLimit): string =>
  `Request body too large: this operation accepts at most ${limit.bytes} bytes (${limit.setting}).`;

/**
 * A body sent compressed (`Content-Encoding` other than identity) is refused with 415 before a
 * byte of it is read. Inflating it instead, even with a cap, would spend CPU on every such
 * request and let a few KB stand for a body up to the cap; no client of the admin API (the
 * dashboard, a browser's fetch, the SDK) compresses a request.
 */
const refuseCompressed: RequestHandler = (req, _res, next) => {
  const encoding = req.headers["content-encoding"]?.trim().toLowerCase();
  if (hasBody(req) && encoding !== undefined && encoding !== "" && encoding !== "identity") {
    throw new HttpError(415, COMPRESSED_BODY_MESSAGE);
  }
  next();
};

/**
 * Runs on the raw bytes before `JSON.parse` (body-parser's `verify`): UTF-8 only (so the byte
 * scan is exact), then the nesting bound. What it throws keeps its status (400, 415).
 */
function verify(_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding !== "utf-8" && encoding !== "utf8") throw new HttpError(415, CHARSET_MESSAGE);
  if (nestsDeeperThan(body, MAX_BODY_DEPTH))
    throw new HttpError(400, tooDeepMessage(MAX_BODY_DEPTH));
}

/** body-parser's 413 with a message naming the limit and its setting. */
const nameTheLimit =
  (limit: BodyLimit): ErrorRequestHandler =>
  (err: unknown, _req, _res, next) => {
    const type = typeof err === "object" && err !== null ? (err as { type?: unknown }).type : null;
    next(type === "entity.too.large" ? new HttpError(413, tooLargeMessage(limit)) : err);
  };

/**
 * The JSON body parser of one group of admin operations: at most `limit.bytes` bytes as sent
 * (413 beyond, before more is read when Content-Length says so), never compressed (415), UTF-8
 * (415), nesting at most MAX_BODY_DEPTH levels (400), all before `JSON.parse`. A request whose
 * body an earlier parser read already passes through untouched.
 */
export function jsonBody(limit: BodyLimit): [RequestHandler, RequestHandler, ErrorRequestHandler] {
  return [
    refuseCompressed,
    express.json({ limit: limit.bytes, inflate: false, verify }),
    nameTheLimit(limit),
  ];
}

/** An operation of a spec that takes a JSON body, as an Express route of its router. */
export interface JsonBodyRoute {
  readonly operationId: string;
  readonly method: "post" | "put" | "patch" | "delete";
  /** The spec's path template in Express's spelling: `/workspaces/:workspaceId/blogs`. */
  readonly path: string;
}

const BODY_METHODS = ["post", "put", "patch", "delete"] as const;

/**
 * The operations of a spec whose request body is JSON: only their routes read a body (an
 * operation without one never parses what a client sends it, nor answers 413 or 415 for it).
 */
export function jsonBodyRoutes(spec: SpecDocument): JsonBodyRoute[] {
  return Object.entries(spec.document.paths ?? {}).flatMap(([template, item]) =>
    BODY_METHODS.flatMap((method): JsonBodyRoute[] => {
      const operation = item[method] as
        | { operationId?: unknown; requestBody?: { content?: Record<string, unknown> } }
        | undefined;
      if (operation?.requestBody?.content?.["application/json"] === undefined) return [];
      return [
        {
          operationId: String(operation.operationId),
          method,
          path: template.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1"),
        },
      ];
    }),
  );
}

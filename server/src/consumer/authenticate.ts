import type { Request, RequestHandler, Response } from "express";
import { hashKey, isWellFormedKey, type KeyKind } from "../keys/key-format.js";
import type { KeysStore } from "../keys/keys-store.js";
import type { LastUsedRecorder } from "../keys/last-used.js";
import type { ApiKeyDoc } from "../platform/db/collections.js";
import { HttpError, INTERNAL_ERROR_MESSAGE, unauthorized } from "../platform/http/errors.js";
import type { RejectionReason } from "../platform/metrics/metrics.js";

declare global {
  namespace Express {
    interface Locals {
      /** The workspace the request's API key belongs to. */
      workspaceId?: string;
      /** The request's API key: its public id and its own rate limit (limits/consumer-rate-limit.ts). */
      apiKey?: Pick<ApiKeyDoc, "keyId" | "rateLimit">;
    }
  }
}

/**
 * The key a request presents (openapi.yaml, "Authentication"): `x-api-key` when that header is
 * present at all — it takes precedence — otherwise the token of `Authorization: Bearer …`.
 */
export function presentedKey(req: Request): string | undefined {
  const apiKeyHeader = req.headers["x-api-key"];
  if (apiKeyHeader !== undefined)
    return typeof apiKeyHeader === "string" ? apiKeyHeader : undefined;
  const match = /^Bearer +(\S+)$/i.exec(req.get("authorization") ?? "");
  return match?.[1];
}

/**
 * Authenticates every consumer request: a missing, malformed, unknown or revoked key, or a key
 * of the other kind (a preview key on the live path, a live key on the preview path: openapi.yaml,
 * "Preview"), is 401 before anything else is read; the kind is in the key's prefix, so a key of
 * the wrong kind costs no lookup. Well-formed keys are looked up by hash (primary key), on every
 * request, so revocation is immediate: only an Active key is found (keys-store.ts, `findActive`).
 * A request that ends 2xx/304 records `lastUsedAt`. Each 401 is counted (`rejected`, metrics).
 */
export function authenticate(
  keys: KeysStore,
  lastUsed: LastUsedRecorder,
  rejected: (reason: RejectionReason) => void,
  kind: KeyKind = "live",
): RequestHandler {
  return async (req, res, next) => {
    const raw = presentedKey(req);
    const key =
      raw !== undefined && isWellFormedKey(raw, kind) ? await keys.findActive(hashKey(raw)) : null;
    // The prefix is part of what is hashed: a key found by it is of that kind.
    if (key === null) {
      rejected("invalid_key");
      throw unauthorized();
    }
    res.locals.workspaceId = key.workspaceId;
    res.locals.keyPrefix = key.prefix;
    res.locals.apiKey = key;
    res.on("finish", () => {
      if (res.statusCode < 400) lastUsed.record(key._id);
    });
    next();
  };
}

/** The workspace of the request's key, as `authenticate` found it; a 500 if it did not run. */
export function requestWorkspace(res: Response): string {
  const { workspaceId } = res.locals;
  if (workspaceId === undefined) throw new HttpError(500, INTERNAL_ERROR_MESSAGE);
  return workspaceId;
}

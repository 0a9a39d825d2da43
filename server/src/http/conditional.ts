import { createHash } from "node:crypto";
import type { Response } from "express";

/** A strong validator of exactly these bytes. */
export function strongEtag(body: string): string {
  return `"${createHash("sha256").update(body, "utf8").digest("base64url").slice(0, 32)}"`;
}

/**
 * RFC 9110 §13.1.2: If-None-Match matches when it is `*` or lists the current entity tag
 * (weak comparison). Unlike Express's `req.fresh`, a request `Cache-Control: no-cache` does not
 * disable it — that directive is for caches, and fetch() adds it to every conditional request.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, "");
  return header
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === "*" || tag.replace(/^W\//, "") === opaque);
}

/**
 * Sends a JSON body with a strong ETag, or 304 with no body when the client already has it.
 * The body still goes through `res.json`, so response validation sees it.
 */
export function sendWithEtag(ifNoneMatch: string | undefined, res: Response, body: object): void {
  const etag = strongEtag(JSON.stringify(body));
  res.setHeader("ETag", etag);
  if (ifNoneMatchMatches(ifNoneMatch, etag)) {
    res.status(304).end();
    return;
  }
  res.json(body);
}

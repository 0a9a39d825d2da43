import { createHash } from "node:crypto";
import type { Response } from "express";

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
 * RFC 9110 §13.1.1: If-Match is `*` (any current version: "any") or a list of entity tags, of
 * which only the strong ones can match (strong comparison): their opaque values, in order. A
 * malformed list yields the tags read before the fault, so it matches less, never more.
 * Undefined when the header is absent.
 */
export function parseIfMatch(header: string | undefined): "any" | readonly string[] | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return "any";
  const strong: string[] = [];
  // entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc excludes DQUOTE (and may hold commas).
  const tag = /[\t ]*(W\/)?"([^"]*)"[\t ]*(?:,|$)/y;
  for (let m = tag.exec(header); m !== null; m = tag.exec(header)) {
    if (m[1] === undefined) strong.push(m[2] ?? "");
    if (tag.lastIndex >= header.length) break;
  }
  return strong;
}

/**
 * Bump when the JSON the consumer API sends for the same stored blogs changes (a field added to
 * `toBlog`, another serialisation): every ETag derived by `validatorEtag` changes with it.
 */
// v2: the Blog's presentation and search fields (openapi.yaml, "Presentation and search fields").
// v3: the Blog's `authors` (openapi.yaml, "Authors").
const REPRESENTATION = "consumer-v3";

/**
 * A strong ETag derived from what identifies a response's content — the validators of the blogs
 * in it and anything else it depends on — rather than from its bytes, so it can be checked
 * without reading (or serialising) the content.
 */
export function validatorEtag(kind: string, parts: readonly string[]): string {
  const hash = createHash("sha256").update(`${REPRESENTATION}|${kind}`, "utf8");
  for (const part of parts) hash.update(`|${part}`, "utf8");
  return `"${hash.digest("base64url").slice(0, 32)}"`;
}

/**
 * Answers 304 with no body when `ifNoneMatch` matches `etag`, and returns true; otherwise only
 * sets the `ETag` header.
 */
export function notModified(ifNoneMatch: string | undefined, res: Response, etag: string): boolean {
  res.setHeader("ETag", etag);
  if (!ifNoneMatchMatches(ifNoneMatch, etag)) return false;
  res.status(304).end();
  return true;
}

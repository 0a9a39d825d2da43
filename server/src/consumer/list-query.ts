import { TAG_MAX_LENGTH } from "@pressroom/tag-rule";
import type { RequestHandler, Response } from "express";
import { parseTagFilter, type TagFilter } from "../blogs/tag-filter.js";
import { badRequest } from "../platform/http/errors.js";

declare global {
  namespace Express {
    interface Locals {
      /** The request's `tag` filter (null: none), parsed once by `tagQueryChecked`. */
      tagFilter?: TagFilter | null;
    }
  }
}

/**
 * Runs before the spec's validator on listBlogs, as `unknownFieldsNamed` does for `fields`:
 * - the spec's `tag` is repeated as `tag=a&tag=b` (form style, exploded); the validator would also
 *   take `tag[]=a` as `tag`, a spelling the spec does not have, so a parameter named `tag[…]` is
 *   refused as the unknown parameter it is;
 * - values the spec's pattern refuses (a zero-width space…) or that are not in normal form get
 *   the tag rule's message, naming the character or telling the normal form, rather than the
 *   pattern's. Values outside the spec's other bounds (empty, too long, too many) are left to
 *   the validator.
 * The filter it parses is the request's (`requestTagFilter`): the handler does not parse again.
 * It is kept only when it is made of every value sent; otherwise the validator refuses the
 * request anyway.
 */
export const tagQueryChecked: RequestHandler = (req, res, next) => {
  const bracketed = Object.keys(req.query).find((name) => name.startsWith("tag["));
  if (bracketed !== undefined) {
    next(badRequest(`Unknown query parameter ${bracketed}: repeat tag=… once for each tag.`));
    return;
  }
  const sent: unknown = req.query.tag;
  if (sent === undefined) {
    res.locals.tagFilter = null;
    next();
    return;
  }
  const values = typeof sent === "string" ? [sent] : Array.isArray(sent) ? sent : [];
  const checkable = values.filter(
    (v): v is string => typeof v === "string" && v !== "" && [...v].length <= TAG_MAX_LENGTH,
  );
  if (checkable.length > 0) {
    const filter = parseTagFilter(checkable);
    if (checkable.length === values.length) res.locals.tagFilter = filter;
  }
  next();
};

/**
 * The tag filter `tagQueryChecked` parsed for this request. When it parsed no filter for the
 * values sent, the spec's validator refused the request before any handler: missing here means
 * the middleware did not run before the handler, a wiring bug (500), never the client's.
 */
export function requestTagFilter(res: Response): TagFilter | null {
  const filter = res.locals.tagFilter;
  if (filter === undefined) throw new Error("tagQueryChecked did not parse this request's tag.");
  return filter;
}

/** An archive bound whose offset's `+` was sent as it is, which a query string reads as a space. */
const PLUS_AS_SPACE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)? \d{2}:?\d{2}$/;

/**
 * Runs before the spec's validator on listBlogs: `releasedAfter=2026-03-01T01:00:00+01:00` sent
 * as it is arrives as `…01:00:00 01:00` (a `+` in a query string is a space), which the
 * validator would call a bad date-time; this says what happened instead (openapi.yaml,
 * "Archives").
 */
export const archiveQueryChecked: RequestHandler = (req, _res, next) => {
  for (const name of ["releasedAfter", "releasedBefore"]) {
    const value: unknown = req.query[name];
    if (typeof value === "string" && PLUS_AS_SPACE.test(value)) {
      next(
        badRequest(
          `Invalid query parameter ${name}: its offset's "+" arrived as a space; percent-encode it as %2B (or use Z).`,
        ),
      );
      return;
    }
  }
  next();
};

import { TAG_MAX_LENGTH } from "@pressroom/tag-rule";
import type { RequestHandler } from "express";
import { parseTagFilter } from "../blogs/tag-filter.js";
import { badRequest } from "../platform/http/errors.js";

/**
 * Runs before the spec's validator on listBlogs, as `unknownFieldsNamed` does for `fields`:
 * - the spec's `tag` is repeated as `tag=a&tag=b` (form style, exploded); the validator would also
 *   take `tag[]=a` as `tag`, a spelling the spec does not have, so a parameter named `tag[…]` is
 *   refused as the unknown parameter it is;
 * - values the spec's pattern refuses (a zero-width space…) or that are not in normal form get
 *   the tag rule's message, naming the character or telling the normal form, rather than the
 *   pattern's. Values outside the spec's other bounds (empty, too long, too many) are left to
 *   the validator.
 */
export const tagQueryChecked: RequestHandler = (req, _res, next) => {
  const bracketed = Object.keys(req.query).find((name) => name.startsWith("tag["));
  if (bracketed !== undefined) {
    next(badRequest(`Unknown query parameter ${bracketed}: repeat tag=… once for each tag.`));
    return;
  }
  const sent: unknown = req.query.tag;
  const values = typeof sent === "string" ? [sent] : Array.isArray(sent) ? sent : [];
  const checkable = values.filter(
    (v): v is string => typeof v === "string" && v !== "" && [...v].length <= TAG_MAX_LENGTH,
  );
  if (checkable.length > 0) parseTagFilter(checkable);
  next();
};

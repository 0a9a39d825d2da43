import type { RequestHandler } from "express";
import { badRequest } from "../http/errors.js";

/**
 * Runs before the spec's validator on listBlogs. The spec's `tag` is repeated as `tag=a&tag=b`
 * (form style, exploded); the validator would also take `tag[]=a` as `tag`, a spelling the spec
 * does not have, so a parameter named `tag[…]` is refused as the unknown parameter it is.
 */
export const bracketedTagRefused: RequestHandler = (req, _res, next) => {
  const bracketed = Object.keys(req.query).find((name) => name.startsWith("tag["));
  if (bracketed === undefined) {
    next();
    return;
  }
  next(badRequest(`Unknown query parameter ${bracketed}: repeat tag=… once for each tag.`));
};

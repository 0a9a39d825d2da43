import type { RequestHandler, Response } from "express";
import { type FieldSelection, parseFields } from "../blogs/field-selection.js";

declare global {
  namespace Express {
    interface Locals {
      /** The request's `fields` (null: the whole Blog), parsed once by `unknownFieldsNamed`. */
      fieldSelection?: FieldSelection | null;
    }
  }
}

/** Names made of letters, comma-separated: the syntax of `fields` (openapi.yaml, Fields). */
const FIELDS_SYNTAX = /^[A-Za-z]+(?:,[A-Za-z]+)*$/;
/** The spec's maxLength of `fields`: a longer value is the validator's to refuse. */
const FIELDS_MAX_LENGTH = 500;

/**
 * Runs before the spec's validator. The spec's pattern for `fields` is the allow-list itself
 * (so generated clients and contract tests know the names), which would turn `fields=foo` into
 * a pattern mismatch; the spec promises a 400 that names the unknown fields instead. So a
 * `fields` of well-formed names is checked here, and one that is not well-formed (empty, spaces,
 * sent twice, too long…) is left to the validator's message. The selection it parses is the
 * request's (`requestFields`): the handler does not parse again.
 */
export const unknownFieldsNamed: RequestHandler = (req, res, next) => {
  const { fields } = req.query;
  if (fields === undefined) {
    res.locals.fieldSelection = null;
  } else if (
    typeof fields === "string" &&
    fields.length <= FIELDS_MAX_LENGTH &&
    FIELDS_SYNTAX.test(fields)
  ) {
    res.locals.fieldSelection = parseFields(fields);
  }
  next();
};

/**
 * The selection `unknownFieldsNamed` parsed for this request. When it parsed none for a `fields`
 * sent, the spec's validator refused the request before any handler: missing here means the
 * middleware did not run before the handler, a wiring bug (500), never the client's.
 */
export function requestFields(res: Response): FieldSelection | null {
  const selection = res.locals.fieldSelection;
  if (selection === undefined) {
    throw new Error("unknownFieldsNamed did not parse this request's fields.");
  }
  return selection;
}

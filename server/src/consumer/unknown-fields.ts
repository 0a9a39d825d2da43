import type { RequestHandler } from "express";
import { parseFields } from "../blogs/field-selection.js";

/** Names made of letters, comma-separated: the syntax of `fields` (openapi.yaml, Fields). */
const FIELDS_SYNTAX = /^[A-Za-z]+(?:,[A-Za-z]+)*$/;
/** The spec's maxLength of `fields`: a longer value is the validator's to refuse. */
const FIELDS_MAX_LENGTH = 500;

/**
 * Runs before the spec's validator. The spec's pattern for `fields` is the allow-list itself
 * (so generated clients and contract tests know the names), which would turn `fields=foo` into
 * a pattern mismatch; the spec promises a 400 that names the unknown fields instead. So a
 * `fields` of well-formed names is checked here, and one that is not well-formed (empty, spaces,
 * sent twice, too long…) is left to the validator's message.
 */
export const unknownFieldsNamed: RequestHandler = (req, _res, next) => {
  const { fields } = req.query;
  if (
    typeof fields === "string" &&
    fields.length <= FIELDS_MAX_LENGTH &&
    FIELDS_SYNTAX.test(fields)
  ) {
    parseFields(fields);
  }
  next();
};

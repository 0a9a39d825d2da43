import { ApiError } from "../../api.js";

/** The new-token form's fields that can carry an inline error. */
export type TokenField = "name" | "scopes" | "expiresAt";
const FIELDS: readonly TokenField[] = ["name", "scopes", "expiresAt"];
const isField = (name: string): name is TokenField => (FIELDS as readonly string[]).includes(name);

/** Said instead of admin.yaml's pattern (a regular expression means nothing to a person). */
export const NAME_PATTERN_PROBLEM =
  "The name has a control character or a text-direction override: remove it.";
const EXPIRY_PROBLEM = "Choose a day from tomorrow to a year ahead.";

/**
 * The field a refused create was about, and what to say under it, when the server's 400 names
 * one: the spec's validator (`request/body/<field> must …`, its findings joined with ", ", the
 * first naming the field) or the expiry's own bound ("expiresAt must be 1 to 366 days…"). Null
 * for anything else (the 409 of 50 tokens, a network failure), said above the buttons.
 */
export function tokenRefusalOf(err: unknown): { field: TokenField; message: string } | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const validator =
    /(?:^|\s)(?:request\/)?body\/([A-Za-z]+)(?:\/\d+)?\s+(.*?)(?:, (?:request\/)?body\/.*)?$/.exec(
      err.message,
    );
  if (validator) {
    const [, name = "", rest = ""] = validator;
    if (!isField(name)) return null;
    if (name === "expiresAt") return { field: name, message: EXPIRY_PROBLEM };
    if (name === "name" && /must match pattern/.test(rest)) {
      return { field: name, message: NAME_PATTERN_PROBLEM };
    }
    return { field: name, message: `${rest.charAt(0).toUpperCase()}${rest.slice(1)}.` };
  }
  if (/^expiresAt\b/.test(err.message)) return { field: "expiresAt", message: EXPIRY_PROBLEM };
  return null;
}

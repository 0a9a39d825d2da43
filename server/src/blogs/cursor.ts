import { invalid as invalidValue } from "../domain-error.js";

/** Position after the last blog of a page: its sort time (ms) and id, the list's sort key. */
export interface ListPosition {
  at: Date;
  id: string;
}

export function encodeCursor({ at, id }: ListPosition): string {
  return Buffer.from(JSON.stringify([at.getTime(), id]), "utf8").toString("base64url");
}

/** Anything that is not a cursor this server produced is invalid; the message names the parameter. */
export function decodeCursor(cursor: string): ListPosition {
  const invalid = () =>
    invalidValue("Invalid query parameter cursor: pass a nextCursor unchanged.");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
  const [millis, id] = parsed as unknown[];
  if (
    typeof millis !== "number" ||
    !Number.isSafeInteger(millis) ||
    millis < 0 ||
    typeof id !== "string" ||
    !/^b_[A-Za-z0-9]{1,64}$/.test(id)
  ) {
    throw invalid();
  }
  return { at: new Date(millis), id };
}

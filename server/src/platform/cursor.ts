import { invalid } from "./domain-error.js";

/** Where a page sorted by (time desc, `_id` desc) ended: its last item's sort key. */
export interface TimeIdPosition {
  readonly at: Date;
  readonly id: string;
}

/**
 * The opaque `cursor`/`nextCursor` of a page sorted by a time and `_id` (the audit log, a
 * webhook endpoint's delivery log): base64url JSON `[ms, id]`. A cursor that does not decode to
 * a position with an id matching `idPattern` is refused with one 400 message.
 */
export function timeIdCursor(idPattern: RegExp) {
  const bad = () => invalid("Invalid query parameter cursor: pass a nextCursor unchanged.");
  return {
    encode: ({ at, id }: TimeIdPosition): string =>
      Buffer.from(JSON.stringify([at.getTime(), id]), "utf8").toString("base64url"),

    decode(cursor: string): TimeIdPosition {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        throw bad();
      }
      if (!Array.isArray(parsed) || parsed.length !== 2) throw bad();
      const [millis, id] = parsed as unknown[];
      if (typeof millis !== "number" || !Number.isSafeInteger(millis) || millis < 0) throw bad();
      if (typeof id !== "string" || !idPattern.test(id)) throw bad();
      return { at: new Date(millis), id };
    },
  };
}

import type { Collections } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import { tokenSigner } from "../platform/signed-token.js";

/**
 * Where a sync stands, as a changes-feed token carries it:
 * - `seq`: entries up to this number are accounted for (during the first walk, the log's last
 *   number when the walk began: everything after it comes once the walk is done);
 * - `since`: when `seq` was read (epoch ms), which is what a token's age is measured from;
 * - `walk`: during the first walk, the release-list position to continue after.
 */
export interface SyncPosition {
  readonly workspaceId: string;
  readonly seq: number;
  readonly since: number;
  readonly walk?: { readonly at: Date; readonly id: string };
}

const KEY_MARKER = "changes-token-key";
const MAC_CONTEXT = "pressroom.changes.v1.";

export const INVALID_TOKEN_MESSAGE =
  "Invalid query parameter since: pass a nextToken unchanged, or call without since to start over.";

/**
 * Changes-feed tokens: a `SyncPosition`, signed. A token that was edited, forged, cut, or made
 * for another workspace is refused with one message, whichever it was: the answer says nothing
 * about what the token holds.
 */
export interface ChangeTokens {
  /** The token of a position. */
  encode(position: SyncPosition): Promise<string>;
  /** The position a token of this workspace carries; "invalid" for anything else. */
  decode(token: string, workspaceId: string): Promise<SyncPosition>;
}

/**
 * A signed token (platform/signed-token.ts) whose body is `[1, workspaceId, seq, since]`, and
 * during a first walk also the position's time (epoch ms) and id.
 */
export function changeTokens({ markers }: Pick<Collections, "markers">): ChangeTokens {
  const signer = tokenSigner({ markers }, KEY_MARKER, MAC_CONTEXT);
  return {
    encode(position: SyncPosition): Promise<string> {
      const body: unknown[] = [1, position.workspaceId, position.seq, position.since];
      if (position.walk !== undefined) body.push(position.walk.at.getTime(), position.walk.id);
      return signer.sign(body);
    },

    async decode(token: string, workspaceId: string): Promise<SyncPosition> {
      const position = parseBody(await signer.open(token));
      if (position === null || position.workspaceId !== workspaceId) {
        throw invalid(INVALID_TOKEN_MESSAGE);
      }
      return position;
    },
  };
}

const count = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** A signed body is ours, but is still checked field by field: a key may have been reused. */
function parseBody(body: unknown): SyncPosition | null {
  if (!Array.isArray(body)) return null;
  const [version, workspaceId, seq, since, walkAt, walkId] = body as unknown[];
  if (version !== 1 || typeof workspaceId !== "string" || !count(seq) || !count(since)) {
    return null;
  }
  if (body.length === 4) return { workspaceId, seq, since };
  if (body.length !== 6 || !count(walkAt) || typeof walkId !== "string") return null;
  return { workspaceId, seq, since, walk: { at: new Date(walkAt), id: walkId } };
}

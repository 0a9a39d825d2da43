import type { AuditLog } from "../audit/audit-log.js";
import type { Collections } from "../platform/db/collections.js";
import { conflict } from "../platform/domain-error.js";
import { checkGrace } from "./key-rules.js";
import { keyStatusAt } from "./key-view.js";
import type { KeysStore, MintedApiKey } from "./keys-store.js";

export interface KeyRollOptions {
  readonly audit: AuditLog;
  /** Tests only: runs between the successor's insert and the old key's compare-and-set. */
  readonly afterSuccessorInsert?: (keyId: string) => Promise<void>;
}

/**
 * Rolling a key (admin.yaml, rollKey): a successor with the same name and limit, and the old key
 * set to expire after a grace period, so both work while consumers move over. "conflict" for a
 * revoked, expired or already rolled key. `actor`: the user rolling it, or null for the operator
 * CLI.
 */
export type KeyRoller = (
  workspaceId: string,
  keyId: string,
  gracePeriodSeconds: number,
  actor?: string | null,
) => Promise<MintedApiKey>;

/**
 * There are no transactions, so the writes are ordered for a crash at any point to leave no key
 * worse off than before:
 *   1. insert the successor (until step 2 it is an extra key whose secret nobody has seen);
 *   2. compare-and-set the old key — only while it is still Active and not rolled (`rolledTo`
 *      null or absent) — to its new `expiresAt` and `rolledTo`;
 *   3. if that matched nothing (another roll or a revocation got there first), delete the
 *      successor, which never left the server, and answer 409.
 * A crash after 1 leaves the old key exactly as it was, plus an unused successor (listed with
 * its `rolledFrom`); a crash after 2 leaves a completed roll whose secret was never shown, which
 * the owner sees as a successor with no use and can revoke.
 */
export function keyRoller(
  { apiKeys }: Pick<Collections, "apiKeys">,
  keys: KeysStore,
  options: KeyRollOptions,
): KeyRoller {
  return async (
    workspaceId: string,
    keyId: string,
    gracePeriodSeconds: number,
    actor: string | null = null,
  ): Promise<MintedApiKey> => {
    const grace = checkGrace(gracePeriodSeconds);
    return keys.serially(keyId, async () => {
      const old = await keys.find(workspaceId, keyId);
      const now = keys.now();
      const status = keyStatusAt(old, now);
      if (status === "Revoked") throw conflict("A revoked key cannot be rolled.");
      if (status === "Expired") throw conflict("An expired key cannot be rolled; mint a new one.");
      if (old.rolledTo != null) {
        throw conflict(
          `This key was rolled already (to ${old.rolledTo}); roll its successor instead.`,
        );
      }
      // The successor lives as long as the old key was meant to, counted from now.
      const lifetimeMs =
        old.expiresAt == null ? null : old.expiresAt.getTime() - old.createdAt.getTime();
      const successor = await keys.insert(workspaceId, old.name, actor, {
        expiresAt: lifetimeMs === null ? null : new Date(now.getTime() + lifetimeMs),
        rolledFrom: old.keyId,
        rateLimit: old.rateLimit ?? null,
        createdAt: now,
        kind: old.kind ?? "live",
      });
      await options.afterSuccessorInsert?.(keyId);
      const graceEnd = new Date(now.getTime() + grace * 1000);
      const expiresAt =
        old.expiresAt != null && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
      const swapped = await apiKeys.updateOne(
        // `rolledTo: null` matches a key that has none stored as well as one stored as null.
        { _id: old._id, status: "Active", rolledTo: null },
        { $set: { expiresAt, expiryLogged: false, rolledTo: successor.id } },
      );
      if (swapped.modifiedCount !== 1) {
        await keys.discard(successor.doc);
        throw conflict("This key was rolled or revoked at the same moment; reload the keys.");
      }
      await options.audit.record({
        workspaceId,
        actor,
        action: "key.rolled",
        keyId,
        at: now,
        details: { successor: successor.id, gracePeriodSeconds: grace },
      });
      return successor;
    });
  };
}

import type { ApiKeyDoc } from "../platform/db/collections.js";
import type { ApiKey } from "../platform/http/admin-types.js";
import { toActor } from "../users/user-view.js";
import type { UserName } from "../users/users-store.js";

/** The account ids a list of keys names (who minted and who revoked each), to look up at once. */
export const actorIdsOf = (docs: readonly ApiKeyDoc[]): string[] =>
  docs.flatMap((k) => [k.createdBy, k.revokedBy]).filter((id): id is string => id != null);

/**
 * Stored key → the admin spec's `ApiKey`: ISO times, who minted and revoked it by name (`people`:
 * the accounts of `actorIdsOf`; null for the operator's CLI and for deleted accounts). Never the
 * hash.
 */
export function toApiKey(
  doc: ApiKeyDoc,
  people: ReadonlyMap<string, UserName>,
  now: Date = new Date(),
): ApiKey {
  return {
    id: doc.keyId,
    name: doc.name,
    prefix: doc.prefix,
    kind: doc.kind ?? "live",
    status: keyStatusAt(doc, now),
    createdAt: doc.createdAt.toISOString(),
    createdBy: toActor(doc.createdBy ?? null, people),
    revokedAt: doc.revokedAt?.toISOString() ?? null,
    revokedBy: toActor(doc.revokedBy ?? null, people),
    lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
    expiresAt: doc.expiresAt?.toISOString() ?? null,
    rolledFrom: doc.rolledFrom ?? null,
    rolledTo: doc.rolledTo ?? null,
    rateLimit: doc.rateLimit ?? null,
  };
}

/** What a key is at `now`: revoked for good, expired once `expiresAt` has passed, else active. */
export function keyStatusAt(
  doc: Pick<ApiKeyDoc, "status" | "expiresAt">,
  now: Date,
): ApiKey["status"] {
  if (doc.status === "Revoked") return "Revoked";
  return doc.expiresAt != null && doc.expiresAt <= now ? "Expired" : "Active";
}

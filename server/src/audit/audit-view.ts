import type { AuditEntryDoc } from "../platform/db/collections.js";
import type { AuditEntry } from "../platform/http/admin-types.js";
import { toActor } from "../users/user-view.js";
import type { UserName } from "../users/users-store.js";

/** The accounts a page of entries names, to look up at once. */
export const auditActorIds = (docs: readonly AuditEntryDoc[]): string[] =>
  docs
    .flatMap((d) => [d.actor, d.details.userId ?? null])
    .filter((id): id is string => id !== null);

/** Stored entry → the admin spec's `AuditEntry`: ISO times, the actor by name (null: CLI, server). */
export function toAuditEntry(
  doc: AuditEntryDoc,
  people: ReadonlyMap<string, UserName>,
): AuditEntry {
  const { expiresAt, successor, gracePeriodSeconds, from, to } = doc.details;
  const { invitationId, role, previousRole, userId, reason } = doc.details;
  const { endpointId, changed, previousSecretDropped, blogId, blogTitle } = doc.details;
  const { publishAt, unreleaseAt, authorId, authorName } = doc.details;
  return {
    id: doc._id,
    at: doc.at.toISOString(),
    actor: toActor(doc.actor, people),
    action: doc.action,
    keyId: doc.keyId,
    accessToken: doc.token ?? null,
    details: {
      ...(expiresAt === undefined ? {} : { expiresAt: expiresAt?.toISOString() ?? null }),
      ...(successor === undefined ? {} : { successor }),
      ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(invitationId === undefined ? {} : { invitationId }),
      ...(role === undefined ? {} : { role }),
      ...(previousRole === undefined ? {} : { previousRole }),
      ...(userId === undefined ? {} : { member: toActor(userId, people) }),
      ...(reason === undefined ? {} : { reason }),
      ...(endpointId === undefined ? {} : { endpointId }),
      ...(changed === undefined ? {} : { changed: [...changed] }),
      ...(previousSecretDropped === undefined ? {} : { previousSecretDropped }),
      ...(blogId === undefined ? {} : { blogId }),
      ...(blogTitle === undefined ? {} : { blogTitle }),
      ...(authorId === undefined ? {} : { authorId }),
      ...(authorName === undefined ? {} : { authorName }),
      ...(publishAt === undefined ? {} : { publishAt: publishAt?.toISOString() ?? null }),
      ...(unreleaseAt === undefined ? {} : { unreleaseAt: unreleaseAt?.toISOString() ?? null }),
    },
  };
}

import type { components } from "../../../openapi/generated/admin.js";
import type { InvitationDoc } from "../platform/db/collections.js";
import { toActor } from "../users/user-view.js";
import type { UserName } from "../users/users-store.js";

type Invitation = components["schemas"]["Invitation"];

/** Stored invitation → the admin spec's `Invitation`: never its token nor its hash. */
export const toInvitation = (
  doc: InvitationDoc,
  people: ReadonlyMap<string, UserName>,
): Invitation => ({
  id: doc._id,
  email: doc.email,
  role: doc.role,
  invitedBy: toActor(doc.invitedBy, people),
  createdAt: doc.createdAt.toISOString(),
  expiresAt: doc.expiresAt.toISOString(),
});

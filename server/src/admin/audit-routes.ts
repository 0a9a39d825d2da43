import type { AuditStore } from "../audit/audit-log.js";
import { auditActorIds, toAuditEntry } from "../audit/audit-view.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { UsersStore } from "../users/users-store.js";

/** A workspace's audit log, newest first, with each actor's name (every member reads it). */
export function auditHandlers(audit: AuditStore, users: Pick<UsersStore, "namesOf">) {
  const listAudit: AdminHandler<"listAudit"> = async (req, res) => {
    const page = await audit.page(req.params.workspaceId, req.query.limit ?? 20, req.query.cursor);
    const people = await users.namesOf(auditActorIds(page.entries));
    res.json({
      data: page.entries.map((doc) => toAuditEntry(doc, people)),
      nextCursor: page.nextCursor,
    });
  };

  return { listAudit };
}

import type { AuditStore } from "../audit/audit-log.js";
import { auditActorIds, toAuditEntry } from "../audit/audit-view.js";
import type { RateLimitSettings } from "../limits/rate-limit-settings.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { UsersStore } from "../users/users-store.js";
import { signedInUser } from "./guards.js";

/** The workspace's default rate limit (settings) and its audit log. */
export function limitAndAuditHandlers(
  rateLimits: RateLimitSettings,
  audit: AuditStore,
  users: Pick<UsersStore, "namesOf">,
) {
  const getWorkspaceRateLimit: AdminHandler<"getWorkspaceRateLimit"> = async (req, res) => {
    res.json(await rateLimits.of(req.params.workspaceId));
  };

  /** Owner only (the router's guard). */
  const setWorkspaceRateLimit: AdminHandler<"setWorkspaceRateLimit"> = async (req, res) => {
    res.json(
      await rateLimits.set(req.params.workspaceId, req.body.rateLimit ?? null, signedInUser(res)),
    );
  };

  const listAudit: AdminHandler<"listAudit"> = async (req, res) => {
    const page = await audit.page(req.params.workspaceId, req.query.limit ?? 20, req.query.cursor);
    const people = await users.namesOf(auditActorIds(page.entries));
    res.json({
      data: page.entries.map((doc) => toAuditEntry(doc, people)),
      nextCursor: page.nextCursor,
    });
  };

  return { getWorkspaceRateLimit, setWorkspaceRateLimit, listAudit };
}

import type { AuditLog } from "../audit/audit-log.js";
import type { Collections, RateLimitSetting } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import { checkRateLimit } from "./rate-limit-policy.js";

/** The limit settings that apply to a workspace's keys, as the admin API shows them (admin.yaml, WorkspaceRateLimit). */
export interface WorkspaceRateLimit {
  /** The workspace's own default; null: the server's applies. */
  readonly rateLimit: RateLimitSetting | null;
  /** The server's default (config `CONSUMER_RATE_LIMIT`); null: no limit. */
  readonly serverDefault: RateLimitSetting | null;
}

/**
 * The workspace's default rate limit (`WorkspaceDoc.rateLimit`) beside the server's. Settings
 * only: the consumer API's limiter reads them and enforces them (README, "Rate limits").
 */
export interface RateLimitSettings {
  /** The workspace's settings; "not found" for an unknown workspace. */
  of(workspaceId: string): Promise<WorkspaceRateLimit>;
  /**
   * Sets the workspace's default (null: the server's applies), with an audit entry by `actor`
   * (null: the operator CLI); the settings as they are now.
   */
  set(
    workspaceId: string,
    rateLimit: RateLimitSetting | null,
    actor?: string | null,
  ): Promise<WorkspaceRateLimit>;
}

export function rateLimitSettings(
  { workspaces }: Pick<Collections, "workspaces">,
  serverDefault: RateLimitSetting | null,
  audit: AuditLog,
): RateLimitSettings {
  const read = async (workspaceId: string): Promise<RateLimitSetting | null> => {
    const doc = await workspaces.findOne({ _id: workspaceId }, { projection: { rateLimit: 1 } });
    if (doc === null) throw notFound("Workspace not found.");
    return doc.rateLimit ?? null;
  };
  return {
    async of(workspaceId: string): Promise<WorkspaceRateLimit> {
      return { rateLimit: await read(workspaceId), serverDefault };
    },

    async set(
      workspaceId: string,
      rateLimit: RateLimitSetting | null,
      actor: string | null = null,
    ): Promise<WorkspaceRateLimit> {
      const to = checkRateLimit(rateLimit);
      const from = await read(workspaceId);
      await workspaces.updateOne({ _id: workspaceId }, { $set: { rateLimit: to } });
      await audit.record({
        workspaceId,
        actor,
        action: "workspace.limit_changed",
        details: { from, to },
      });
      return { rateLimit: to, serverDefault };
    },
  };
}

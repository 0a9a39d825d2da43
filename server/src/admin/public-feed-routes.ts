import type { AuditLog } from "../audit/audit-log.js";
import { checkLinkTemplate } from "../feeds/link-template.js";
import type { PublicFeeds } from "../feeds/public-feed-settings.js";
import type { AuditAction } from "../platform/db/collections.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { toWorkspace } from "../workspaces/workspace-view.js";
import { requestOrigin, roleInPath, signedInUser } from "./guards.js";

/**
 * A workspace's public feeds (admin.yaml `setPublicFeeds`, `turnOffPublicFeeds`,
 * `renewPublicFeedId`; owner only, by the router's guard; openapi.yaml, "Feeds"). Each change
 * that changed something is an audit entry.
 */
export function publicFeedHandlers(deps: {
  readonly feeds: PublicFeeds;
  readonly audit: AuditLog;
}) {
  const record = (workspaceId: string, actor: string, action: AuditAction) =>
    deps.audit.record({ workspaceId, actor, action });

  const setPublicFeeds: AdminHandler<"setPublicFeeds"> = async (req, res) => {
    const { workspaceId } = req.params;
    const linkTemplate = checkLinkTemplate(req.body.linkTemplate);
    const { workspace, before } = await deps.feeds.turnOn(workspaceId, linkTemplate);
    if (before === null) await record(workspaceId, signedInUser(res), "workspace.public_feeds_on");
    else if (before.linkTemplate !== linkTemplate) {
      await record(workspaceId, signedInUser(res), "workspace.public_feeds_changed");
    }
    res.json(toWorkspace(workspace, roleInPath(res), requestOrigin(res)));
  };

  const turnOffPublicFeeds: AdminHandler<"turnOffPublicFeeds"> = async (req, res) => {
    const { workspaceId } = req.params;
    const { workspace, before } = await deps.feeds.turnOff(workspaceId);
    if (before !== null) await record(workspaceId, signedInUser(res), "workspace.public_feeds_off");
    res.json(toWorkspace(workspace, roleInPath(res), requestOrigin(res)));
  };

  const renewPublicFeedId: AdminHandler<"renewPublicFeedId"> = async (req, res) => {
    const { workspaceId } = req.params;
    const workspace = await deps.feeds.renew(workspaceId);
    await record(workspaceId, signedInUser(res), "workspace.public_feed_renewed");
    res.json(toWorkspace(workspace, roleInPath(res), requestOrigin(res)));
  };

  return { setPublicFeeds, turnOffPublicFeeds, renewPublicFeedId };
}

import type { AuditLog } from "../audit/audit-log.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { conflict } from "../platform/domain-error.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { previewDocOf } from "../preview/preview-reads.js";
import type { PreviewTokens } from "../preview/preview-tokens.js";
import { checkPreviewUrl, fillPreviewUrl } from "../preview/preview-url.js";
import { toWorkspace } from "../workspaces/workspace-view.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";
import { requestOrigin, roleInPath, signedInUser } from "./guards.js";

export const NO_PREVIEW_URL_MESSAGE =
  "This workspace has no preview URL. An owner can set one in Settings.";

/**
 * The workspace's preview URL (owner only, by the router's guard) and editors' preview links
 * (admin.yaml `setPreviewUrl`, `createPreviewLink`; openapi.yaml, "Preview").
 */
export function previewHandlers(deps: {
  readonly workspaces: WorkspacesStore;
  readonly blogs: Pick<BlogsStore, "get">;
  readonly tokens: PreviewTokens;
  readonly audit: AuditLog;
}) {
  const setPreviewUrl: AdminHandler<"setPreviewUrl"> = async (req, res) => {
    const { workspaceId } = req.params;
    const previewUrl = checkPreviewUrl(req.body.previewUrl);
    const { workspace, previous } = await deps.workspaces.setPreviewUrl(workspaceId, previewUrl);
    if (previous !== previewUrl) {
      await deps.audit.record({
        workspaceId,
        actor: signedInUser(res),
        action: "workspace.preview_url_changed",
      });
    }
    res.json(toWorkspace(workspace, roleInPath(res), requestOrigin(res)));
  };

  const createPreviewLink: AdminHandler<"createPreviewLink"> = async (req, res) => {
    const { workspaceId, blogId } = req.params;
    const [workspace, blog] = await Promise.all([
      deps.workspaces.byId(workspaceId),
      deps.blogs.get(workspaceId, blogId),
    ]);
    const template = workspace?.previewUrl ?? null;
    if (template === null) throw conflict(NO_PREVIEW_URL_MESSAGE);
    const { token, expiresAt } = await deps.tokens.mint(workspaceId, blog._id);
    const url = fillPreviewUrl(template, {
      token,
      slug: previewDocOf(blog).slug,
      blogId: blog._id,
    });
    // The URL carries a credential for unpublished text: no cache may keep this answer.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json({ url, expiresAt: expiresAt.toISOString() });
  };

  return { setPreviewUrl, createPreviewLink };
}

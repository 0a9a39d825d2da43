import type { RequestHandler } from "express";
import type { BodyRenderer } from "../blogs/render-pool.js";
import { signedInUser } from "./guards.js";

/**
 * Refuses a blog's create or preview at once, before its body (up to BLOG_BODY_LIMIT_BYTES) is
 * read and parsed, when its workspace — or, for a preview, the person asking — is already at its
 * render limit (README, "Fair sharing between tenants"): the 503 the render itself would answer
 * after the parse. A workspace flooding slow bodies then costs the request thread that serves
 * everyone else a lookup per refused request instead of parsing and validating 200,000
 * characters. What is let through is admitted again by the render (the state may have changed).
 * An update is not refused here: it may not change the body at all. After `requireMember`.
 */
export function renderAdmission(
  renderer: Pick<BodyRenderer, "admit">,
  kind: "save" | "preview",
): RequestHandler<{ workspaceId: string }> {
  return (req, res, next) => {
    renderer.admit({
      workspaceId: req.params.workspaceId,
      ...(kind === "preview" ? { previewBy: signedInUser(res) } : {}),
    });
    next();
  };
}

import type { BlogAuthors } from "../blogs/blog-authors.js";
import { toBlog } from "../blogs/blog-view.js";
import { gone } from "../platform/domain-error.js";
import type { ConsumerHandler } from "../platform/http/consumer-types.js";
import type { BodyLimit } from "../platform/http/json-body.js";
import type { PreviewReads } from "../preview/preview-reads.js";
import { PREVIEW_TOKEN_MESSAGE, type PreviewTokens } from "../preview/preview-tokens.js";
import { requestWorkspace } from "./authenticate.js";

/** The consumer API takes small bodies only: a token is a few hundred bytes. */
export const PREVIEW_EXCHANGE_BODY_LIMIT: BodyLimit = {
  bytes: 4096,
  setting: "fixed for this operation",
};

/**
 * exchangePreviewToken (openapi.yaml): a preview link's token, sent by the site's server with
 * its live key, for the one blog it grants, in the preview perspective, as it is now. The token
 * travels in the body (never in a URL this server logs); every refusal has one message.
 */
export function exchangePreviewToken(
  tokens: PreviewTokens,
  reads: PreviewReads,
  authors: BlogAuthors,
): ConsumerHandler<"exchangePreviewToken"> {
  return async (req, res) => {
    const workspaceId = requestWorkspace(res);
    const grant = await tokens.open(req.body.token, workspaceId);
    const doc = await reads.get(workspaceId, { id: grant.blogId });
    // Removed since the link was made: as good as expired.
    if (doc === null) throw gone(PREVIEW_TOKEN_MESSAGE);
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Pressroom-Perspective", "preview");
    res.json(toBlog(doc, await authors.join(workspaceId, [doc])));
  };
}

import type { Collections } from "../platform/db/collections.js";
import { gone, invalid } from "../platform/domain-error.js";
import { tokenSigner } from "../platform/signed-token.js";

const KEY_MARKER = "preview-token-key";
const MAC_CONTEXT = "pressroom.preview.v1.";
/** admin.yaml `createPreviewLink`: one hour. */
export const PREVIEW_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/** One message for every refusal (openapi.yaml `exchangePreviewToken`): it tells nothing. */
export const PREVIEW_TOKEN_MESSAGE =
  "This preview link is not valid or has expired. Open the preview again from the editor.";

/** What a preview token grants: reading one blog of one workspace until `expiresAt`. */
export interface PreviewGrant {
  readonly workspaceId: string;
  readonly blogId: string;
  readonly expiresAt: Date;
}

/**
 * Preview links' tokens (openapi.yaml, "Preview"): signed tokens (platform/signed-token.ts) whose
 * body is `[1, workspace, blog, expiry]`. Nothing is stored per token: a token is good until it
 * expires, for that one blog, and says nothing a reader of the URL could use elsewhere.
 */
export interface PreviewTokens {
  mint(workspaceId: string, blogId: string): Promise<{ token: string; expiresAt: Date }>;
  /**
   * The grant of a token of `workspaceId`: "invalid" (400) for anything that is not one —
   * edited, forged, cut, another workspace's; "gone" (410) once it has expired. One message.
   */
  open(token: string, workspaceId: string): Promise<PreviewGrant>;
}

export function previewTokens(
  { markers }: Pick<Collections, "markers">,
  options: { now?: () => number; lifetimeMs?: number } = {},
): PreviewTokens {
  const signer = tokenSigner({ markers }, KEY_MARKER, MAC_CONTEXT);
  const now = options.now ?? Date.now;
  const lifetimeMs = options.lifetimeMs ?? PREVIEW_TOKEN_LIFETIME_MS;

  return {
    async mint(workspaceId, blogId) {
      const expiresAt = new Date(now() + lifetimeMs);
      const token = await signer.sign([1, workspaceId, blogId, expiresAt.getTime()]);
      return { token, expiresAt };
    },

    async open(token, workspaceId) {
      const grant = parseBody(await signer.open(token));
      if (grant === null || grant.workspaceId !== workspaceId) throw invalid(PREVIEW_TOKEN_MESSAGE);
      if (grant.expiresAt.getTime() <= now()) throw gone(PREVIEW_TOKEN_MESSAGE);
      return grant;
    },
  };
}

/** A signed body is ours, but is still checked field by field. */
function parseBody(body: unknown): PreviewGrant | null {
  if (!Array.isArray(body) || body.length !== 4) return null;
  const [version, workspaceId, blogId, expiresAt] = body as unknown[];
  if (
    version !== 1 ||
    typeof workspaceId !== "string" ||
    typeof blogId !== "string" ||
    typeof expiresAt !== "number" ||
    !Number.isSafeInteger(expiresAt)
  ) {
    return null;
  }
  return { workspaceId, blogId, expiresAt: new Date(expiresAt) };
}

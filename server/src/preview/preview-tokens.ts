import { createHmac, timingSafeEqual } from "node:crypto";
import type { Collections } from "../platform/db/collections.js";
import { databaseSecret } from "../platform/db/database-secret.js";
import { gone, invalid } from "../platform/domain-error.js";

const KEY_MARKER = "preview-token-key";
const MAC_BYTES = 16;
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
 * Preview links' tokens (openapi.yaml, "Preview"): `base64url(JSON [1, workspace, blog, expiry])
 * "." base64url(HMAC-SHA256)`, the MAC cut to 128 bits, with a random key made once per database
 * (so every instance signs and checks alike). Nothing is stored per token: a token is good until
 * it expires, for that one blog, and says nothing a reader of the URL could use elsewhere.
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
  const loadKey = databaseSecret({ markers }, KEY_MARKER);
  const now = options.now ?? Date.now;
  const lifetimeMs = options.lifetimeMs ?? PREVIEW_TOKEN_LIFETIME_MS;
  const mac = (secret: Buffer, payload: string): Buffer =>
    createHmac("sha256", secret)
      .update(MAC_CONTEXT + payload)
      .digest()
      .subarray(0, MAC_BYTES);

  return {
    async mint(workspaceId, blogId) {
      const expiresAt = new Date(now() + lifetimeMs);
      const body = [1, workspaceId, blogId, expiresAt.getTime()];
      const payload = Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
      const token = `${payload}.${mac(await loadKey(), payload).toString("base64url")}`;
      return { token, expiresAt };
    },

    async open(token, workspaceId) {
      const [payload = "", signature = "", ...rest] = token.split(".");
      const given = Buffer.from(signature, "base64url");
      const expected = mac(await loadKey(), payload);
      if (
        rest.length > 0 ||
        given.length !== MAC_BYTES ||
        given.toString("base64url") !== signature ||
        !timingSafeEqual(given, expected)
      ) {
        throw invalid(PREVIEW_TOKEN_MESSAGE);
      }
      const grant = parsePayload(payload);
      if (grant === null || grant.workspaceId !== workspaceId) throw invalid(PREVIEW_TOKEN_MESSAGE);
      if (grant.expiresAt.getTime() <= now()) throw gone(PREVIEW_TOKEN_MESSAGE);
      return grant;
    },
  };
}

/** A signed payload is ours, but is still checked field by field. */
function parsePayload(payload: string): PreviewGrant | null {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
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

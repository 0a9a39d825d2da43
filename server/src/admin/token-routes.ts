import type { components } from "../../../openapi/generated/admin.js";
import type { AccessTokenDoc } from "../platform/db/collections.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { AccessTokensStore } from "../tokens/access-tokens-store.js";
import { signedInUser } from "./guards.js";

type AccessToken = components["schemas"]["AccessToken"];
type Scope = components["schemas"]["AccessTokenScope"];

const toAccessToken = (doc: AccessTokenDoc): AccessToken => ({
  id: doc.tokenId,
  name: doc.name,
  prefix: doc.prefix,
  scopes: doc.scopes as Scope[],
  createdAt: doc.createdAt.toISOString(),
  expiresAt: doc.expiresAt.toISOString(),
  lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
});

/**
 * One's own access tokens (admin.yaml, listAccessTokens, createAccessToken, revokeAccessToken):
 * a session's only, which `requireTokenScope` keeps (they name no AccessToken scope). The
 * secret is answered once, by create.
 */
export function tokenHandlers(tokens: AccessTokensStore) {
  const listAccessTokens: AdminHandler<"listAccessTokens"> = async (_req, res) => {
    res.json({ data: (await tokens.list(signedInUser(res))).map(toAccessToken) });
  };

  const createAccessToken: AdminHandler<"createAccessToken"> = async (req, res) => {
    const { doc, secret } = await tokens.create(signedInUser(res), {
      name: req.body.name,
      scopes: req.body.scopes,
      expiresAt: new Date(req.body.expiresAt),
    });
    res.status(201).json({ token: toAccessToken(doc), secret });
  };

  const revokeAccessToken: AdminHandler<"revokeAccessToken"> = async (req, res) => {
    await tokens.revoke(signedInUser(res), req.params.tokenId);
    res.status(204).end();
  };

  return { listAccessTokens, createAccessToken, revokeAccessToken };
}

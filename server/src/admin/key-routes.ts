import type { AdminHandler, ApiKey } from "../admin-api-types.js";
import type { ApiKeyDoc } from "../db/collections.js";
import { actorIdsOf, toApiKey } from "../keys/key-view.js";
import type { KeysStore } from "../keys/keys-store.js";
import type { UsersStore } from "../users/users-store.js";
import { signedInUser } from "./guards.js";

/** API keys of a workspace, with who minted and revoked them. */
export function keyHandlers(keys: KeysStore, users: Pick<UsersStore, "namesOf">) {
  const views = async (docs: ApiKeyDoc[]): Promise<ApiKey[]> => {
    const people = await users.namesOf(actorIdsOf(docs));
    return docs.map((doc) => toApiKey(doc, people));
  };
  const view = async (doc: ApiKeyDoc): Promise<ApiKey> =>
    toApiKey(doc, await users.namesOf(actorIdsOf([doc])));

  const listKeys: AdminHandler<"listKeys"> = async (req, res) => {
    res.json({ data: await views(await keys.list(req.params.workspaceId)) });
  };

  const mintKey: AdminHandler<"mintKey"> = async (req, res) => {
    const minted = await keys.mint(req.params.workspaceId, req.body.name, signedInUser(res));
    const key = await view(minted.doc);
    // The raw key leaves the server here, once; the response must not be stored by anyone.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json({ key, secret: minted.key });
  };

  const revokeKey: AdminHandler<"revokeKey"> = async (req, res) => {
    const revoked = await keys.revoke(req.params.workspaceId, req.params.keyId, signedInUser(res));
    res.json(await view(revoked));
  };

  return { listKeys, mintKey, revokeKey };
}

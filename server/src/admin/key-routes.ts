import type { KeyRoller } from "../keys/key-roll.js";
import { actorIdsOf, keyStatusAt, toApiKey } from "../keys/key-view.js";
import type { KeysStore, MintedApiKey } from "../keys/keys-store.js";
import type { ApiKeyDoc } from "../platform/db/collections.js";
import type { AdminHandler, ApiKey } from "../platform/http/admin-types.js";
import type { UsersStore } from "../users/users-store.js";
import { mustBeOwner } from "../workspaces/workspace-rules.js";
import { roleInPath, signedInUser } from "./guards.js";

/** `listKeys`'s `status` values → the `ApiKey` status each keeps. */
const STATUS_FILTER = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

/** API keys of a workspace, with who minted and revoked them. */
export function keyHandlers(keys: KeysStore, roll: KeyRoller, users: Pick<UsersStore, "namesOf">) {
  const views = async (docs: ApiKeyDoc[]): Promise<ApiKey[]> => {
    const people = await users.namesOf(actorIdsOf(docs));
    const now = keys.now();
    return docs.map((doc) => toApiKey(doc, people, now));
  };
  const view = async (doc: ApiKeyDoc): Promise<ApiKey> =>
    toApiKey(doc, await users.namesOf(actorIdsOf([doc])), keys.now());
  const minted = async (m: MintedApiKey) => ({ key: await view(m.doc), secret: m.key });

  const listKeys: AdminHandler<"listKeys"> = async (req, res) => {
    let docs = await keys.list(req.params.workspaceId);
    const wanted = req.query.status === undefined ? null : STATUS_FILTER[req.query.status];
    if (wanted !== null) {
      const now = keys.now();
      docs = docs.filter((doc) => keyStatusAt(doc, now) === wanted);
    }
    res.json({ data: await views(docs) });
  };

  const mintKey: AdminHandler<"mintKey"> = async (req, res) => {
    const { name, expiresAt, kind = "live" } = req.body;
    // Preview keys read unpublished text: only the owner hands them out (admin.yaml, mintKey).
    if (kind === "preview") mustBeOwner(roleInPath(res));
    const m = await keys.mint(req.params.workspaceId, name, signedInUser(res), {
      expiresAt: expiresAt == null ? null : new Date(expiresAt),
      kind,
    });
    // The raw key leaves the server here, once; the response must not be stored by anyone.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json(await minted(m));
  };

  const rollKey: AdminHandler<"rollKey"> = async (req, res) => {
    const { workspaceId, keyId } = req.params;
    // A roll mints a key of the same kind: a preview key's, like its mint, is the owner's.
    if (roleInPath(res) !== "owner" && (await keys.find(workspaceId, keyId)).kind === "preview") {
      mustBeOwner(roleInPath(res));
    }
    const successor = await roll(
      workspaceId,
      keyId,
      req.body.gracePeriodSeconds,
      signedInUser(res),
    );
    // The successor's raw key leaves the server here, once, as a mint's does.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json(await minted(successor));
  };

  const revokeKey: AdminHandler<"revokeKey"> = async (req, res) => {
    const revoked = await keys.revoke(req.params.workspaceId, req.params.keyId, signedInUser(res));
    res.json(await view(revoked));
  };

  /** Owner only (the router's guard): a key's own limit, or null for the workspace's default. */
  const updateKey: AdminHandler<"updateKey"> = async (req, res) => {
    const { workspaceId, keyId } = req.params;
    const doc = await keys.setRateLimit(
      workspaceId,
      keyId,
      req.body.rateLimit ?? null,
      signedInUser(res),
    );
    res.json(await view(doc));
  };

  return { listKeys, mintKey, rollKey, revokeKey, updateKey };
}

import type { RequestHandler } from "express";
import type { KeySummary, KeysStore } from "../keys/keys-store.js";
import type { UsersStore } from "../users/users-store.js";
import type { ApiKeyView, MintedKey } from "./admin-types.js";
import { signedInUser } from "./guards.js";

type WorkspaceParams = { workspaceId: string };

/** API keys of a workspace, with who minted and revoked them. */
export function keyHandlers(keys: KeysStore, users: UsersStore) {
  const withActors = async (list: KeySummary[]): Promise<ApiKeyView[]> => {
    const people = await users.namesOf(
      list.flatMap((k) => [k.createdBy, k.revokedBy]).filter((id): id is string => id !== null),
    );
    const actor = (id: string | null) => {
      const user = id === null ? undefined : people.get(id);
      return user === undefined ? null : { id: user.id, name: user.name };
    };
    return list.map((k) => ({
      ...k,
      createdBy: actor(k.createdBy),
      revokedBy: actor(k.revokedBy),
    }));
  };

  const listKeys: RequestHandler<WorkspaceParams, { data: ApiKeyView[] }> = async (req, res) => {
    res.json({ data: await withActors(await keys.list(req.params.workspaceId)) });
  };

  const mintKey: RequestHandler<WorkspaceParams, MintedKey, { name: string }> = async (
    req,
    res,
  ) => {
    const minted = await keys.mint(req.params.workspaceId, req.body.name, signedInUser(res));
    const [key] = await withActors([minted.summary]);
    if (key === undefined) throw new Error("minted key vanished");
    // The raw key leaves the server here, once; the response must not be stored by anyone.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json({ key, secret: minted.key });
  };

  const revokeKey: RequestHandler<WorkspaceParams & { keyId: string }, ApiKeyView> = async (
    req,
    res,
  ) => {
    const revoked = await keys.revoke(req.params.workspaceId, req.params.keyId, signedInUser(res));
    const [key] = await withActors([revoked]);
    if (key === undefined) throw new Error("revoked key vanished");
    res.json(key);
  };

  return { listKeys, mintKey, revokeKey };
}

import type { AnyBulkWriteOperation } from "mongodb";
import type { ApiKeyDoc, Collections } from "../db/collections.js";
import { conflict, invalid, notFound } from "../domain-error.js";
import { newId } from "../ids.js";
import { generateKey } from "./key-format.js";

/** A key just minted: its stored document, and the raw key, returned here once and nowhere else. */
export interface MintedApiKey {
  /** The key's public id (`doc.keyId`). */
  id: string;
  /** The raw key: never stored. */
  key: string;
  doc: ApiKeyDoc;
}

/** Workspace API keys: mint, revoke, list, and the lookup that authenticates a request. */
export function keysStore({ apiKeys, workspaces }: Collections) {
  return {
    /** `actor`: the user minting it, or null for the operator CLI. */
    async mint(
      workspaceId: string,
      name: string,
      actor: string | null = null,
    ): Promise<MintedApiKey> {
      const trimmed = name.trim();
      if (trimmed === "" || trimmed.length > 100) {
        throw invalid("A key needs a name of 1 to 100 characters.");
      }
      if ((await workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
        throw notFound("Workspace not found.");
      }
      const minted = generateKey();
      const doc: ApiKeyDoc = {
        _id: minted.hash,
        keyId: newId("key"),
        workspaceId,
        name: trimmed,
        prefix: minted.prefix,
        status: "Active",
        createdAt: new Date(),
        createdBy: actor,
        revokedAt: null,
        revokedBy: null,
        lastUsedAt: null,
      };
      await apiKeys.insertOne(doc);
      return { id: doc.keyId, key: minted.raw, doc };
    },

    /** Immediate and final: a revoked key is never active again (see `findActive`). */
    async revoke(
      workspaceId: string,
      keyId: string,
      actor: string | null = null,
    ): Promise<ApiKeyDoc> {
      const doc = await apiKeys.findOne({ keyId, workspaceId });
      if (doc === null) throw notFound("Key not found.");
      if (doc.status === "Revoked") throw conflict("Key is already revoked.");
      const revokedAt = new Date();
      await apiKeys.updateOne(
        { _id: doc._id, status: "Active" },
        { $set: { status: "Revoked", revokedAt, revokedBy: actor } },
      );
      return { ...doc, status: "Revoked", revokedAt, revokedBy: actor };
    },

    /** A workspace's keys, oldest first, revoked ones included. */
    list(workspaceId: string): Promise<ApiKeyDoc[]> {
      return apiKeys.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
    },

    /**
     * The key a consumer request may use: the one with this hash, read by primary key, if it is
     * Active. Unknown and revoked keys alike are null, and the consumer API refuses the request
     * (consumer/authenticate.ts: 401). Read on every request, so a revocation counts at once,
     * and so does a change of the key's own rate limit (`rateLimit`, consumer/rate-limit.ts).
     */
    async findActive(
      hash: string,
    ): Promise<Pick<ApiKeyDoc, "_id" | "keyId" | "workspaceId" | "prefix" | "rateLimit"> | null> {
      const doc = await apiKeys.findOne(
        { _id: hash },
        { projection: { _id: 1, keyId: 1, workspaceId: 1, prefix: 1, status: 1, rateLimit: 1 } },
      );
      return doc !== null && doc.status === "Active" ? doc : null;
    },

    /** One round trip for a batch of `lastUsedAt` values; `$max` never moves a value back. */
    async recordLastUsed(entries: ReadonlyMap<string, Date>): Promise<void> {
      const ops: AnyBulkWriteOperation<ApiKeyDoc>[] = [];
      for (const [hash, at] of entries) {
        ops.push({ updateOne: { filter: { _id: hash }, update: { $max: { lastUsedAt: at } } } });
      }
      if (ops.length > 0) await apiKeys.bulkWrite(ops, { ordered: false });
    },
  };
}

export type KeysStore = ReturnType<typeof keysStore>;

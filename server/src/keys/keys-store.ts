import type { AnyBulkWriteOperation } from "mongodb";
import type { ApiKeyDoc, Collections } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import { newId } from "../ids.js";
import { generateKey } from "./key-format.js";

export interface KeySummary {
  id: string;
  name: string;
  prefix: string;
  status: ApiKeyDoc["status"];
  createdAt: string;
  /** User ids; null for the operator CLI. */
  createdBy: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
}

export interface MintResult {
  id: string;
  /** The raw key: returned here once and nowhere else. */
  key: string;
  prefix: string;
}

const toSummary = (doc: ApiKeyDoc): KeySummary => ({
  id: doc.keyId,
  name: doc.name,
  prefix: doc.prefix,
  status: doc.status,
  createdAt: doc.createdAt.toISOString(),
  createdBy: doc.createdBy ?? null,
  revokedAt: doc.revokedAt?.toISOString() ?? null,
  revokedBy: doc.revokedBy ?? null,
  lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
});

/** Workspace API keys: mint, revoke, list, and the lookup that authenticates a request. */
export function keysStore({ apiKeys, workspaces }: Collections) {
  return {
    /** `actor`: the user minting it, or null for the operator CLI. */
    async mint(
      workspaceId: string,
      name: string,
      actor: string | null = null,
    ): Promise<MintResult & { summary: KeySummary }> {
      const trimmed = name.trim();
      if (trimmed === "" || trimmed.length > 100) {
        throw new HttpError(400, "A key needs a name of 1 to 100 characters.");
      }
      if ((await workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
        throw new HttpError(404, "Workspace not found.");
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
      return { id: doc.keyId, key: minted.raw, prefix: minted.prefix, summary: toSummary(doc) };
    },

    /** Immediate and final: a revoked key is never active again. */
    async revoke(
      workspaceId: string,
      keyId: string,
      actor: string | null = null,
    ): Promise<KeySummary> {
      const doc = await apiKeys.findOne({ keyId, workspaceId });
      if (doc === null) throw new HttpError(404, "Key not found.");
      if (doc.status === "Revoked") throw new HttpError(409, "Key is already revoked.");
      const revokedAt = new Date();
      await apiKeys.updateOne(
        { _id: doc._id, status: "Active" },
        { $set: { status: "Revoked", revokedAt, revokedBy: actor } },
      );
      return toSummary({ ...doc, status: "Revoked", revokedAt, revokedBy: actor });
    },

    async list(workspaceId: string): Promise<KeySummary[]> {
      const docs = await apiKeys.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toSummary);
    },

    /** The active key with this hash, read by primary key; null for unknown or revoked keys. */
    async findActive(
      hash: string,
    ): Promise<Pick<ApiKeyDoc, "_id" | "workspaceId" | "prefix"> | null> {
      const doc = await apiKeys.findOne(
        { _id: hash },
        { projection: { _id: 1, workspaceId: 1, prefix: 1, status: 1 } },
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

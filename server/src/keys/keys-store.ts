import type { AnyBulkWriteOperation } from "mongodb";
import type { AuditLog } from "../audit/audit-log.js";
import { checkRateLimit } from "../limits/rate-limit-policy.js";
import type { ApiKeyDoc, Collections, RateLimitSetting } from "../platform/db/collections.js";
import { conflict, invalid, notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";
import { keyedQueue } from "../platform/timers/keyed-queue.js";
import { generateKey, type KeyKind } from "./key-format.js";
import { checkExpiry, MIN_KEY_LIFETIME_MS } from "./key-rules.js";
import { keyStatusAt } from "./key-view.js";

/** A key just minted: its stored document, and the raw key, returned here once and nowhere else. */
export interface MintedApiKey {
  /** The key's public id (`doc.keyId`). */
  id: string;
  /** The raw key: never stored. */
  key: string;
  doc: ApiKeyDoc;
}

export interface KeysStoreOptions {
  /** Where mints, revocations and limit changes are recorded (audit/audit-log.ts). */
  readonly audit: AuditLog;
  /** The clock, in epoch ms: what "expired" is judged by; tests pass their own. */
  readonly now?: () => number;
  /** Tests only: a shorter floor for `expiresAt` than the 60 s the API promises. */
  readonly minKeyLifetimeMs?: number;
}

/** What a new key's document holds besides its name (a roll's successor sets all of them). */
export interface NewKeySettings {
  readonly expiresAt?: Date | null;
  readonly rolledFrom?: string;
  readonly rateLimit?: RateLimitSetting | null;
  /** Default now; a roll passes the time its successor's expiry is counted from. */
  readonly createdAt?: Date;
  /** Default live; a roll passes its predecessor's. */
  readonly kind?: KeyKind;
}

/** What the consumer API reads of the key a request uses (`findActive`). */
export type ActiveKey = Pick<ApiKeyDoc, "_id" | "keyId" | "workspaceId" | "prefix" | "rateLimit">;

/** Workspace API keys: mint, revoke, list, limits, and the lookup that authenticates a request. */
export interface KeysStore {
  /** The store's clock now: what "expired" is judged by. */
  now(): Date;
  /** The workspace's key `keyId`, in any state; "not found" otherwise. */
  find(workspaceId: string, keyId: string): Promise<ApiKeyDoc>;
  /**
   * Inserts a new Active key (no audit entry: the caller writes the one that fits, as a roll
   * does; key-roll.ts).
   */
  insert(
    workspaceId: string,
    name: string,
    actor: string | null,
    settings: NewKeySettings,
  ): Promise<MintedApiKey>;
  /** Runs `work` after any revoke, roll or limit change of `keyId` under way here. */
  serially<T>(keyId: string, work: () => Promise<T>): Promise<T>;
  /** Removes a key that never left the server (a roll that lost its race). */
  discard(doc: ApiKeyDoc): Promise<void>;
  /** `actor`: the user minting it, or null for the operator CLI. `expiresAt`: null = never. */
  mint(
    workspaceId: string,
    name: string,
    actor?: string | null,
    settings?: { expiresAt?: Date | null; kind?: KeyKind },
  ): Promise<MintedApiKey>;
  /** Immediate and final: a revoked key is never active again (see `findActive`). */
  revoke(workspaceId: string, keyId: string, actor?: string | null): Promise<ApiKeyDoc>;
  /** A key's own rate limit; null returns it to the workspace's default. Not of a revoked key. */
  setRateLimit(
    workspaceId: string,
    keyId: string,
    rateLimit: RateLimitSetting | null,
    actor?: string | null,
  ): Promise<ApiKeyDoc>;
  /** A workspace's keys, oldest first, revoked and expired ones included. */
  list(workspaceId: string): Promise<ApiKeyDoc[]>;
  /**
   * The key a consumer request may use: the one with this hash, read by primary key, if it is
   * Active now — not revoked, not past its `expiresAt`. Unknown, revoked and expired keys alike
   * are null, and the consumer API refuses the request (consumer/authenticate.ts: 401). Read on
   * every request, so a revocation or an expiry counts at once, and so does a change of the
   * key's own rate limit (`rateLimit`, limits/consumer-rate-limit.ts).
   */
  findActive(hash: string): Promise<ActiveKey | null>;
  /** One round trip for a batch of `lastUsedAt` values; `$max` never moves a value back. */
  recordLastUsed(entries: ReadonlyMap<string, Date>): Promise<void>;
}

export function keysStore(
  { apiKeys, workspaces }: Collections,
  options: KeysStoreOptions,
): KeysStore {
  const { audit } = options;
  const clock = options.now ?? Date.now;
  const minLifetimeMs = options.minKeyLifetimeMs ?? MIN_KEY_LIFETIME_MS;
  // Revoke, roll and limit changes of one key run one at a time in this process: each reads the
  // key, writes, then records an audit entry from what it read, so two at once would record one
  // change twice (or a limit's "from" wrongly). The writes themselves are atomic on both databases.
  const oneAtATime = keyedQueue();

  const find = async (workspaceId: string, keyId: string): Promise<ApiKeyDoc> => {
    const doc = await apiKeys.findOne({ keyId, workspaceId });
    if (doc === null) throw notFound("Key not found.");
    return doc;
  };

  const insert = async (
    workspaceId: string,
    name: string,
    actor: string | null,
    settings: NewKeySettings,
  ): Promise<MintedApiKey> => {
    const kind = settings.kind ?? "live";
    const minted = generateKey(kind);
    const expiresAt = settings.expiresAt ?? null;
    const doc: ApiKeyDoc = {
      _id: minted.hash,
      keyId: newId("key"),
      workspaceId,
      name,
      prefix: minted.prefix,
      ...(kind === "live" ? {} : { kind }),
      status: "Active",
      createdAt: settings.createdAt ?? new Date(clock()),
      createdBy: actor,
      revokedAt: null,
      revokedBy: null,
      lastUsedAt: null,
      expiresAt,
      ...(expiresAt === null ? {} : { expiryLogged: false }),
      ...(settings.rolledFrom === undefined ? {} : { rolledFrom: settings.rolledFrom }),
      rateLimit: settings.rateLimit ?? null,
    };
    await apiKeys.insertOne(doc);
    return { id: doc.keyId, key: minted.raw, doc };
  };

  return {
    now: (): Date => new Date(clock()),
    find,
    insert,
    serially: <T>(keyId: string, work: () => Promise<T>): Promise<T> => oneAtATime(keyId, work),
    async discard(doc: ApiKeyDoc): Promise<void> {
      await apiKeys.deleteOne({ _id: doc._id });
    },

    async mint(
      workspaceId: string,
      name: string,
      actor: string | null = null,
      settings: { expiresAt?: Date | null; kind?: KeyKind } = {},
    ): Promise<MintedApiKey> {
      const trimmed = name.trim();
      if (trimmed === "" || trimmed.length > 100) {
        throw invalid("A key needs a name of 1 to 100 characters.");
      }
      const expiresAt = checkExpiry(settings.expiresAt ?? null, new Date(clock()), minLifetimeMs);
      if ((await workspaces.countDocuments({ _id: workspaceId }, { limit: 1 })) === 0) {
        throw notFound("Workspace not found.");
      }
      const minted = await insert(workspaceId, trimmed, actor, {
        expiresAt,
        ...(settings.kind === undefined ? {} : { kind: settings.kind }),
      });
      await audit.record({
        workspaceId,
        actor,
        action: "key.minted",
        keyId: minted.id,
        details: { expiresAt },
      });
      return minted;
    },

    async revoke(
      workspaceId: string,
      keyId: string,
      actor: string | null = null,
    ): Promise<ApiKeyDoc> {
      return oneAtATime(keyId, async () => {
        const doc = await find(workspaceId, keyId);
        if (doc.status === "Revoked") throw conflict("Key is already revoked.");
        const revokedAt = new Date(clock());
        await apiKeys.updateOne(
          { _id: doc._id, status: "Active" },
          { $set: { status: "Revoked", revokedAt, revokedBy: actor } },
        );
        await audit.record({ workspaceId, actor, action: "key.revoked", keyId, at: revokedAt });
        return { ...doc, status: "Revoked", revokedAt, revokedBy: actor };
      });
    },

    async setRateLimit(
      workspaceId: string,
      keyId: string,
      rateLimit: RateLimitSetting | null,
      actor: string | null = null,
    ): Promise<ApiKeyDoc> {
      const to = checkRateLimit(rateLimit);
      return oneAtATime(keyId, async () => {
        const doc = await find(workspaceId, keyId);
        if (doc.status === "Revoked") throw conflict("A revoked key's limit cannot be changed.");
        await apiKeys.updateOne({ _id: doc._id }, { $set: { rateLimit: to } });
        await audit.record({
          workspaceId,
          actor,
          action: "key.limit_changed",
          keyId,
          details: { from: doc.rateLimit ?? null, to },
        });
        return { ...doc, rateLimit: to };
      });
    },

    list(workspaceId: string): Promise<ApiKeyDoc[]> {
      return apiKeys.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
    },

    async findActive(hash: string): Promise<ActiveKey | null> {
      const doc = await apiKeys.findOne(
        { _id: hash },
        {
          projection: {
            _id: 1,
            keyId: 1,
            workspaceId: 1,
            prefix: 1,
            status: 1,
            expiresAt: 1,
            rateLimit: 1,
          },
        },
      );
      return doc !== null && keyStatusAt(doc, new Date(clock())) === "Active" ? doc : null;
    },

    async recordLastUsed(entries: ReadonlyMap<string, Date>): Promise<void> {
      const ops: AnyBulkWriteOperation<ApiKeyDoc>[] = [];
      for (const [hash, at] of entries) {
        ops.push({ updateOne: { filter: { _id: hash }, update: { $max: { lastUsedAt: at } } } });
      }
      if (ops.length > 0) await apiKeys.bulkWrite(ops, { ordered: false });
    },
  };
}

import { actingToken } from "../platform/acting-token.js";
import { keysetCursor, readTime } from "../platform/cursor.js";
import type {
  AuditAction,
  AuditDetailsDoc,
  AuditEntryDoc,
  Collections,
} from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { randomBase62 } from "../platform/ids.js";

/** The access token of the request being served, as an entry records it (acting-token.ts). */
const actingAs = (): AuditEntryDoc["token"] => {
  const token = actingToken();
  return token === undefined ? null : { id: token.id, name: token.name };
};

/** One thing that happened, as a caller reports it; `record` fills in the id and the time. */
export interface AuditRecord {
  readonly workspaceId: string;
  /** The user who did it; null for the operator's CLI and for the server itself. */
  readonly actor: string | null;
  readonly action: AuditAction;
  readonly keyId?: string;
  readonly details?: AuditDetailsDoc;
  /** When it happened; default now. */
  readonly at?: Date;
  /**
   * A deterministic id makes the entry idempotent (`${keyId}:expired`): recording it twice keeps
   * one. Default: a random one.
   */
  readonly id?: string;
}

/** What the other parts of the server call to leave a trace in a workspace's audit log. */
export interface AuditLog {
  record(entry: AuditRecord): Promise<void>;
}

/** An audit page's cursor: its last entry's time and id. */
export const auditCursor = keysetCursor({ value: readTime, idPattern: /^[A-Za-z0-9_:]{1,100}$/ });

export interface AuditPage {
  readonly entries: AuditEntryDoc[];
  readonly nextCursor: string | null;
}

/** A workspace's audit log: what is recorded, and its pages for the dashboard. */
export interface AuditStore extends AuditLog {
  /** Newest first; `cursor` is a page's `nextCursor`. */
  page(workspaceId: string, limit: number, cursor?: string): Promise<AuditPage>;
}

/**
 * The `audit` collection: entries are only ever inserted (never updated), so they need no
 * transaction; a page is one index range of `{workspaceId, at desc, _id desc}` (keyset, no skip).
 */
export function auditLog({ audit }: Collections, now: () => number = Date.now): AuditStore {
  return {
    async record(entry: AuditRecord): Promise<void> {
      const doc: AuditEntryDoc = {
        _id: entry.id ?? `aud_${randomBase62(16)}`,
        workspaceId: entry.workspaceId,
        at: entry.at ?? new Date(now()),
        actor: entry.actor,
        action: entry.action,
        keyId: entry.keyId ?? null,
        details: entry.details ?? {},
        token: actingAs(),
      };
      try {
        await audit.insertOne(doc);
      } catch (err) {
        // An idempotent entry recorded already (by another instance's sweep, or a retry).
        if (entry.id === undefined || !isDuplicateKey(err)) throw err;
      }
    },

    async page(workspaceId: string, limit: number, cursor?: string): Promise<AuditPage> {
      const after = cursor === undefined ? null : auditCursor.decode(cursor);
      const filter =
        after === null
          ? { workspaceId }
          : {
              workspaceId,
              $or: [{ at: { $lt: after.value } }, { at: after.value, _id: { $lt: after.id } }],
            };
      const docs = await audit
        .find(filter)
        .sort({ at: -1, _id: -1 })
        .limit(limit + 1)
        .toArray();
      const entries = docs.slice(0, limit);
      const last = entries.at(-1);
      const nextCursor =
        docs.length > limit && last !== undefined
          ? auditCursor.encode({ value: last.at, id: last._id })
          : null;
      return { entries, nextCursor };
    },
  };
}

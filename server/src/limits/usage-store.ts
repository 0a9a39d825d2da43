import { type AnyBulkWriteOperation, MongoBulkWriteError } from "mongodb";
import { type Collections, type KeyUsageDoc, USAGE_OUTCOMES } from "../platform/db/collections.js";
import { isDuplicateWriteError } from "../platform/db/duplicate-key.js";
import {
  addCounts,
  bucketId,
  DAY_MS,
  floorTo,
  HOUR_MS,
  KEEP_DAYS_MS,
  KEEP_HOURS_MS,
  type UsageCounts,
  zeroCounts,
} from "./usage-buckets.js";
import type { UsageEntry } from "./usage-recorder.js";

/** One bucket of a usage answer. */
export interface UsageBucket extends UsageCounts {
  /** Start of the hour or day, epoch ms. */
  readonly start: number;
}

interface BucketWrite {
  readonly start: number;
  readonly expiresAt: number;
  readonly counts: UsageCounts;
}

/**
 * Stored usage (`keyUsage`): per key per hour (kept 48 h, plus the hour itself) and per day (kept
 * 90 days, plus the day itself), and per workspace per day.
 */
export interface UsageStore {
  /** One round trip for a flush; duplicate-key losers of a concurrent upsert retried once. */
  add(entries: readonly UsageEntry[]): Promise<void>;
  /** A key's (or workspace's) buckets of `unit` from `from` to `to` (aligned starts). */
  buckets(owner: string, unit: "h" | "d", from: number, to: number): Promise<UsageBucket[]>;
}

/**
 * Each bucket is a document whose `_id` orders its owner's buckets in time.
 *
 * Written by `$inc` upserts in one batch per flush (usage-recorder.ts). MongoDB applies each
 * atomically, so any number of instances may share a bucket; two instances upserting a new
 * bucket at once may meet a duplicate-key error, and the losing writes are retried once (then
 * they update the document the winner made). The embedded database applies each update
 * atomically too (server/embedded-db/README.md, "Single-document writes are atomic"), so the
 * same holds there.
 */
export function usageStore({ keyUsage }: Pick<Collections, "keyUsage">): UsageStore {
  const operations = (entries: readonly UsageEntry[]): AnyBulkWriteOperation<KeyUsageDoc>[] => {
    const writes = new Map<string, BucketWrite>();
    const add = (id: string, start: number, keepMs: number, counts: UsageCounts) => {
      let write = writes.get(id);
      if (write === undefined) {
        write = { start, expiresAt: start + keepMs, counts: zeroCounts() };
        writes.set(id, write);
      }
      addCounts(write.counts, counts);
    };
    for (const { keyId, workspaceId, hour, counts } of entries) {
      const day = floorTo(hour, DAY_MS);
      add(bucketId(keyId, "h", hour), hour, KEEP_HOURS_MS + HOUR_MS, counts);
      add(bucketId(keyId, "d", day), day, KEEP_DAYS_MS + DAY_MS, counts);
      add(bucketId(workspaceId, "d", day), day, KEEP_DAYS_MS + DAY_MS, counts);
    }
    return [...writes].map(([_id, { start, expiresAt, counts }]) => ({
      updateOne: {
        filter: { _id },
        update: {
          $inc: counts,
          $setOnInsert: { start: new Date(start), expiresAt: new Date(expiresAt) },
        },
        upsert: true,
      },
    }));
  };

  const range = async (owner: string, unit: "h" | "d", from: number, to: number) => {
    const docs = await keyUsage
      .find({ _id: { $gte: bucketId(owner, unit, from), $lt: bucketId(owner, unit, to) } })
      .sort({ _id: 1 })
      .toArray();
    return new Map(docs.map((doc) => [doc.start.getTime(), doc]));
  };

  /** Buckets `from`, `from + step`, … before `to`, zero where nothing was counted. */
  const filled = (
    stored: ReadonlyMap<number, KeyUsageDoc>,
    from: number,
    to: number,
    stepMs: number,
  ): UsageBucket[] => {
    const buckets: UsageBucket[] = [];
    for (let start = from; start < to; start += stepMs) {
      const counts = zeroCounts();
      const doc = stored.get(start);
      if (doc !== undefined) for (const o of USAGE_OUTCOMES) counts[o] = doc[o] ?? 0;
      buckets.push({ start, ...counts });
    }
    return buckets;
  };

  return {
    async add(entries: readonly UsageEntry[]): Promise<void> {
      const ops = operations(entries);
      if (ops.length === 0) return;
      try {
        await keyUsage.bulkWrite(ops, { ordered: false });
      } catch (err) {
        const failed = err instanceof MongoBulkWriteError ? err.writeErrors : undefined;
        const list = failed === undefined ? [] : Array.isArray(failed) ? failed : [failed];
        if (list.length === 0 || !list.every(isDuplicateWriteError)) throw err;
        const again = list.flatMap((e) => {
          const op = ops[e.index];
          return op === undefined ? [] : [op];
        });
        await keyUsage.bulkWrite(again, { ordered: false });
      }
    },

    async buckets(
      owner: string,
      unit: "h" | "d",
      from: number,
      to: number,
    ): Promise<UsageBucket[]> {
      const stepMs = unit === "h" ? 3_600_000 : DAY_MS;
      return filled(await range(owner, unit, from, to), from, to, stepMs);
    },
  };
}

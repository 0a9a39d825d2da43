import type { Collection } from "mongodb";
import type { MarkerDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { randomBase62 } from "../platform/ids.js";

/**
 * How long a lease holds without being kept, in ms. A batch ahead takes well under a second;
 * a lease left by a process that died is taken again after this.
 */
export const AHEAD_LEASE_MS = 60_000;

/**
 * Which process records a workspace's marks ahead (change-recorder.ts), one at a time across
 * every process on the database (workers, instances): two recordings ahead would list the same
 * marks and record each blog twice.
 */
export interface AheadLeases {
  /** Takes the workspace's lease if no other process holds it; false if one does. */
  take(workspaceId: string): Promise<boolean>;
  /** Renews this process's lease; false if it lost it (it expired and another took it). */
  keep(workspaceId: string): Promise<boolean>;
  /** Gives this process's lease back. */
  give(workspaceId: string): Promise<void>;
}

/**
 * Leases as `markers` documents, `_id` = `name` + the workspace's id, `value` = the holder (a
 * random name of this process's leases) and `at` = when it lapses. Taking one is a single
 * upsert whose filter matches only a lapsed lease: an unexpired one makes the upsert insert
 * that `_id` again, which the unique `_id` refuses; so, each write being atomic on MongoDB and on
 * the embedded database, two processes never both take it.
 */
export function aheadLeases(
  markers: Collection<MarkerDoc>,
  name: string,
  now: () => number,
): AheadLeases {
  const holder = randomBase62(16);
  const idOf = (workspaceId: string) => `${name}${workspaceId}`;
  const until = () => new Date(now() + AHEAD_LEASE_MS);
  return {
    async take(workspaceId) {
      try {
        await markers.updateOne(
          { _id: idOf(workspaceId), at: { $lt: new Date(now()) } },
          { $set: { at: until(), value: holder } },
          { upsert: true },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async keep(workspaceId) {
      const kept = await markers.updateOne(
        { _id: idOf(workspaceId), value: holder },
        { $set: { at: until() } },
      );
      return kept.matchedCount === 1;
    },
    async give(workspaceId) {
      await markers.deleteOne({ _id: idOf(workspaceId), value: holder });
    },
  };
}

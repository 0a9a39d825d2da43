import { setTimeout as sleep } from "node:timers/promises";
import { MongoBulkWriteError } from "mongodb";
import type { ChangeEntryDoc, Collections } from "../platform/db/collections.js";
import { isDuplicateKey, isDuplicateWriteError } from "../platform/db/duplicate-key.js";

/** Digits of an entry's number in its `_id`: up to 10^15 − 1 entries per workspace. */
const SEQ_DIGITS = 15;
/** Inserts that lost their number to another writer in a row before giving up (a fault). */
const MAX_APPEND_ATTEMPTS = 20;

/**
 * A workspace's entries are the `_id`s `"<workspaceId>/<15 digits>"`: one range, in number order.
 * "/" sorts before every digit and "0" right after "/", so `[ws + "/", ws + "0")` holds exactly
 * this workspace's entries (workspace ids are letters, digits and "_").
 */
const entryId = (workspaceId: string, seq: number): string =>
  `${workspaceId}/${String(seq).padStart(SEQ_DIGITS, "0")}`;
const rangeOf = (workspaceId: string) => ({ $gt: `${workspaceId}/`, $lt: `${workspaceId}0` });
const seqOf = (entry: Pick<ChangeEntryDoc, "_id">): number =>
  Number(entry._id.slice(entry._id.lastIndexOf("/") + 1));

export interface ChangeEntry {
  readonly seq: number;
  readonly blogId: string;
  readonly at: Date;
}

/**
 * What an entry records: "blog `blogId` changed", and the version of the blog it was made for
 * when the recorder knows it (the live feed's recordings: the blog's `revision`). Entries made
 * without one (the preview feed's, an author's edit's, older ones) still name the blog.
 */
export interface ChangeOf {
  readonly blogId: string;
  readonly version?: string;
}

/** An entry as `entriesOf` reads it: its number, its blog and the version it recorded. */
export interface EntryOfBlog {
  readonly seq: number;
  readonly blogId: string;
  readonly version?: string;
}

/**
 * The changes feed's log: per workspace, entries numbered 1, 2, 3, … ("blog X changed"), across
 * any number of server instances. **Once a reader has seen `n` as the last number, no entry
 * numbered `n` or less can appear any more**, so a reader that has read every entry up to the
 * last number it saw has missed none; numbers never go back.
 */
export interface ChangeLog {
  /** The workspace's last entry number; 0 before its first. */
  last(workspaceId: string): Promise<number>;
  /**
   * Appends "blog `blogId` changed" for each of `changes`, in order, to the workspace's log and
   * returns the number of the last one (numbers between may be other writers').
   */
  appendMany(workspaceId: string, changes: readonly ChangeOf[]): Promise<number>;
  /** Entries numbered `after + 1` … `upTo`, in order, at most `limit`. */
  read(workspaceId: string, after: number, upTo: number, limit: number): Promise<ChangeEntry[]>;
  /**
   * Every entry of the workspace's log naming any of `blogIds` (index `changes_blog`), in no
   * given order: a blog's entries are the writes of it recorded within the retention.
   */
  entriesOf(workspaceId: string, blogIds: readonly string[]): Promise<EntryOfBlog[]>;
  /** Deletes the workspace's entries made before `cutoff`, except its last one. */
  purgeBefore(workspaceId: string, cutoff: Date): Promise<number>;
}

/**
 * Numbers are taken by insert alone: an entry is inserted as number `m + 1` only after `m` was
 * read as the workspace's last or inserted by the same ordered `insertMany` just before it
 * (an ordered insert stops at its first refused document), and `_id` is unique, so two writers
 * never share a number (the loser reads again and takes the next). Hence, without transactions,
 * every entry numbered ≤ n was inserted before `n` was: none can appear once `n` has been seen.
 * Deleting old entries (`purgeBefore`) keeps each workspace's last one, so numbers never go back.
 */
export function changeLog({ changes }: Pick<Collections, "changes">): ChangeLog {
  const last = async (workspaceId: string): Promise<number> => {
    const [entry] = await changes
      .find({ _id: rangeOf(workspaceId) }, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return entry === undefined ? 0 : seqOf(entry);
  };

  /**
   * Inserts `entries` in order and returns how many were inserted: all of them, or those before
   * the first whose number another writer holds.
   */
  const insertInOrder = async (entries: ChangeEntryDoc[]): Promise<number> => {
    try {
      await changes.insertMany(entries, { ordered: true });
      return entries.length;
    } catch (err) {
      const failed = err instanceof MongoBulkWriteError ? err.writeErrors : undefined;
      const first = Array.isArray(failed) ? failed[0] : failed;
      if (first !== undefined && isDuplicateWriteError(first)) return first.index;
      if (isDuplicateKey(err) && entries.length === 1) return 0;
      throw err;
    }
  };

  return {
    last,

    async appendMany(workspaceId: string, changes: readonly ChangeOf[]): Promise<number> {
      let previous = await last(workspaceId);
      let rest = changes;
      let losses = 0;
      while (rest.length > 0) {
        const at = new Date();
        const taken = await insertInOrder(
          rest.map(({ blogId, version }, i) => ({
            _id: entryId(workspaceId, previous + 1 + i),
            workspaceId,
            blogId,
            ...(version === undefined ? {} : { version }),
            at,
          })),
        );
        previous += taken;
        rest = rest.slice(taken);
        if (rest.length === 0) break;
        losses = taken > 0 ? 1 : losses + 1;
        if (losses >= MAX_APPEND_ATTEMPTS) {
          throw new Error(
            `changes feed: no entry number free after ${MAX_APPEND_ATTEMPTS} attempts`,
          );
        }
        // Another instance took the next number: wait a jittered, growing moment before reading
        // the last one again, so instances racing for one workspace stop colliding in step.
        await sleep(Math.random() * Math.min(100, 2 ** losses));
        previous = await last(workspaceId);
      }
      return previous;
    },

    async read(
      workspaceId: string,
      after: number,
      upTo: number,
      limit: number,
    ): Promise<ChangeEntry[]> {
      if (upTo <= after) return [];
      const docs = await changes
        .find({ _id: { $gt: entryId(workspaceId, after), $lte: entryId(workspaceId, upTo) } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((doc) => ({ seq: seqOf(doc), blogId: doc.blogId, at: doc.at }));
    },

    async entriesOf(workspaceId: string, blogIds: readonly string[]): Promise<EntryOfBlog[]> {
      if (blogIds.length === 0) return [];
      // By `blogId` and the workspace's field, not the `_id` range: on the embedded database a
      // range of `_id` beside the list would be searched instead of `changes_blog`.
      const docs = await changes
        .find(
          { blogId: { $in: [...blogIds] }, workspaceId },
          { projection: { _id: 1, blogId: 1, version: 1 } },
        )
        .toArray();
      return docs.map((doc) => ({
        seq: seqOf(doc),
        blogId: doc.blogId,
        ...(doc.version === undefined ? {} : { version: doc.version }),
      }));
    },

    async purgeBefore(workspaceId: string, cutoff: Date): Promise<number> {
      const lastSeq = await last(workspaceId);
      if (lastSeq === 0) return 0;
      const { deletedCount } = await changes.deleteMany({
        _id: { $gt: `${workspaceId}/`, $lt: entryId(workspaceId, lastSeq) },
        at: { $lt: cutoff },
      });
      return deletedCount;
    },
  };
}

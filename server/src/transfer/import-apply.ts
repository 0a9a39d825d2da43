/**
 * Carries out an import plan (import-plan.ts): inserts the new blogs, updates the changed ones
 * (the source wins), writes nothing for the unchanged. Each write is a blog write like any other
 * (blog-writes.ts): rendered body, a new revision, `feedPending` and the webhook event in the
 * blog's outbox when the blog is or was released — but with the source's timestamps. The event's
 * time is the import's (`now`), not the source's: it is when the change reaches consumers, and the
 * relay sends an event only to endpoints that existed at its time (endpoints-store.ts).
 *
 * There are no transactions: a database error or a crash midway leaves the blogs written so far.
 * Every write is keyed by the blog's derived id and every entry compared first, so running the
 * same import again completes it and changes nothing already done. Meanwhile a marker per run
 * (`markers`, `_id: import:<workspace id>:<run>`, `value`: the source) says an import of the
 * workspace did not finish (or is still running); a run that finishes deletes its own and those
 * of earlier runs of the same source.
 */

import { MongoBulkWriteError } from "mongodb";
import { checkAuthorFields, newAuthorDoc } from "../authors/author-rules.js";
import { newRevision, slugTaken, stagedFilter, versionFilter } from "../blogs/blog-rules.js";
import { dueOf, importedSchedule, scheduleFilter } from "../blogs/blog-schedule.js";
import { stagedId } from "../blogs/blog-staging.js";
import { previewMarked } from "../blogs/preview-mark.js";
import { searchFieldsOf } from "../blogs/search-terms.js";
import type { BlogDoc, Collections } from "../platform/db/collections.js";
import { isDuplicateKey, isDuplicateWriteError } from "../platform/db/duplicate-key.js";
import { conflict } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import { outboxPart, updateWithEvent } from "../webhooks/blog-events.js";
import {
  authorIdsFor,
  type ImportedFields,
  type ImportPlan,
  type PlanEntry,
  type PlannedAuthor,
  unchanged,
} from "./import-plan.js";
import type { OnProgress } from "./import-set.js";

/** Blogs inserted per insertMany. */
const INSERT_BATCH = 500;
/** Updates of one blog lost to another writer in a row before the import gives up on it. */
const MAX_UPDATE_ATTEMPTS = 5;

/**
 * The markers of `workspaceId`'s runs, `import:<workspace id>:<run>`: the ids from
 * `import:<id>:` up to `import:<id>;` (";" follows ":"), a range that an index answers on
 * MongoDB and on the embedded database alike (a `$regex` reads the whole collection there).
 */
const markersOf = (workspaceId: string) => ({
  $gte: `import:${workspaceId}:`,
  $lt: `import:${workspaceId};`,
});

export interface UnfinishedImport {
  readonly startedAt: Date;
  readonly source: string;
}

/** The oldest import into `workspaceId` that started and did not finish (or still runs), if any. */
export async function unfinishedImport(
  c: Pick<Collections, "markers">,
  workspaceId: string,
): Promise<UnfinishedImport | null> {
  const [marker] = await c.markers
    .find({ _id: markersOf(workspaceId) })
    .sort({ at: 1, _id: 1 })
    .limit(1)
    .toArray();
  return marker === undefined ? null : { startedAt: marker.at, source: marker.value ?? "" };
}

export interface ApplyResult {
  created: number;
  updated: number;
  unchanged: number;
  conflicts: number;
}

const visible = (before: BlogDoc["status"] | null, after: BlogDoc["status"]): boolean =>
  before === "released" || after === "released";

function newDoc(
  workspaceId: string,
  entry: PlanEntry,
  imported: ImportedFields,
  now: Date,
): BlogDoc {
  const { publishAt, ...fields } = imported;
  const schedule = importedSchedule(undefined, fields.status, publishAt);
  const doc: BlogDoc = {
    _id: entry.id,
    workspaceId,
    ...fields,
    ...searchFieldsOf(fields),
    ...(schedule === null ? {} : { schedule, dueAt: dueOf(schedule) }),
    revision: newRevision(),
    importKey: entry.blog.sourceKey,
    ...(visible(null, fields.status) ? { feedPending: true } : {}),
    ...previewMarked(),
  };
  const outbox = outboxPart(null, doc, now);
  if (outbox !== null) Object.assign(doc, outbox.set, { webhookOutbox: [outbox.event] });
  return doc;
}

/**
 * Creates the author `planned` (its source fields by the author rules, author-rules.ts); their
 * ID. Keyed by slug (index `workspace_author_slug`): one created meanwhile, by another run or an
 * editor, is used as it is, so running the import again creates nobody twice.
 */
async function createAuthor(
  c: Pick<Collections, "authors">,
  workspaceId: string,
  planned: Extract<PlannedAuthor, { action: "create" }>,
  now: Date,
): Promise<string> {
  const { bio, avatarUrl, websiteUrl } = planned.fields;
  const fields = checkAuthorFields({ name: planned.name, bio, avatarUrl, websiteUrl });
  const doc = newAuthorDoc(
    workspaceId,
    { ...fields, name: fields.name ?? planned.name },
    planned.slug,
    now,
  );
  try {
    await c.authors.insertOne(doc);
    return doc._id;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const stored = await c.authors.findOne({ workspaceId, slug: planned.slug });
    if (stored === null) throw err;
    return stored._id;
  }
}

/** Writes `plan`; `source` names it in the unfinished-import marker. */
export async function applyImport(
  c: Pick<Collections, "blogs" | "blogStaged" | "markers" | "authors">,
  plan: ImportPlan,
  options: { readonly source: string; readonly now: Date; readonly onProgress?: OnProgress },
): Promise<ApplyResult> {
  const { workspaceId } = plan;
  const progress = options.onProgress ?? (() => {});
  const result: ApplyResult = { created: 0, updated: 0, unchanged: 0, conflicts: 0 };
  const creates: PlanEntry[] = [];
  const updates: PlanEntry[] = [];
  for (const e of plan.entries) {
    if (e.action === "create") creates.push(e);
    else if (e.action === "update") updates.push(e);
    else if (e.action === "unchanged") result.unchanged++;
    else result.conflicts++;
  }
  // Done: this run's marker goes, and those of earlier runs of the same source it completed
  // (also when it had nothing left to write: an earlier run crashed after its last write).
  const finish = async (marker: string | null): Promise<ApplyResult> => {
    await c.markers.deleteMany({
      $or: [
        ...(marker === null ? [] : [{ _id: marker }]),
        { _id: markersOf(workspaceId), value: options.source, at: { $lte: options.now } },
      ],
    });
    return result;
  };
  // The authors first: a blog names them by ID. The workspace's are used as they are; the
  // missing ones are created (keyed by slug, so a rerun after a crash creates nobody twice).
  const idBySlug = new Map<string, string>();
  for (const author of plan.authors) {
    idBySlug.set(
      author.slug,
      author.action === "existing"
        ? author.id
        : await createAuthor(c, workspaceId, author, options.now),
    );
  }
  /** What an entry writes: the planned fields, and its authors by ID when it names any. */
  const fieldsOf = (entry: PlanEntry, creating: boolean): ImportedFields => {
    const fields = plannedFields(entry);
    const authorIds = authorIdsFor(entry.blog, idBySlug);
    if (authorIds === null) throw new Error(`Authors of ${entry.blog.origin} not created.`);
    if (authorIds !== undefined) return { ...fields, authorIds };
    return creating ? { ...fields, authorIds: [] } : fields;
  };
  const total = creates.length + updates.length;
  if (total === 0) return finish(null);
  // A marker of this run's own (an insert: exact with concurrent runs on any database).
  const marker = `import:${workspaceId}:${randomBase62(8)}`;
  await c.markers.insertOne({ _id: marker, at: options.now, value: options.source });
  let done = 0;

  /** Writes `fields` over the stored blog `id`, re-reading it after a lost race. */
  const update = async (entry: PlanEntry, imported: ImportedFields): Promise<void> => {
    const { publishAt, ...fields } = imported;
    let doc = entry.stored ?? null;
    for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
      doc ??= await c.blogs.findOne({ _id: entry.id, workspaceId });
      if (doc === null) throw conflict(`${entry.blog.origin}: blog ${entry.id} vanished.`);
      if (doc.status === "removed") {
        result.conflicts++;
        return;
      }
      const changes: Partial<BlogDoc> = {
        ...fields,
        ...searchFieldsOf(fields),
        revision: newRevision(),
        importKey: entry.blog.sourceKey,
        ...(visible(doc.status, fields.status) ? { feedPending: true } : {}),
        ...previewMarked(),
      };
      const write = updateWithEvent(doc, changes, options.now);
      // The imported content is the blog's now: pending changes made on what it replaces go
      // (admin.yaml, "Staged changes"), and with them their version, so no editor holding that
      // version can publish over the import.
      if (doc.staged !== undefined) write.update.$unset = { staged: "" };
      // The source's release time replaces the blog's (an unrelease set here kept if it fits).
      const schedule = importedSchedule(doc.schedule, fields.status, publishAt);
      if (schedule === null && doc.schedule !== undefined) {
        write.update.$unset = { ...write.update.$unset, schedule: "", dueAt: "" };
      } else if (schedule !== null) {
        write.update.$set = { ...write.update.$set, schedule, dueAt: dueOf(schedule) };
      }
      try {
        const { matchedCount } = await c.blogs.updateOne(
          {
            _id: doc._id,
            workspaceId,
            status: doc.status,
            ...versionFilter(doc),
            ...stagedFilter(doc),
            ...scheduleFilter(doc),
          },
          write.update,
        );
        if (matchedCount === 1) {
          result.updated++;
          // No blog names those pending changes now (blogs/blog-staging.ts).
          if (doc.staged !== undefined) {
            await c.blogStaged.deleteOne({ _id: stagedId(doc._id, doc.staged.revision) });
          }
          return;
        }
      } catch (err) {
        if (isDuplicateKey(err)) throw slugTaken(fields.slug);
        throw err;
      }
      doc = null;
    }
    throw conflict(`${entry.blog.origin}: blog ${entry.id} kept changing; run the import again.`);
  };

  for (let i = 0; i < creates.length; i += INSERT_BATCH) {
    const batch = creates.slice(i, i + INSERT_BATCH);
    const docs = batch.map((e) => newDoc(workspaceId, e, fieldsOf(e, true), options.now));
    const failed = await insertAll(c, docs);
    result.created += batch.length - failed.length;
    // Inserted meanwhile by another run of the same import (same derived id): an update now.
    for (const index of failed) {
      const entry = batch[index];
      if (entry === undefined) continue;
      const stored = await c.blogs.findOne({ _id: entry.id, workspaceId });
      if (stored === null) throw slugTaken(entry.blog.slug);
      if (unchanged(entry.blog, stored, authorIdsFor(entry.blog, idBySlug))) {
        result.unchanged++;
        continue;
      }
      await update({ ...entry, stored }, fieldsOf(entry, false));
    }
    done += batch.length;
    progress("importing", done, total);
  }
  for (const entry of updates) {
    await update(entry, fieldsOf(entry, false));
    done++;
    if (done % 100 === 0 || done === total) progress("importing", done, total);
  }
  return finish(marker);
}

function plannedFields(entry: PlanEntry): ImportedFields {
  if (entry.fields === undefined) throw new Error(`No fields planned for ${entry.blog.origin}.`);
  return entry.fields;
}

/** insertMany, unordered; the indexes of the documents refused as duplicates. */
async function insertAll(c: Pick<Collections, "blogs">, docs: BlogDoc[]): Promise<number[]> {
  try {
    await c.blogs.insertMany(docs, { ordered: false });
    return [];
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    if (!errors.every(isDuplicateWriteError)) throw err;
    return errors.map((e) => e.index);
  }
}

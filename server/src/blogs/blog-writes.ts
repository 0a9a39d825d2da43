// Longer than ~250 lines: its interface documents each write.

import type { Filter, MatchKeysAndValues, UpdateFilter } from "mongodb";
import type { AuditLog } from "../audit/audit-log.js";
import type {
  AuditAction,
  BlogDoc,
  BlogStatus,
  Collections,
  RevisionAction,
  StagedContent,
  StagedMarker,
} from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { conflict, DomainError, invalid, notFound } from "../platform/domain-error.js";
import { newId, randomBase62 } from "../platform/ids.js";
import { outboxPart, updateWithEvent } from "../webhooks/blog-events.js";
import type { BlogHistory } from "./blog-history.js";
import type { BlogReads } from "./blog-reads.js";
import {
  type BlogFields,
  checkSlug,
  content,
  type ExpectedVersion,
  type NewBlog,
  newRevision,
  presentationOf,
  StaleVersion,
  sameAuthors,
  samePresentation,
  slugTaken,
  stagedFilter,
  versionExpected,
  versionFilter,
} from "./blog-rules.js";
import { dueOf, type ScheduleInput, scheduleFilter, scheduleOf, without } from "./blog-schedule.js";
import type { BlogStaging, EditedBlog } from "./blog-staging.js";
import { altTextRefusal, requireAltText } from "./image-alt-rule.js";
import { type PreviewMarkOf, previewMarked } from "./preview-mark.js";
import { readingTimeOf } from "./reading-time.js";
import { excerptOf, type RenderedBody, slugify } from "./render.js";
import { type BodyRenderer, RenderRefused } from "./render-pool.js";
import { searchFieldsOf } from "./search-terms.js";
import { type BlogEdit, discardEdit, moveEdit, publishEdit, scheduledEdit } from "./state-edits.js";

/**
 * Blogs whose feed marks one update clears: one `$or` term each, which the embedded database
 * turns into SQL nested as deep as the list is long (SQLite refuses 1,000 levels).
 */
const CLEAR_CHUNK = 100;
/**
 * A state change or edit lost to another one this many times in a row gives up (conflict). A
 * write loses only to another write of the same blog that landed in between, so this many losses
 * take this many writers of one blog at once: more than a blog's editors and their double
 * clicks. (5 was too few once one process stopped queueing a blog's writes: six requests fired
 * at once at one blog by two workers could leave a removal losing to the five others, 409.)
 */
const MAX_WRITE_ATTEMPTS = 10;
/** Slugs tried for a blog whose slug comes from its title before giving up (409). */
const MAX_SLUG_ATTEMPTS = 20;

/** What moving a blog to each state is, in its history (a removal deletes its history). */
const STATE_ACTIONS: Record<BlogStatus, WriteAction> = {
  released: "released",
  draft: "unreleased",
  removed: "removed",
};

/**
 * What a write that applied was: a revision's action, the removal that ends a history, or a
 * change of the schedule (no revision: the content and state stay).
 */
type WriteAction =
  | RevisionAction
  | "removed"
  | "scheduled"
  | "schedule_cancelled"
  | "schedule_failed";

const REVISION_ACTIONS: ReadonlySet<WriteAction> = new Set<RevisionAction>([
  "created",
  "edited",
  "released",
  "unreleased",
  "published",
  "discarded",
  "restored",
]);
const isRevisionAction = (action: WriteAction): action is RevisionAction =>
  REVISION_ACTIONS.has(action);

/** The audit entry of each action that has one (saves and creates have none). */
const AUDITED: Partial<Record<WriteAction, AuditAction>> = {
  released: "blog.released",
  unreleased: "blog.unreleased",
  removed: "blog.removed",
  published: "blog.published",
  discarded: "blog.discarded",
  restored: "blog.restored",
  scheduled: "blog.scheduled",
  schedule_cancelled: "blog.schedule_cancelled",
  schedule_failed: "blog.schedule_failed",
};

/** Who did a write and what it was, for its revision and audit entry. */
interface WriteEntry {
  readonly action: WriteAction;
  readonly by: Actor | undefined;
  readonly restoredFrom?: string;
  /** The times of a schedule's audit entry. */
  readonly times?: { publishAt: Date | null; unreleaseAt: Date | null };
}

/** Whether content (pending changes, or a draft's edit) says the same as the blog `doc`. */
const sameAsLive = (doc: BlogDoc, staged: Omit<StagedContent, "revision" | "updatedAt">) =>
  staged.slug === doc.slug &&
  staged.title === doc.title &&
  staged.excerpt === doc.excerpt &&
  staged.bodyMarkdown === doc.bodyMarkdown &&
  staged.tags.join("\n") === doc.tags.join("\n") &&
  staged.authorName === doc.authorName &&
  staged.coverImageUrl === doc.coverImageUrl &&
  sameAuthors(staged, doc) &&
  samePresentation(presentationOf(staged), presentationOf(doc));

/**
 * The slug tried at `attempt` for a blog named `base` by its title: `base`, then `base-2` …
 * `base-9`, then `base-` and 6 random characters, so that many blogs of one title (an
 * "Untitled" per draft) still cost a few tries each, never one per blog before them.
 */
function slugCandidate(base: string, attempt: number): string {
  if (attempt === 1) return base;
  if (attempt < 10) return `${base}-${attempt}`;
  return `${base}-${randomBase62(6).toLowerCase()}`;
}

/**
 * Who writes a blog, for its revision and audit entry (blog-history.ts; a write that changed
 * nothing records neither): a user's id, or null (or omitted) for the operator's CLI.
 */
export type Actor = string | null;

/** Writing the blogs of a workspace: create, edit, change state, and preview a body. */
export interface BlogWrites {
  /**
   * A new blog, a draft or (`release`) released at once; its slug is `input.slug` ("conflict"
   * when taken) or one made from its title (`-2`, `-3`… when taken).
   */
  create(workspaceId: string, input: NewBlog, by?: Actor): Promise<BlogDoc>;
  /**
   * Edits content: a draft in place; a released blog's edit is staged (`BlogDoc.staged`), which
   * consumers, the feed and webhooks never see until `publish` (an edit back to the released
   * version drops the pending changes). An edit to what the blog says already changes nothing. A slug taken by another blog is "conflict". With
   * `expected`, only a blog at one of those versions is edited, else `StaleVersion`.
   */
  update(
    workspaceId: string,
    blogId: string,
    patch: Partial<BlogFields>,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * An edit that sets the blog's content to that of one of its revisions (blog-history.ts), as
   * `update` does, recorded as `restored`: a new revision on top. "not found" for a revision not
   * kept; content the blog has already changes nothing.
   */
  restore(
    workspaceId: string,
    blogId: string,
    revisionId: string,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * draft ⇄ released, and either → removed, which is final: a removed blog is never written
   * again (every later change or edit finds it "not found"). Setting the state a blog has
   * changes nothing. With `expected`, only a blog at one of those versions is changed, else
   * `StaleVersion` (also when it has that state already).
   */
  setStatus(
    workspaceId: string,
    blogId: string,
    status: BlogStatus,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * A released blog's pending changes become its released version in one update (consumers,
   * the feed and webhooks see one edit); nothing pending changes nothing. A slug another blog
   * took meanwhile is "conflict".
   */
  publish(
    workspaceId: string,
    blogId: string,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * Sets, moves or cancels what the server does to the blog by itself, and when (blog-schedule.ts:
   * a bad time is a 400 naming its field); the same times again change nothing. With `expected`,
   * only a blog at one of those versions is scheduled, else `StaleVersion`.
   */
  schedule(
    workspaceId: string,
    blogId: string,
    input: ScheduleInput,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * Does the blog's scheduled action due at `now`, the earliest (blog-scheduler.ts): an ordinary
   * release, publish or unrelease (state-edits.ts `scheduledEdit`) in the name of whoever set it,
   * with that time taken off the schedule in the same update, so it is done once however many
   * instances try. A publish whose pending slug another blog took meanwhile, or a release or
   * publish that would show a library image without alt text (image-alt-rule.ts), is not made:
   * the time goes, with a `blog.schedule_failed` entry. Nothing due: nothing changes.
   */
  fireSchedule(workspaceId: string, blogId: string, now: Date): Promise<EditedBlog>;
  /** Drops a released blog's pending changes; nothing pending changes nothing. */
  discard(
    workspaceId: string,
    blogId: string,
    expected?: ExpectedVersion,
    by?: Actor,
  ): Promise<EditedBlog>;
  /**
   * The changes feed has recorded these blogs as they were at these versions: clears each one's
   * `feedPending` mark, unless the blog was written since (then the mark stays, and the newer
   * write gets an entry of its own): a compare-and-set per blog, a hundred blogs per update.
   * Returns how many it cleared.
   */
  clearFeedPending(
    workspaceId: string,
    versions: readonly Pick<BlogDoc, "_id" | "updatedAt" | "revision">[],
  ): Promise<number>;
  /**
   * The preview changes feed has recorded these blogs at these marks: clears each one's
   * `previewPending`, unless the blog was written since (a new `previewMark`), as
   * `clearFeedPending` does for the live feed. Returns how many it cleared.
   */
  clearPreviewPending(workspaceId: string, marks: readonly PreviewMarkOf[]): Promise<number>;
  /**
   * The outbox relay has relayed the events each blog's outbox held at its version: empties it
   * and clears `webhookPending`, unless the blog was written since (a write that queued an event
   * also made a new revision; the events stay for the next round, whose relay of the ones
   * already relayed changes nothing). A compare-and-set per blog, a hundred per update, as
   * `clearFeedPending`. Returns how many it cleared.
   */
  clearWebhookOutboxes(
    workspaceId: string,
    versions: readonly Pick<BlogDoc, "_id" | "updatedAt" | "revision">[],
  ): Promise<number>;
  /**
   * What saving `bodyMarkdown` would store as `bodyHtml` (and derive as the excerpt), through
   * the same renderer and its limits (refused, or busy); nothing is stored. The editor's preview,
   * counted against the workspace's renders and `userId`'s previews.
   */
  preview(workspaceId: string, userId: string, bodyMarkdown: string): Promise<RenderedBody>;
}

/** What the blogs' writes are given (blogs-store.ts). */
export interface BlogWriteDeps {
  readonly renderer: BodyRenderer;
  /** A blog as it is now ("not found" when removed). */
  readonly find: BlogReads["get"];
  /** Told the blog a write queued a webhook event for (the relay's nudge); must not throw. */
  readonly onOutboxEvent?: (blogId: string) => void;
  /** Where state changes are recorded (`AUDITED`); none: not recorded. */
  readonly audit?: AuditLog;
  /** Where every write that applied keeps a revision. */
  readonly history: BlogHistory;
  /** Where the content of pending changes is kept (apart from the blog). */
  readonly staging: BlogStaging;
  /** Told the earliest time of a schedule just set (the scheduler's nudge); must not throw. */
  readonly onScheduled?: (at: Date) => void;
}

export function blogWrites(
  { blogs, workspaces, authors }: Pick<Collections, "blogs" | "workspaces" | "authors">,
  {
    renderer,
    find,
    onOutboxEvent = () => {},
    audit,
    history,
    staging,
    onScheduled = () => {},
  }: BlogWriteDeps,
): BlogWrites {
  /**
   * Sets `set` on each blog still flagged (`flag: true`) and still as read (`as`: its own
   * compare-and-set), CLEAR_CHUNK blogs per update; the `_id` list lets the database find a
   * chunk's blogs by index before it checks their versions. Returns how many it changed.
   */
  const clearEach = async <V extends { readonly _id: string }>(
    workspaceId: string,
    flag: "feedPending" | "previewPending" | "webhookPending",
    read: readonly V[],
    as: (version: V) => Filter<BlogDoc>,
    set: MatchKeysAndValues<BlogDoc>,
  ): Promise<number> => {
    let cleared = 0;
    for (let i = 0; i < read.length; i += CLEAR_CHUNK) {
      const chunk = read.slice(i, i + CLEAR_CHUNK);
      const { modifiedCount } = await blogs.updateMany(
        {
          workspaceId,
          [flag]: true,
          _id: { $in: chunk.map((version) => version._id) },
          $or: chunk.map((version) => ({ _id: version._id, ...as(version) })),
        },
        { $set: set },
      );
      cleared += modifiedCount;
    }
    return cleared;
  };

  /**
   * The author IDs a write names, each of the workspace's authors (admin.yaml, BlogAuthorIds):
   * a 400 naming the first that is not, or, for a restore (`dropMissing`), without those removed
   * since. An author removed after this check is left out at read (blog-authors.ts).
   */
  const checkedAuthors = async (
    workspaceId: string,
    ids: readonly string[],
    dropMissing: boolean,
  ): Promise<string[]> => {
    if (ids.length === 0) return [];
    const found = new Set(
      (
        await authors
          .find({ _id: { $in: [...ids] }, workspaceId }, { projection: { _id: 1 } })
          .toArray()
      ).map((author) => author._id),
    );
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined && !dropMissing) {
      throw invalid(`authors: the workspace has no author ${missing}.`);
    }
    return ids.filter((id) => found.has(id));
  };

  /**
   * The revision and audit entry of a write that applied, made after it (a crash in between
   * loses them, never the write); a removal deletes the blog's history instead.
   */
  const recorded = async (
    entry: WriteEntry,
    before: EditedBlog | null,
    after: EditedBlog,
    at: Date,
  ): Promise<EditedBlog> => {
    const by = entry.by ?? null;
    const auditAction = AUDITED[entry.action];
    // Independent of each other: sent together, so the writer waits for one round trip.
    await Promise.all([
      auditAction === undefined
        ? undefined
        : audit?.record({
            workspaceId: after.workspaceId,
            actor: by,
            action: auditAction,
            details: { blogId: after._id, blogTitle: after.title, ...entry.times },
          }),
      entry.action === "removed"
        ? Promise.all([
            history.forget(after.workspaceId, after._id),
            staging.forget(after.workspaceId, after._id),
          ])
        : isRevisionAction(entry.action)
          ? history.record({
              before,
              after,
              action: entry.action,
              by,
              at,
              ...(entry.restoredFrom === undefined ? {} : { restoredFrom: entry.restoredFrom }),
            })
          : undefined,
    ]);
    return after;
  };
  /**
   * Every write of an existing blog: read its current version ("not found" when removed),
   * derive the changes from it, and store them only if the blog still has the status and
   * revision that were read (compare-and-set; `updatedAt` stands in for the revision on blogs
   * stored before it). A lost race re-reads and derives again, so a removal in between ends in
   * "not found", never in a removed blog brought back; a conflict after `MAX_WRITE_ATTEMPTS`
   * lost races in a row. With `expected` (a conditional write), a version not in it is
   * `StaleVersion`, on the first read or after a lost race.
   */
  const writeVersion = async (
    workspaceId: string,
    blogId: string,
    expected: ExpectedVersion | undefined,
    change: (doc: EditedBlog) => BlogEdit | null,
    /**
     * What it is, for its revision and audit entry when it changed the blog; a function when the
     * change decides it (null: neither), asked after the write applied.
     */
    entry: WriteEntry | (() => WriteEntry | null),
  ): Promise<EditedBlog> => {
    // The filter is the compare-and-set: one atomic step on MongoDB and on the embedded database
    // alike (server/embedded-db/README.md, "Single-document writes are atomic"), so writes of one
    // blog need no turns, in one process or across instances.
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const doc = await find(workspaceId, blogId);
      const readAt = new Date();
      // Bad input is refused first (400, whatever version it names), then a conditional write
      // applies only to a version its caller named, even when it would change nothing. The
      // update below matches this very version, so a write landing in between makes it re-read
      // here and refuse: never re-derived onto a version its caller did not see.
      const edit = change(doc);
      if (!versionExpected(doc, expected)) throw new StaleVersion(doc);
      if (edit === null) return doc;
      const { staged, folded, schedule, ...live } = edit;
      const write = liveWrite(doc, live);
      if (folded !== undefined) {
        write.update.$set = { ...write.update.$set, ...folded };
        write.changes = { ...write.changes, ...folded };
      }
      if (staged === null) write.update.$unset = { staged: "" };
      else if (staged !== undefined) {
        // The new pending changes' content first: the blog names it only once it is there.
        await staging.put(workspaceId, blogId, staged);
        const marker: StagedMarker = { revision: staged.revision, updatedAt: staged.updatedAt };
        write.update.$set = { ...write.update.$set, staged: marker };
      }
      if (schedule === null) {
        write.update.$unset = { ...write.update.$unset, schedule: "", dueAt: "" };
      } else if (schedule !== undefined) {
        write.update.$set = { ...write.update.$set, schedule, dueAt: dueOf(schedule) };
      }
      // Every write changes the preview: its feed hears of it (preview-mark.ts).
      write.update.$set = { ...write.update.$set, ...previewMarked() };
      const { matchedCount } = await blogs.updateOne(
        {
          _id: blogId,
          workspaceId,
          status: doc.status,
          ...versionFilter(doc),
          ...stagedFilter(doc),
          ...scheduleFilter(doc),
        },
        write.update,
      );
      if (matchedCount !== 1) {
        // Lost: no blog names the content stored for this attempt.
        if (staged) await staging.drop(blogId, staged.revision);
        continue;
      }
      const { staged: _marker, pending: _content, schedule: _s, dueAt: _d, ...rest } = doc;
      const after: EditedBlog = { ...rest, ...write.changes };
      const scheduled = schedule === undefined ? doc.schedule : (schedule ?? undefined);
      if (scheduled !== undefined) {
        after.schedule = scheduled;
        after.dueAt = dueOf(scheduled);
      }
      if (staged) {
        after.staged = { revision: staged.revision, updatedAt: staged.updatedAt };
        after.pending = staged;
      } else if (staged === undefined && doc.staged !== undefined) {
        after.staged = doc.staged;
        if (doc.pending !== undefined) after.pending = doc.pending;
      }
      const made = typeof entry === "function" ? entry() : entry;
      try {
        const [result] = await Promise.all([
          made === null ? after : recorded(made, doc, after, readAt),
          // The pending changes the blog named before, if it names others (or none) now.
          staged !== undefined && doc.staged !== undefined
            ? staging.drop(blogId, doc.staged.revision)
            : undefined,
        ]);
        return result;
      } finally {
        // After the write's own records: the relay's reads and writes would otherwise queue
        // in front of them at the database, and the writer would wait for both.
        if (write.queued) onOutboxEvent(blogId);
      }
    }
    throw conflict(
      "The blog was changed by someone else at the same time; reload it and try again.",
    );
  };

  /**
   * The update of a write's live fields. Consumers of the changes feed hear of every write of a
   * blog that is released after it or was before it, and of no other: the mark goes in with the
   * change itself, and so does the webhook event, into the blog's outbox (webhooks/blog-events.ts).
   * A write of no live field (pending changes alone) is heard of by nobody.
   */
  const liveWrite = (doc: BlogDoc, live: Partial<BlogDoc>) => {
    if (Object.keys(live).length === 0) {
      return { update: {} as UpdateFilter<BlogDoc>, changes: {}, queued: false };
    }
    const visible = doc.status === "released" || (live.status ?? doc.status) === "released";
    return updateWithEvent(doc, visible ? { ...live, feedPending: true } : live);
  };

  /** Does `slug` belong to another blog of the workspace? (The unique index decides at last.) */
  const slugUsedElsewhere = async (workspaceId: string, blogId: string, slug: string) =>
    (await blogs.countDocuments({ workspaceId, slug, _id: { $ne: blogId } }, { limit: 1 })) > 0;

  /**
   * `update`'s edit, recorded as `entry` (a save, or a restore): a draft in place, a released
   * blog's staged.
   */
  const edit = async (
    workspaceId: string,
    blogId: string,
    patch: Partial<BlogFields>,
    expected: ExpectedVersion | undefined,
    entry: WriteEntry,
  ): Promise<EditedBlog> => {
    if (patch.authorIds !== undefined) {
      const dropMissing = entry.action === "restored";
      patch = {
        ...patch,
        authorIds: await checkedAuthors(workspaceId, patch.authorIds, dropMissing),
      };
    }
    // Rendered before the blog is read: a slow body holds no other writer of the blog back.
    const rendered =
      patch.bodyMarkdown === undefined
        ? null
        : await renderer.render(patch.bodyMarkdown, { workspaceId });
    const slug = patch.slug === undefined ? undefined : checkSlug(patch.slug);
    // A staged slug is not in the unique index until published: checked here first.
    if (slug !== undefined && (await slugUsedElsewhere(workspaceId, blogId, slug))) {
      throw slugTaken(slug);
    }
    try {
      return await writeVersion(
        workspaceId,
        blogId,
        expected,
        (doc): BlogEdit | null => {
          // The version the edit applies to: a released blog's pending changes, if any.
          const base = doc.pending ?? doc;
          const fields = content(
            {
              ...base,
              ...patch,
              // A new body without a new excerpt re-derives the excerpt.
              excerpt: patch.excerpt ?? (rendered === null ? base.excerpt : undefined),
            },
            // The body as stored; an emptied excerpt is derived from it again.
            rendered ?? {
              bodyHtml: base.bodyHtml,
              excerpt: excerptOf(base.bodyHtml),
              readingTimeMinutes: base.readingTimeMinutes ?? readingTimeOf(base.bodyHtml),
            },
          );
          const newSlug = slug ?? base.slug;
          const now = new Date();
          if (doc.status === "released") {
            const staged = { ...fields, slug: newSlug };
            if (sameAsLive(doc, staged)) return doc.staged === undefined ? null : { staged: null };
            return { staged: { ...staged, revision: newRevision(), updatedAt: now } };
          }
          // A draft saved as it is (a restore of what it says already) changes nothing.
          if (sameAsLive(doc, { ...fields, slug: newSlug })) return null;
          return {
            ...fields,
            slug: newSlug,
            // Always written with title, slug and tags, so they never disagree with them.
            ...searchFieldsOf({ ...fields, slug: newSlug }),
            updatedAt: now,
            revision: newRevision(),
          };
        },
        entry,
      );
    } catch (err) {
      if (isDuplicateKey(err)) throw slugTaken(slug ?? "");
      throw err;
    }
  };

  return {
    async create(workspaceId: string, input: NewBlog, by?: Actor): Promise<BlogDoc> {
      // Whether the workspace exists is read while the authors are checked and the body
      // renders, so the writer waits for one round trip less; its answer (or error) is taken
      // after theirs, in the order the checks had one after the other.
      const workspaceKnown = workspaces
        .countDocuments({ _id: workspaceId }, { limit: 1 })
        .then((count) => count > 0);
      workspaceKnown.catch(() => {}); // awaited below unless a check before it throws
      const authorIds = await checkedAuthors(workspaceId, input.authorIds ?? [], false);
      const fields = content(
        { ...input, authorIds },
        await renderer.render(input.bodyMarkdown, { workspaceId }),
      );
      if (!(await workspaceKnown)) throw notFound("Workspace not found.");
      const explicitSlug = input.slug !== undefined;
      const baseSlug = explicitSlug ? checkSlug(input.slug ?? "") : slugify(fields.title);
      const now = new Date();
      const release = input.release === true;
      if (release) requireAltText(fields);
      for (let attempt = 1; ; attempt++) {
        const slug = slugCandidate(baseSlug, attempt);
        const doc: BlogDoc = {
          _id: newId("b"),
          workspaceId,
          status: release ? "released" : "draft",
          slug,
          ...fields,
          ...searchFieldsOf({ ...fields, slug }),
          createdAt: now,
          updatedAt: now,
          releasedAt: release ? now : null,
          removedAt: null,
          revision: newRevision(),
          ...(release ? { feedPending: true } : {}),
          ...previewMarked(),
        };
        const outbox = outboxPart(null, doc, now);
        if (outbox !== null) Object.assign(doc, outbox.set, { webhookOutbox: [outbox.event] });
        try {
          await blogs.insertOne(doc);
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          if (explicitSlug) throw slugTaken(baseSlug);
          if (attempt >= MAX_SLUG_ATTEMPTS) {
            throw conflict(`No free slug was found for "${baseSlug}"; give the blog a slug.`);
          }
          continue;
        }
        try {
          await history.record({
            before: null,
            after: doc,
            action: "created",
            by: by ?? null,
            at: now,
          });
        } finally {
          // After its revision, as in `writeVersion`.
          if (outbox !== null) onOutboxEvent(doc._id);
        }
        return doc;
      }
    },

    update: (workspaceId, blogId, patch, expected, by) =>
      edit(workspaceId, blogId, patch, expected, { action: "edited", by }),

    async restore(workspaceId, blogId, revisionId, expected, by) {
      // The blog first: a removed one is "not found" as a blog, whatever its revisions.
      await find(workspaceId, blogId);
      const { content: restored } = await history.get(workspaceId, blogId, revisionId);
      return edit(workspaceId, blogId, restored, expected, {
        action: "restored",
        by,
        restoredFrom: revisionId,
      });
    },

    async setStatus(
      workspaceId: string,
      blogId: string,
      status: BlogStatus,
      expected?: ExpectedVersion,
      by?: Actor,
    ): Promise<EditedBlog> {
      const action = STATE_ACTIONS[status];
      const move = (keepLiveSlug: boolean) =>
        writeVersion(
          workspaceId,
          blogId,
          expected,
          (doc) => {
            if (status === "released" && doc.status !== "released") requireAltText(doc);
            return moveEdit(doc, status, new Date(), keepLiveSlug);
          },
          { action, by },
        );
      try {
        return await move(false);
      } catch (err) {
        // The pending slug was taken by another blog meanwhile: the blog is still taken offline,
        // as a draft with its released slug (the rest of its pending changes kept).
        if (status === "draft" && isDuplicateKey(err)) return move(true);
        throw err;
      }
    },

    async publish(workspaceId, blogId, expected, by) {
      let published = "";
      try {
        return await writeVersion(
          workspaceId,
          blogId,
          expected,
          (doc) => {
            published = doc.pending?.slug ?? "";
            if (doc.status === "released" && doc.pending !== undefined) {
              requireAltText(doc.pending);
            }
            return publishEdit(doc, new Date());
          },
          { action: "published", by },
        );
      } catch (err) {
        if (isDuplicateKey(err)) throw slugTaken(published);
        throw err;
      }
    },

    async discard(workspaceId, blogId, expected, by) {
      return writeVersion(workspaceId, blogId, expected, discardEdit, {
        action: "discarded",
        by,
      });
    },

    async schedule(workspaceId, blogId, input, expected, by) {
      let times: WriteEntry["times"];
      const written = await writeVersion(
        workspaceId,
        blogId,
        expected,
        (doc) => {
          const schedule = scheduleOf(doc, input, new Date(), by ?? null);
          times = {
            publishAt: schedule?.publishAt ?? null,
            unreleaseAt: schedule?.unreleaseAt ?? null,
          };
          // Setting what is set already changes nothing.
          if (schedule === null) return doc.schedule === undefined ? null : { schedule: null };
          const same =
            doc.schedule?.publishAt?.getTime() === schedule.publishAt?.getTime() &&
            doc.schedule?.unreleaseAt?.getTime() === schedule.unreleaseAt?.getTime();
          return same ? null : { schedule };
        },
        () =>
          times === undefined
            ? null
            : times.publishAt === null && times.unreleaseAt === null
              ? { action: "schedule_cancelled", by }
              : { action: "scheduled", by, times },
      );
      if (written.dueAt !== undefined) onScheduled(written.dueAt);
      return written;
    },

    async fireSchedule(workspaceId, blogId, now) {
      const fire = (keepLiveSlug: boolean, failed: boolean) => {
        let entry: WriteEntry | null = null;
        return writeVersion(
          workspaceId,
          blogId,
          undefined,
          (doc) => {
            const due = scheduledEdit(doc, now, keepLiveSlug);
            if (due === null) {
              // Found due by a `dueAt` its schedule does not give (never written apart from it):
              // written again from the schedule, so the scheduler does not find it again.
              const stale = doc.dueAt !== undefined && doc.dueAt.getTime() <= now.getTime();
              return stale ? { schedule: doc.schedule ?? null } : null;
            }
            const by = doc.schedule?.by ?? null;
            const goingLive =
              due.outcome === "released" ? doc : due.outcome === "published" ? doc.pending : null;
            const refused = goingLive != null && altTextRefusal(goingLive) !== null;
            if ((failed && due.outcome === "published") || refused) {
              // Its pending slug is another blog's now, or a library image it would show has no
              // alt text (image-alt-rule.ts): the blog stays as it is, the time goes.
              entry = {
                action: "schedule_failed",
                by,
                times: { publishAt: doc.schedule?.publishAt ?? null, unreleaseAt: null },
              };
              return { schedule: without(doc.schedule, ["publishAt"]) ?? null };
            }
            entry = due.outcome === "nothing" ? null : { action: due.outcome, by };
            return due.edit;
          },
          () => entry,
        );
      };
      try {
        return await fire(false, false);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // An unrelease keeps the released slug (as `setStatus` does); a publish cannot be made.
        return fire(true, true);
      }
    },

    clearFeedPending(
      workspaceId: string,
      versions: readonly Pick<BlogDoc, "_id" | "updatedAt" | "revision">[],
    ): Promise<number> {
      return clearEach(workspaceId, "feedPending", versions, versionFilter, {
        feedPending: false,
      });
    },

    clearPreviewPending(workspaceId: string, marks: readonly PreviewMarkOf[]): Promise<number> {
      return clearEach(
        workspaceId,
        "previewPending",
        marks,
        (mark) => ({ previewMark: mark.previewMark ?? { $exists: false } }),
        { previewPending: false },
      );
    },

    clearWebhookOutboxes(
      workspaceId: string,
      versions: readonly Pick<BlogDoc, "_id" | "updatedAt" | "revision">[],
    ): Promise<number> {
      return clearEach(workspaceId, "webhookPending", versions, versionFilter, {
        webhookOutbox: [],
        webhookPending: false,
      });
    },

    async preview(
      workspaceId: string,
      userId: string,
      bodyMarkdown: string,
    ): Promise<RenderedBody> {
      try {
        return await renderer.render(bodyMarkdown, { workspaceId, previewBy: userId });
      } catch (err) {
        // The refusal as it is: a preview has nothing to say about saving.
        if (err instanceof RenderRefused)
          throw new DomainError("unprocessable", err.refusal.message);
        throw err;
      }
    },
  };
}

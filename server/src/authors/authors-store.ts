import type { AuthorDoc, Collections } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { conflict, notFound } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";
import {
  type AuthorFields,
  type CheckedAuthorFields,
  checkAuthorFields,
  MAX_AUTHORS,
  newAuthorDoc,
  slugOfName,
} from "./author-rules.js";

const NOT_FOUND = "Author not found.";
const slugTaken = (slug: string) =>
  conflict(`Slug "${slug}" is already used by another author of this workspace.`);

/** How many slugs a name's slug tries before giving up: `-2` … `-9`, then random tails. */
const MAX_SLUG_ATTEMPTS = 20;
const slugCandidate = (base: string, attempt: number): string =>
  attempt === 1
    ? base
    : attempt < 10
      ? `${base}-${attempt}`
      : `${base}-${randomBase62(6).toLowerCase()}`;

/** An author as changed, and their name before (what the audit entry needs). */
export interface AuthorChange {
  readonly author: AuthorDoc;
  /** Whether anything changed: a change to the same values is no change, and no audit entry. */
  readonly changed: boolean;
}

/**
 * A workspace's authors (admin.yaml, "Authors"): what site author pages show. The unique index
 * `workspace_author_slug` (platform/db/indexes.ts) is what keeps slugs the workspace's once, on
 * every instance; the cap of MAX_AUTHORS is counted before an insert, so two adds at the same
 * moment may pass it by one each.
 */
export interface AuthorsStore {
  /** Every author of the workspace, in name order (case and accents folded), then by slug. */
  list(workspaceId: string): Promise<AuthorDoc[]>;
  /** The workspace's author with this slug, or null (index `workspace_author_slug`). */
  bySlug(workspaceId: string, slug: string): Promise<AuthorDoc | null>;
  /** A new author; a slug made from the name when none is given. */
  create(workspaceId: string, input: AuthorFields & { readonly name: string }): Promise<AuthorDoc>;
  /** The fields given changed, the others kept; "not found" for another workspace's author. */
  update(workspaceId: string, authorId: string, patch: AuthorFields): Promise<AuthorChange>;
  /** Removes the author; what was removed, or "not found". */
  remove(workspaceId: string, authorId: string): Promise<AuthorDoc>;
}

export interface AuthorsStoreDeps {
  /**
   * Told after an author's edit or removal applied: the blogs that name them changed too
   * (blogs/author-marks.ts). A crash before it ends leaves their blogs' marks as they were.
   */
  readonly changed?: (workspaceId: string, authorId: string) => Promise<unknown>;
}

export function authorsStore(
  { authors }: Pick<Collections, "authors">,
  { changed = async () => {} }: AuthorsStoreDeps = {},
): AuthorsStore {
  return {
    // One workspace's authors, found by `workspace_author_slug` and sorted after: at most
    // MAX_AUTHORS of them (server/embedded-db/README.md, the plan of this query).
    list: (workspaceId) =>
      authors.find({ workspaceId }).sort({ nameKey: 1, slug: 1 }).limit(MAX_AUTHORS).toArray(),

    bySlug: (workspaceId, slug) => authors.findOne({ workspaceId, slug }),

    async create(workspaceId, input) {
      const fields = checkAuthorFields(input);
      if ((await authors.countDocuments({ workspaceId })) >= MAX_AUTHORS) {
        throw conflict(`A workspace has at most ${MAX_AUTHORS} authors.`);
      }
      const explicitSlug = fields.slug !== undefined;
      const base = fields.slug ?? slugOfName(fields.name ?? input.name);
      const now = new Date();
      for (let attempt = 1; ; attempt++) {
        const name = fields.name ?? input.name;
        const doc = newAuthorDoc(
          workspaceId,
          { ...fields, name },
          slugCandidate(base, attempt),
          now,
        );
        try {
          await authors.insertOne(doc);
          return doc;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          if (explicitSlug) throw slugTaken(base);
          if (attempt >= MAX_SLUG_ATTEMPTS) {
            throw conflict(`No free slug was found for "${base}"; give the author a slug.`);
          }
        }
      }
    },

    async update(workspaceId, authorId, patch) {
      const fields = checkAuthorFields(patch);
      const before = await authors.findOne({ _id: authorId, workspaceId });
      if (before === null) throw notFound(NOT_FOUND);
      const set: CheckedAuthorFields = {};
      for (const key of Object.keys(fields) as (keyof CheckedAuthorFields)[]) {
        if (fields[key] !== before[key]) Object.assign(set, { [key]: fields[key] });
      }
      if (Object.keys(set).length === 0) return { author: before, changed: false };
      const updatedAt = new Date();
      let after: AuthorDoc | null;
      try {
        // Only the fields that changed: on MongoDB a change made meanwhile to others is kept
        // (the embedded database may write the whole document: admin.yaml says the last wins).
        after = await authors.findOneAndUpdate(
          { _id: authorId, workspaceId },
          { $set: { ...set, updatedAt } },
          { returnDocument: "after" },
        );
      } catch (err) {
        if (isDuplicateKey(err) && set.slug !== undefined) throw slugTaken(set.slug);
        throw err;
      }
      if (after === null) throw notFound(NOT_FOUND);
      await changed(workspaceId, authorId);
      return { author: after, changed: true };
    },

    async remove(workspaceId, authorId) {
      const removed = await authors.findOneAndDelete({ _id: authorId, workspaceId });
      if (removed === null) throw notFound(NOT_FOUND);
      await changed(workspaceId, authorId);
      return removed;
    },
  };
}

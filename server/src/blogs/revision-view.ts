import type { BlogRevisionDoc } from "../platform/db/collections.js";
import type { BlogRevision, BlogRevisionSummary } from "../platform/http/admin-types.js";
import { toActor } from "../users/user-view.js";
import type { UserName } from "../users/users-store.js";
import { authorIdsOf, presentationOf } from "./blog-rules.js";

/** The accounts some revisions name, to look up at once. */
export const revisionActorIds = (docs: readonly BlogRevisionDoc[]): string[] =>
  docs.map((doc) => doc.by).filter((id): id is string => id !== null);

/** Stored revision → the admin spec's `BlogRevisionSummary`: ISO time, who by name. */
export function toRevisionSummary(
  doc: BlogRevisionDoc,
  people: ReadonlyMap<string, UserName>,
): BlogRevisionSummary {
  return {
    id: doc._id,
    at: doc.at.toISOString(),
    actor: toActor(doc.by, people),
    action: doc.action,
    status: doc.status,
    pendingChanges: doc.pendingChanges,
    // Stored by the field's name in storage (`authorIds`); the API names it `authors`.
    changed: doc.changed.map((field) => (field === "authorIds" ? "authors" : field)),
    ...(doc.restoredFrom === undefined ? {} : { restoredFrom: doc.restoredFrom }),
    title: doc.content.title,
    slug: doc.content.slug,
  };
}

/** Stored revision → the admin spec's `BlogRevision`: the summary and the content it kept. */
export function toRevision(
  doc: BlogRevisionDoc,
  people: ReadonlyMap<string, UserName>,
): BlogRevision {
  const { title, slug, excerpt, bodyMarkdown, tags, authorName, coverImageUrl } = doc.content;
  return {
    revision: toRevisionSummary(doc, people),
    content: {
      title,
      slug,
      excerpt,
      bodyMarkdown,
      tags: [...tags],
      authorName,
      authors: [...authorIdsOf(doc.content)],
      coverImageUrl,
      ...presentationOf(doc.content),
    },
  };
}

import type { AdminBlog, BlogRevision, BlogRevisionSummary } from "../../api.js";
import { DRAFT_FIELDS, type DraftField, FIELD_LABELS } from "./conflict.js";

// A blog's history in the editor (admin.yaml, "History"): what each revision is called, what it
// changed, and how two revisions' contents differ.

export type RevisionContent = BlogRevision["content"];

/** What each revision did, as the list says it. */
export const ACTION_LABELS: Record<BlogRevisionSummary["action"], string> = {
  created: "Created",
  edited: "Saved",
  released: "Released",
  unreleased: "Back to draft",
  published: "Changes published",
  discarded: "Changes discarded",
  restored: "Restored",
};

/** "Title, Body": the fields a revision changed, in the form's order and words. */
export function changedText(summary: BlogRevisionSummary): string {
  if (summary.action === "created") return "";
  const changed = new Set<string>(summary.changed);
  return DRAFT_FIELDS.filter((f) => changed.has(f))
    .map((f) => FIELD_LABELS[f])
    .join(", ");
}

/** A field's value as shown beside another: tags joined, Featured as Yes or No, none as empty. */
export function fieldText(content: RevisionContent, field: DraftField): string {
  if (field === "tags") return content.tags.join(", ");
  if (field === "featured") return content.featured === true ? "Yes" : "No";
  // A revision saved before a field existed does not have it: none.
  return content[field] ?? "";
}

/** The fields on which two contents differ, in the form's order. */
export const differingFields = (a: RevisionContent, b: RevisionContent): DraftField[] =>
  DRAFT_FIELDS.filter((f) => fieldText(a, f) !== fieldText(b, f));

/** The blog's content as the editor shows it now. */
export const contentOf = (blog: AdminBlog): RevisionContent => ({
  title: blog.title,
  slug: blog.slug,
  excerpt: blog.excerpt,
  bodyMarkdown: blog.bodyMarkdown,
  tags: blog.tags,
  authorName: blog.authorName,
  authors: blog.authors.map((author) => author.id),
  coverImageUrl: blog.coverImageUrl,
  coverImageAlt: blog.coverImageAlt,
  featured: blog.featured,
  metaTitle: blog.metaTitle,
  metaDescription: blog.metaDescription,
  canonicalUrl: blog.canonicalUrl,
  socialImageUrl: blog.socialImageUrl,
});

import { diffLines } from "diff";
import type { AdminBlog } from "../../api.js";
import { DRAFT_FIELDS, type Draft, draftOf, patchOf } from "./blog-draft.js";

// Two writers, one blog: what the editor knows when a write is refused because the blog changed
// since this page read it (412, admin.yaml "Conditional writes"), and what each choice keeps.

export type DraftField = keyof Draft;
export { DRAFT_FIELDS };

export const FIELD_LABELS: Record<DraftField, string> = {
  title: "Title",
  slug: "Slug",
  excerpt: "Excerpt",
  tags: "Tags",
  authorName: "Author",
  authors: "Authors",
  coverImageUrl: "Cover image URL",
  coverImageAlt: "Alt text",
  featured: "Featured",
  metaTitle: "Meta title",
  metaDescription: "Meta description",
  canonicalUrl: "Canonical URL",
  socialImageUrl: "Social image URL",
  bodyMarkdown: "Body",
};

/** A field's value in words, as the comparisons show it: Featured as Yes or No, authors by name. */
export const valueText = (draft: Draft, field: DraftField): string => {
  const value = draft[field];
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return value.map((a) => a.name).join(", ");
};

/** `to`'s `field` set to `from`'s. */
const copyField = <K extends DraftField>(to: Draft, from: Draft, field: K) => {
  to[field] = from[field];
};

/** The blog as stored now, beside the writer's version that was not saved. */
export interface Conflict {
  theirs: AdminBlog;
  /**
   * The writer's version: theirs, with each field this writer changed (since the version the
   * page had read) as typed. "Keep mine" saves it, so a field only the other writer changed
   * keeps their change.
   */
  mine: Draft;
  /** The fields on which the two differ, in the form's order: what the choice decides. */
  differing: DraftField[];
  /** The fields only the other writer changed: kept whichever is chosen. */
  theirsOnly: DraftField[];
}

const fieldsOf = (patch: object): Set<string> => new Set(Object.keys(patch));

/** `typed` was made on `base`; the blog is `theirs` now. */
export function conflictOf(base: AdminBlog, typed: Draft, theirs: AdminBlog): Conflict {
  const changedHere = fieldsOf(patchOf(base, typed));
  const mine: Draft = { ...draftOf(theirs) };
  for (const field of DRAFT_FIELDS) if (changedHere.has(field)) copyField(mine, typed, field);
  const differs = fieldsOf(patchOf(theirs, mine));
  const changedThere = fieldsOf(patchOf(base, draftOf(theirs)));
  return {
    theirs,
    mine,
    differing: DRAFT_FIELDS.filter((f) => differs.has(f)),
    theirsOnly: DRAFT_FIELDS.filter((f) => changedThere.has(f) && !differs.has(f)),
  };
}

/** One row of a side-by-side body diff. */
export type BodyRow =
  | { kind: "same"; text: string }
  /** A line only theirs has (`mine` null), only mine has (`theirs` null), or one each. */
  | { kind: "changed"; theirs: string | null; mine: string | null }
  /** Unchanged lines not shown, between or around changes. */
  | { kind: "skipped"; lines: number };

/** Unchanged lines shown around each change. */
const CONTEXT = 2;
/**
 * Past this many line edits, or this long, the diff is not worked out (the page would stall):
 * both bodies are shown whole, side by side.
 */
const MAX_EDITS = 1000;
const MAX_MS = 250;

const linesOf = (text: string): string[] => {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
};

/**
 * The bodies line by line, theirs on the left and mine on the right: removed lines paired with
 * the added lines that replaced them; runs of unchanged lines cut to `CONTEXT` around changes.
 */
export function bodyRows(theirs: string, mine: string): BodyRow[] {
  const withEnd = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);
  const parts = diffLines(withEnd(theirs), withEnd(mine), {
    maxEditLength: MAX_EDITS,
    timeout: MAX_MS,
  }) ?? [
    { value: withEnd(theirs), removed: true, added: false, count: 0 },
    { value: withEnd(mine), removed: false, added: true, count: 0 },
  ];
  const rows: BodyRow[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined) continue;
    if (!part.added && !part.removed) {
      rows.push(...linesOf(part.value).map((text): BodyRow => ({ kind: "same", text })));
      continue;
    }
    const next = parts[i + 1];
    const removed = part.removed ? linesOf(part.value) : [];
    const added = part.added ? linesOf(part.value) : next?.added ? linesOf(next.value) : [];
    if (part.removed && next?.added) i++;
    for (let j = 0; j < Math.max(removed.length, added.length); j++) {
      rows.push({ kind: "changed", theirs: removed[j] ?? null, mine: added[j] ?? null });
    }
  }
  return withContext(rows);
}

/** Each run of unchanged lines longer than the context it gives becomes a "skipped" row. */
function withContext(rows: BodyRow[]): BodyRow[] {
  const out: BodyRow[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]?.kind !== "same") {
      out.push(rows[i] as BodyRow);
      i++;
      continue;
    }
    let end = i;
    while (rows[end]?.kind === "same") end++;
    const keepBefore = i === 0 ? 0 : CONTEXT; // after a change
    const keepAfter = end === rows.length ? 0 : CONTEXT; // before a change
    if (end - i <= keepBefore + keepAfter + 1) out.push(...rows.slice(i, end));
    else {
      out.push(...rows.slice(i, i + keepBefore));
      out.push({ kind: "skipped", lines: end - i - keepBefore - keepAfter });
      out.push(...rows.slice(end - keepAfter, end));
    }
    i = end;
  }
  return out;
}

/**
 * The writer's version as plain text for the clipboard: the body alone when only the body
 * differs, otherwise each differing field on a line of its own and the body last.
 */
export function copyTextOf({ mine, differing }: Conflict): string {
  if (differing.length === 1 && differing[0] === "bodyMarkdown") return mine.bodyMarkdown;
  const heads = differing
    .filter((f) => f !== "bodyMarkdown")
    .map((f) => `${FIELD_LABELS[f]}: ${valueText(mine, f)}`);
  return differing.includes("bodyMarkdown")
    ? `${heads.join("\n")}\n\n${mine.bodyMarkdown}`
    : heads.join("\n");
}

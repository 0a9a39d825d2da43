import { useEffect, useRef } from "preact/hooks";
import type { AdminBlog } from "../../api.js";
import { type Draft, EMPTY_DRAFT } from "./blog-draft.js";

// The editor's unsaved text, kept in this browser's storage while it is typed, so a crash, a
// reload or an ended session does not lose it: the editor offers it back when the blog is
// opened again. One copy per signed-in user, workspace and blog (a new blog's under "new"); it
// is removed once the text is saved, or when the writer discards it or leaves without saving.

/** What is kept: the form as typed, and the blog as it was when the typing began. */
export interface LocalCopy {
  draft: Draft;
  /** The blog the text was typed on (its body's HTML left out); null for a new blog. */
  base: AdminBlog | null;
  /** When it was last written (ISO 8601). */
  keptAt: string;
}

export const localCopyKey = (userId: string, workspaceId: string, blogId: string | null) =>
  `pressroom:draft:v1:${userId}:${workspaceId}:${blogId ?? "new"}`;

/**
 * The kept form, if it is one: each field of the type the form has. A copy kept before a field
 * existed (the search and social fields, the authors came later) gets that field as a new form has it.
 */
function draftIn(value: unknown): Draft | null {
  if (typeof value !== "object" || value === null) return null;
  const kept: Record<string, unknown> = { ...EMPTY_DRAFT, ...value };
  const fits = (Object.keys(EMPTY_DRAFT) as (keyof Draft)[]).every(
    (field) => typeof kept[field] === typeof EMPTY_DRAFT[field],
  );
  return fits && isAuthorList(kept.authors) ? (kept as unknown as Draft) : null;
}

/** The form's authors as kept: each an ID and a name. */
const isAuthorList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every(
    (a: unknown) =>
      typeof a === "object" &&
      a !== null &&
      "id" in a &&
      typeof a.id === "string" &&
      "name" in a &&
      typeof a.name === "string",
  );

/** What a blog kept before the newer fields existed had of them: none. */
const NEWER_FIELDS = {
  coverImageAlt: null,
  featured: false,
  authors: [] as AdminBlog["authors"],
  metaTitle: null,
  metaDescription: null,
  canonicalUrl: null,
  socialImageUrl: null,
  readingTimeMinutes: 0,
} satisfies Partial<AdminBlog>;

/** The copy kept under `key`, if any is there and readable (storage off or full: none). */
export function readLocalCopy(key: string): LocalCopy | null {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    const copy: unknown = JSON.parse(raw);
    if (typeof copy !== "object" || copy === null) return null;
    const { draft: typed, base, keptAt } = copy as Record<string, unknown>;
    const draft = draftIn(typed);
    if (draft === null || typeof keptAt !== "string") return null;
    const blog = typeof base === "object" && base !== null && "version" in base ? base : null;
    return { draft, base: blog && ({ ...NEWER_FIELDS, ...blog } as AdminBlog), keptAt };
  } catch {
    return null;
  }
}

export function forgetLocalCopy(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage refused (disabled, private mode): there is nothing to forget.
  }
}

function writeLocalCopy(key: string, copy: LocalCopy): void {
  try {
    localStorage.setItem(key, JSON.stringify(copy));
  } catch {
    // Full or refused: the text is still in the form, and the browser asks before a reload.
  }
}

/** Typing is written this long after it pauses (and at once when the page goes away). */
const WRITE_AFTER_MS = 400;

/** Where the editor's copy lives: whose it is, and of which blog (null: a new one). */
export interface CopyPlace {
  userId: string;
  workspaceId: string;
  blogId: string | null;
}

/**
 * Keeps `draft` while `dirty` (typed on `base`), and forgets it when the form stops being dirty
 * (saved, or taken back) — never merely because it is not dirty: a copy found on opening stays
 * until the writer answers, whatever renders first. `holding` keeps it as it is meanwhile. A new
 * blog's copy moves to the blog's own place once it is created. `discard()` forgets it for good
 * (the writer chose to leave without saving, or to take another version).
 */
export function useLocalCopy(
  place: CopyPlace,
  base: AdminBlog | null,
  draft: Draft,
  dirty: boolean,
  holding: boolean,
): { discard: () => void } {
  const key = localCopyKey(place.userId, place.workspaceId, place.blogId);
  const keyRef = useRef(key);
  keyRef.current = key;
  const pending = useRef<LocalCopy | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const discarded = useRef(false);
  const wasNew = useRef(place.blogId === null);
  /** The form was dirty at the last run: a clean form now means its text was saved or dropped. */
  const wasDirty = useRef(false);

  const flush = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (pending.current !== null && !discarded.current) {
      writeLocalCopy(keyRef.current, pending.current);
    }
    pending.current = null;
  };

  useEffect(() => {
    if (wasNew.current && place.blogId !== null) {
      forgetLocalCopy(localCopyKey(place.userId, place.workspaceId, null));
    }
    wasNew.current = place.blogId === null;
    if (holding) return;
    if (!dirty) {
      pending.current = null;
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
      if (wasDirty.current) forgetLocalCopy(key);
      wasDirty.current = false;
      return;
    }
    wasDirty.current = true;
    discarded.current = false;
    const kept = base === null ? null : { ...base, bodyHtml: "" };
    pending.current = { draft, base: kept, keptAt: new Date().toISOString() };
    if (timer.current === null) timer.current = setTimeout(flush, WRITE_AFTER_MS);
  }, [key, draft, dirty, holding]);

  // Written at once when the tab is closed or reloaded, and when the editor goes (an ended
  // session, another workspace): a text being typed is never only in a timer.
  useEffect(() => {
    addEventListener("pagehide", flush);
    return () => {
      removeEventListener("pagehide", flush);
      flush();
    };
  }, []);

  return {
    discard: () => {
      discarded.current = true;
      pending.current = null;
      forgetLocalCopy(keyRef.current);
    },
  };
}

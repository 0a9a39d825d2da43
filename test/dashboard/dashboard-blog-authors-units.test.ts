// The editor's Authors field without a browser (admin.yaml, BlogInput.authors, BlogPatch.authors:
// ordered author IDs, at most 10, the first the primary; AdminBlog.authors: the Author objects;
// BlogRevisionContent.authors and the revision `changed` enum's `authors`; dashboard/README.md,
// "Authors on a blog"): the order the picker keeps, what a save sends, the dirty check, the
// conflict's words, the history's label and names, and a copy kept before authors existed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../dashboard/src/api.js";
import {
  addAuthor,
  authorNamesOf,
  choosableAuthors,
  moveAuthor,
} from "../../dashboard/src/features/blogs/author-order.js";
import { checkDraft, fieldErrorOf } from "../../dashboard/src/features/blogs/blog-checks.js";
import {
  type AuthorRef,
  type Draft,
  draftOf,
  EMPTY_DRAFT,
  inputOf,
  isBlank,
  patchOf,
} from "../../dashboard/src/features/blogs/blog-draft.js";
import { conflictOf, valueText } from "../../dashboard/src/features/blogs/conflict.js";
import {
  changedText,
  contentOf,
  differingFields,
  fieldText,
  REMOVED_AUTHOR,
} from "../../dashboard/src/features/blogs/history.js";
import { readLocalCopy } from "../../dashboard/src/features/blogs/local-copy.js";
import type { components } from "../../openapi/generated/admin.js";
import { adminLimits } from "../../openapi/generated/admin-limits.js";

type AdminBlog = components["schemas"]["AdminBlog"];
type Author = components["schemas"]["Author"];
type BlogRevisionSummary = components["schemas"]["BlogRevisionSummary"];

const author = (id: string, name: string): Author => ({
  id,
  name,
  slug: name.toLowerCase().replace(/ /g, "-"),
  bio: null,
  avatarUrl: null,
  websiteUrl: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});
const ADA = author("au_ada", "Ada Lovelace");
const GRACE = author("au_grace", "Grace Hopper");
const EMILE = author("au_emile", "Émile Zola");
const ref = ({ id, name }: Author): AuthorRef => ({ id, name });

const blog: AdminBlog = {
  id: "b_1",
  version: "v1",
  pendingChanges: false,
  schedule: { publishAt: null, unreleaseAt: null },
  status: "draft",
  slug: "hello",
  title: "Hello",
  excerpt: "Derived.",
  bodyMarkdown: "Body",
  bodyHtml: "<p>Body</p>",
  tags: [],
  authorName: "The Desk",
  authors: [ADA, GRACE],
  coverImageUrl: null,
  coverImageAlt: null,
  featured: false,
  metaTitle: null,
  metaDescription: null,
  canonicalUrl: null,
  socialImageUrl: null,
  readingTimeMinutes: 1,
  createdAt: "2025-06-01T12:00:00.000Z",
  updatedAt: "2025-06-01T12:00:00.000Z",
  releasedAt: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the picker's order (admin.yaml, BlogInput.authors: ordered, the first the primary)", () => {
  const two = [ref(ADA), ref(GRACE)];

  it("moves one place up or down; the first up, the last down and an unknown ID change nothing", () => {
    expect(moveAuthor(two, GRACE.id, "up")).toEqual([ref(GRACE), ref(ADA)]);
    expect(moveAuthor(two, ADA.id, "down")).toEqual([ref(GRACE), ref(ADA)]);
    expect(moveAuthor(two, ADA.id, "up")).toBe(two);
    expect(moveAuthor(two, GRACE.id, "down")).toBe(two);
    expect(moveAuthor(two, "au_nobody", "remove")).toBe(two);
    expect(two).toEqual([ref(ADA), ref(GRACE)]); // never changed in place
  });

  it("removes, adds last and once only (admin.yaml, BlogAuthorIds: uniqueItems)", () => {
    expect(moveAuthor(two, ADA.id, "remove")).toEqual([ref(GRACE)]);
    expect(addAuthor(two, EMILE)).toEqual([ref(ADA), ref(GRACE), ref(EMILE)]);
    expect(addAuthor(two, GRACE)).toBe(two);
  });

  it("offers the workspace's authors not chosen yet, in the list's order", () => {
    expect(choosableAuthors([ADA, EMILE, GRACE], two)).toEqual([EMILE]);
  });

  it(`more than ${adminLimits.createBlog.authors.maxItems} authors are refused before sending (admin.yaml, BlogAuthorIds: maxItems)`, () => {
    const max = adminLimits.createBlog.authors.maxItems;
    const many = Array.from({ length: max + 1 }, (_, i) => ({ id: `au_${i}`, name: `A ${i}` }));
    expect(checkDraft({ ...EMPTY_DRAFT, title: "T", authors: many.slice(0, max) })).toEqual({});
    expect(checkDraft({ ...EMPTY_DRAFT, title: "T", authors: many }).authors).toBe(
      `Choose at most ${max} authors.`,
    );
  });
});

describe("what a save sends (admin.yaml, BlogInput.authors, BlogPatch.authors: IDs)", () => {
  it("the form holds the blog's authors in order; a write sends their IDs", () => {
    const draft = draftOf(blog);
    expect(draft.authors).toEqual([ref(ADA), ref(GRACE)]);
    expect(inputOf({ ...draft, title: "New" }).authors).toEqual([ADA.id, GRACE.id]);
    expect(inputOf({ ...EMPTY_DRAFT, title: "New" })).not.toHaveProperty("authors");
  });

  it("an edit sends `authors` only when the list or its order changed, and [] for none", () => {
    const draft = draftOf(blog);
    expect(patchOf(blog, draft)).toEqual({});
    expect(patchOf(blog, { ...draft, authors: [ref(GRACE), ref(ADA)] })).toEqual({
      authors: [GRACE.id, ADA.id],
    });
    expect(patchOf(blog, { ...draft, authors: [] })).toEqual({ authors: [] });
    // A renamed author is the same author: nothing to send.
    expect(
      patchOf(blog, { ...draft, authors: [{ id: ADA.id, name: "Ada King" }, ref(GRACE)] }),
    ).toEqual({});
  });

  it("a blog from a server before authors names none, and sends none", () => {
    const { authors: _, ...older } = blog;
    const before = older as AdminBlog;
    expect(draftOf(before).authors).toEqual([]);
    expect(patchOf(before, draftOf(before))).toEqual({});
    expect(contentOf(before).authors).toEqual([]);
  });

  it("authors chosen on a new blog make it unsaved; the same list again does not", () => {
    expect(isBlank({ ...EMPTY_DRAFT, authors: [ref(ADA)] }, EMPTY_DRAFT)).toBe(false);
    expect(isBlank({ ...EMPTY_DRAFT, authors: [] }, EMPTY_DRAFT)).toBe(true);
  });

  it("a 400 about the authors is said on the Authors field", () => {
    const named = fieldErrorOf(new ApiError("request/body/authors/0 must match pattern", 400));
    expect(named?.field).toBe("authors");
    expect(
      fieldErrorOf(new ApiError("authors: the workspace has no author au_gone.", 400)),
    ).toEqual({
      field: "authors",
      message:
        "An author chosen here was removed from the workspace meanwhile: remove them, then save again.",
    });
  });
});

describe("comparisons and history (admin.yaml, BlogRevisionContent.authors, BlogRevision.changed)", () => {
  it("a conflict names the authors by name, in order, and merges them as one field", () => {
    const draft: Draft = { ...draftOf(blog), authors: [ref(GRACE)] };
    expect(valueText(draft, "authors")).toBe("Grace Hopper");
    const theirs: AdminBlog = { ...blog, version: "v2", title: "Their title" };
    const conflict = conflictOf(blog, draft, theirs);
    expect(conflict.differing).toEqual(["authors"]);
    expect(conflict.mine.authors).toEqual([ref(GRACE)]);
    expect(conflict.mine.title).toBe("Their title");
  });

  it("a revision that changed the authors says “Authors”", () => {
    const summary = {
      id: "r_2",
      action: "edited",
      changed: ["authors", "title"],
    } as unknown as BlogRevisionSummary;
    expect(changedText(summary)).toBe("Title, Authors");
  });

  it("a revision's author IDs are shown by name, a removed author as such; compared by ID", () => {
    const content = { ...contentOf(blog), authors: [GRACE.id, "au_gone"] };
    const names = authorNamesOf([ref(ADA)], blog.authors);
    expect(fieldText(content, "authors", names)).toBe(`Grace Hopper, ${REMOVED_AUTHOR}`);
    expect(fieldText(content, "authors")).toBe(`${GRACE.id}, au_gone`);
    expect(differingFields(contentOf(blog), content)).toEqual(["authors"]);
    expect(differingFields(contentOf(blog), contentOf(blog))).toEqual([]);
  });
});

describe("a copy kept in the browser (dashboard/README.md, Typed text is kept in the browser)", () => {
  it("one kept before authors existed is offered with none; one with authors keeps them", () => {
    const old = { ...EMPTY_DRAFT, title: "Typed" } as Partial<Draft>;
    delete old.authors;
    const keep = (draft: unknown) =>
      JSON.stringify({ draft, base: null, keptAt: "2026-01-01T00:00:00.000Z" });
    vi.stubGlobal("localStorage", { getItem: () => keep(old) });
    expect(readLocalCopy("k")?.draft.authors).toEqual([]);
    vi.stubGlobal("localStorage", { getItem: () => keep({ ...old, authors: [ref(ADA)] }) });
    expect(readLocalCopy("k")?.draft.authors).toEqual([ref(ADA)]);
    // Not a list of authors: not the form's, so not offered.
    vi.stubGlobal("localStorage", { getItem: () => keep({ ...old, authors: ["au_ada"] }) });
    expect(readLocalCopy("k")).toBeNull();
  });
});

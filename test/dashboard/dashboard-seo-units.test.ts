import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../dashboard/src/api.js";
import { checkDraft, fieldErrorOf } from "../../dashboard/src/features/blogs/blog-checks.js";
import {
  type Draft,
  draftOf,
  EMPTY_DRAFT,
  inputOf,
  isBlank,
  patchOf,
} from "../../dashboard/src/features/blogs/blog-draft.js";
import { conflictOf, copyTextOf } from "../../dashboard/src/features/blogs/conflict.js";
import { changedText, contentOf, fieldText } from "../../dashboard/src/features/blogs/history.js";
import { readLocalCopy } from "../../dashboard/src/features/blogs/local-copy.js";
import {
  addressLineOf,
  cardImageOf,
  clip,
  derivedExcerptOf,
  descriptionOf,
  hostOf,
  isPublicUrl,
  pageTitleOf,
  readingTimeText,
  SEARCH_DESCRIPTION_CHARS,
  SEARCH_TITLE_CHARS,
} from "../../dashboard/src/features/blogs/seo-text.js";
import type { components } from "../../openapi/generated/admin.js";
import { adminLimits } from "../../openapi/generated/admin-limits.js";

// The editor's search and social fields (openapi.yaml, "Presentation and search fields";
// admin.yaml, BlogInput and PublicUrlInput; dashboard/README.md, "Search and social"): the
// previews' fallbacks and cuts, and the fields' way through saves, checks, merges and history.

type AdminBlog = components["schemas"]["AdminBlog"];
type BlogRevisionSummary = components["schemas"]["BlogRevisionSummary"];

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
  authorName: "Ada",
  authors: [],
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
const draft: Draft = draftOf(blog);

describe("search engines' cuts (dashboard/README.md, “Search and social”)", () => {
  it("a text that fits is shown whole", () => {
    expect(clip("Short title", SEARCH_TITLE_CHARS)).toBe("Short title");
    expect(clip("x".repeat(60), 60)).toBe("x".repeat(60));
  });

  it("a longer one is cut after its last whole word, with an ellipsis, within the limit", () => {
    const long = "Spring release notes: what shipped in March, and what comes next for everyone";
    const shown = clip(long, SEARCH_TITLE_CHARS);
    expect(shown).toBe("Spring release notes: what shipped in March, and what comes…");
    expect(Array.from(shown).length).toBeLessThanOrEqual(SEARCH_TITLE_CHARS);
    const description = `${"word ".repeat(60)}end`;
    expect(Array.from(clip(description, SEARCH_DESCRIPTION_CHARS)).length).toBeLessThanOrEqual(
      SEARCH_DESCRIPTION_CHARS,
    );
  });

  it("punctuation before the cut goes; a single long word is cut mid-word; emoji stay whole", () => {
    expect(clip("Alpha beta, gamma delta", 14)).toBe("Alpha beta…");
    expect(clip("a".repeat(80), 10)).toBe(`${"a".repeat(9)}…`);
    expect(clip("😀".repeat(12), 10)).toBe(`${"😀".repeat(9)}…`);
  });
});

describe("the previews' fallbacks (openapi.yaml, “Presentation and search fields”)", () => {
  it("the page title is the meta title, else the title", () => {
    expect(pageTitleOf({ ...draft, metaTitle: "For search" })).toBe("For search");
    expect(pageTitleOf({ ...draft, metaTitle: "  " })).toBe("Hello");
  });

  it("the description is the meta description, else the excerpt, else the body's first paragraph", () => {
    expect(descriptionOf({ ...draft, metaDescription: "Meta\nwords" })).toBe("Meta words");
    expect(descriptionOf(draft)).toBe("Derived.");
    const body =
      "# Heading\n\n```\ncode\n\nmore code\n```\n\nThe **first** [paragraph](https://x.example).";
    expect(descriptionOf({ ...draft, excerpt: "", bodyMarkdown: body })).toBe(
      "The first paragraph.",
    );
  });

  it("the body's first paragraph is cut near 200 characters, as the server derives it", () => {
    const derived = derivedExcerptOf(`${"lorem ipsum ".repeat(40)}\n\nSecond.`);
    expect(derived.endsWith("…")).toBe(true);
    expect(derived.length).toBeLessThanOrEqual(201);
    expect(derivedExcerptOf("> Quoted *words*\n> go on")).toBe("Quoted words go on");
    expect(derivedExcerptOf("")).toBe("");
  });

  it("the card's image is the social image, else the cover; a bad address gives none", () => {
    const cover = "https://img.example/cover.png";
    expect(cardImageOf({ ...draft, coverImageUrl: cover })).toBe(cover);
    expect(
      cardImageOf({
        ...draft,
        coverImageUrl: cover,
        socialImageUrl: " https://img.example/s.png ",
      }),
    ).toBe("https://img.example/s.png");
    expect(cardImageOf({ ...draft, coverImageUrl: cover, socialImageUrl: "not a url" })).toBeNull();
    expect(cardImageOf({ ...draft, socialImageUrl: "https://me:pw@img.example/s.png" })).toBeNull();
    expect(cardImageOf(draft)).toBeNull();
  });

  it("the address line is the canonical URL's host and path, else the slug on the consumer's site", () => {
    const canonical = "https://engineering.example.com/2026/spring%20notes";
    expect(addressLineOf({ ...draft, canonicalUrl: canonical }, "hello")).toBe(
      "engineering.example.com › 2026 › spring notes",
    );
    expect(addressLineOf(draft, "hello")).toBe("Your site › hello");
    expect(hostOf(canonical)).toBe("engineering.example.com");
    expect(hostOf("")).toBe("");
  });

  it("the reading time reads “4 min read”, and nothing for a body without words", () => {
    expect(readingTimeText(4)).toBe("4 min read");
    expect(readingTimeText(0)).toBeNull();
  });
});

describe("the fields' way through a save (admin.yaml, BlogInput and BlogPatch)", () => {
  it("empty text or URL fields are null, the server's “none”; unchanged ones are not sent", () => {
    expect(patchOf(blog, draft)).toEqual({});
    const set = { ...blog, metaTitle: "Old", canonicalUrl: "https://a.example/x" };
    expect(patchOf(set, { ...draftOf(set), metaTitle: " ", canonicalUrl: "" })).toEqual({
      metaTitle: null,
      canonicalUrl: null,
    });
    expect(patchOf(blog, { ...draft, featured: true, metaDescription: "One\nline " })).toEqual({
      featured: true,
      metaDescription: "One line",
    });
  });

  it("a new blog sends only the fields set, and Featured only when it is chosen", () => {
    expect(inputOf({ ...draft, coverImageAlt: "A cat", featured: true })).toMatchObject({
      coverImageAlt: "A cat",
      featured: true,
    });
    const input = inputOf(draft);
    expect(input).not.toHaveProperty("featured");
    expect(input).not.toHaveProperty("metaTitle");
  });

  it("ticking Featured makes a new form dirty; a blank form is blank", () => {
    expect(isBlank(EMPTY_DRAFT, EMPTY_DRAFT)).toBe(true);
    expect(isBlank({ ...EMPTY_DRAFT, featured: true }, EMPTY_DRAFT)).toBe(false);
    expect(isBlank({ ...EMPTY_DRAFT, metaTitle: "  " }, EMPTY_DRAFT)).toBe(true);
  });
});

describe("the editor's checks of the new fields (admin.yaml, PublicUrlInput)", () => {
  it("a canonical or social image URL is an absolute http(s) address with no credentials", () => {
    expect(isPublicUrl("https://example.com/a")).toBe(true);
    expect(isPublicUrl("HTTP://example.com")).toBe(true);
    for (const bad of ["example.com/a", "ftp://example.com", "https://u:p@example.com/", "/a"]) {
      expect(isPublicUrl(bad), bad).toBe(false);
    }
    const errors = checkDraft({ ...draft, canonicalUrl: "www.example.com", socialImageUrl: "" });
    expect(Object.keys(errors)).toEqual(["canonicalUrl"]);
    expect(errors.canonicalUrl).toMatch(/https:\/\//);
  });

  it("plain-text fields are within their generated limits, as saved", () => {
    const max = adminLimits.createBlog.metaTitle.maxLength;
    expect(checkDraft({ ...draft, metaTitle: "x".repeat(max) })).toEqual({});
    expect(checkDraft({ ...draft, metaTitle: "x".repeat(max + 1) }).metaTitle).toMatch(/at most/);
    expect(checkDraft({ ...draft, coverImageAlt: "A \u202egreat cat" }).coverImageAlt).toMatch(
      /control character/,
    );
  });

  it("a server's 400 about a new field is said on that field", () => {
    const url = fieldErrorOf(
      new ApiError(
        'request/body/socialImageUrl must be null, request/body/socialImageUrl must match format "uri"',
        400,
      ),
    );
    expect(url?.field).toBe("socialImageUrl");
    expect(url?.message).toMatch(/no user name or password/);
    const text = fieldErrorOf(new ApiError("request/body/metaTitle must match pattern “…”", 400));
    expect(text).toEqual({
      field: "metaTitle",
      message: "The meta title has a control character or a text-direction override: remove it.",
    });
    // The blog rules' own words (server/src/blogs/blog-rules.ts).
    const own = new ApiError("canonicalUrl must not carry a user name or password.", 400);
    expect(fieldErrorOf(own)?.field).toBe("canonicalUrl");
  });
});

describe("conflicts, history and kept copies (dashboard/README.md, “The editor”)", () => {
  it("a conflict merges the new fields one by one, Featured as Yes or No", () => {
    const theirs = { ...blog, version: "v2", metaTitle: "Theirs" };
    const typed = { ...draft, featured: true, canonicalUrl: "https://a.example/" };
    const found = conflictOf(blog, typed, theirs);
    expect(found.mine).toMatchObject({ metaTitle: "Theirs", featured: true });
    expect(found.differing).toEqual(["featured", "canonicalUrl"]);
    expect(found.theirsOnly).toEqual(["metaTitle"]);
    expect(copyTextOf(found)).toBe("Featured: Yes\nCanonical URL: https://a.example/");
  });

  it("the history names the changed fields in words", () => {
    const summary: BlogRevisionSummary = {
      id: "r_1",
      action: "edited",
      at: "2025-06-01T12:00:00.000Z",
      actor: null,
      status: "draft",
      pendingChanges: false,
      changed: ["socialImageUrl", "metaTitle", "coverImageAlt", "featured"],
      title: "Hello",
      slug: "hello",
    };
    expect(changedText(summary)).toBe("Alt text, Featured, Meta title, Social image URL");
    expect(fieldText({ ...contentOf(blog), featured: true }, "featured")).toBe("Yes");
    expect(fieldText(contentOf(blog), "metaTitle")).toBe("");
  });

  describe("a copy kept before these fields existed", () => {
    afterEach(() => vi.unstubAllGlobals());
    it("is still offered, the new fields as a new form has them", () => {
      const old = { title: "Kept", slug: "", tags: "", coverImageUrl: "", excerpt: "" };
      // The blog as a version before these fields had it.
      const {
        coverImageAlt,
        featured,
        metaTitle,
        metaDescription,
        canonicalUrl,
        socialImageUrl,
        readingTimeMinutes,
        ...before
      } = blog;
      const stored = JSON.stringify({
        draft: { ...old, authorName: "Ada", bodyMarkdown: "Typed" },
        base: before,
        keptAt: "2025-06-01T12:00:00.000Z",
      });
      vi.stubGlobal("localStorage", { getItem: () => stored });
      const copy = readLocalCopy("key");
      expect(copy?.draft).toEqual({
        ...EMPTY_DRAFT,
        ...old,
        authorName: "Ada",
        bodyMarkdown: "Typed",
      });
      expect(copy?.base).toMatchObject({ metaTitle: null, featured: false });
      expect(copy?.base && patchOf(copy.base, copy.draft)).not.toHaveProperty("metaTitle");
    });
  });
});

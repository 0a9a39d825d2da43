// The Authors screen's form rules (dashboard/src/features/authors/author-text.ts; admin.yaml,
// AuthorInput, AuthorPatch, createAuthor, updateAuthor; README.md, "Authors"): what is checked
// before sending, what an add and an edit send, and which field a server's refusal is said on.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../dashboard/src/api.js";
import {
  type AuthorForm,
  authorInputOf,
  authorPatchOf,
  authorProblemOf,
  checkAuthorForm,
  EMPTY_AUTHOR_FORM,
  formOf,
  websiteText,
} from "../../dashboard/src/features/authors/author-text.js";
import type { components } from "../../openapi/generated/admin.js";
import { adminLimits } from "../../openapi/generated/admin-limits.js";

type Author = components["schemas"]["Author"];

const ADA: Author = {
  id: "au_ada",
  name: "Ada Lovelace",
  slug: "ada-lovelace",
  bio: "Wrote the first published algorithm.",
  avatarUrl: "https://example.com/ada.png",
  websiteUrl: "https://example.com/ada",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const form = (fields: Partial<AuthorForm>): AuthorForm => ({ ...EMPTY_AUTHOR_FORM, ...fields });

describe("checked before sending (admin.yaml, AuthorInput)", () => {
  it("a name is required and within its length; nothing else is", () => {
    expect(checkAuthorForm(form({ name: "  " }))).toEqual({ name: "Enter the author's name." });
    expect(checkAuthorForm(form({ name: "Ada" }))).toEqual({});
    const long = "a".repeat(adminLimits.createAuthor.name.maxLength + 1);
    expect(checkAuthorForm(form({ name: long })).name).toMatch(/^Use at most 100 characters/);
  });

  it("a name, or a bio, with a control character or a bidi override is refused in words", () => {
    expect(checkAuthorForm(form({ name: "Ada\u202eLovelace" })).name).toMatch(
      /text-direction override/,
    );
    expect(checkAuthorForm(form({ name: "Ada", bio: "one\ttab" })).bio).toMatch(
      /control character/,
    );
    // Line breaks are a bio's own (admin.yaml, AuthorBioInput).
    expect(checkAuthorForm(form({ name: "Ada", bio: "one\r\ntwo\nthree" }))).toEqual({});
  });

  it("a slug typed follows a blog's rule; empty is the name's (README.md, Authors, Slugs)", () => {
    expect(checkAuthorForm(form({ name: "Ada", slug: "" }))).toEqual({});
    expect(checkAuthorForm(form({ name: "Ada", slug: "ada-2" }))).toEqual({});
    for (const bad of ["Ada", "ada--l", "-ada", "ada_l", "ada l"]) {
      expect(checkAuthorForm(form({ name: "Ada", slug: bad })).slug, bad).toMatch(
        /^Use lower-case letters/,
      );
    }
  });

  it("avatar and website are PublicUrlInput: absolute http(s), no user name or password", () => {
    expect(checkAuthorForm(form({ name: "A", avatarUrl: "https://e.com/a.png" }))).toEqual({});
    for (const bad of ["e.com/a.png", "ftp://e.com/a", "https://me:pw@e.com/a", "/a.png"]) {
      expect(checkAuthorForm(form({ name: "A", websiteUrl: bad })).websiteUrl, bad).toMatch(
        /^Enter an absolute address/,
      );
    }
  });
});

describe("what an add and an edit send (admin.yaml, createAuthor, updateAuthor)", () => {
  it("an add leaves out what is empty, so the server makes the slug", () => {
    expect(authorInputOf(form({ name: " Émile Zola " }))).toEqual({ name: "Émile Zola" });
    expect(
      authorInputOf(
        form({
          name: "Ada",
          slug: " ada ",
          bio: " one\r\ntwo ",
          avatarUrl: " https://e.com/a.png",
          websiteUrl: "https://e.com/ada ",
        }),
      ),
    ).toEqual({
      name: "Ada",
      slug: "ada",
      bio: "one\ntwo",
      avatarUrl: "https://e.com/a.png",
      websiteUrl: "https://e.com/ada",
    });
  });

  it("an edit sends only what changed; emptied bio, avatar and website are null; an emptied slug is kept", () => {
    expect(authorPatchOf(ADA, formOf(ADA))).toEqual({});
    expect(authorPatchOf(ADA, { ...formOf(ADA), bio: "", websiteUrl: " " })).toEqual({
      bio: null,
      websiteUrl: null,
    });
    expect(authorPatchOf(ADA, { ...formOf(ADA), slug: "" })).toEqual({});
    expect(authorPatchOf(ADA, { ...formOf(ADA), name: "Ada King", slug: "ada-king" })).toEqual({
      name: "Ada King",
      slug: "ada-king",
    });
    const bare: Author = { ...ADA, bio: null, avatarUrl: null, websiteUrl: null };
    expect(authorPatchOf(bare, formOf(bare))).toEqual({});
  });

  it("the list shows a website without its scheme", () => {
    expect(websiteText("https://example.com/ada/")).toBe("example.com/ada");
    expect(websiteText("http://example.com")).toBe("example.com");
  });
});

describe("a refusal said on its field (dashboard/README.md, Forms)", () => {
  const refused = (status: number, message: string) =>
    authorProblemOf(new ApiError(message, status));

  it("the 409 of a slug another author has, and of no free slug, go to Slug as said", () => {
    const taken = 'Slug "ada" is already used by another author of this workspace.';
    expect(refused(409, taken)).toEqual({ field: "slug", message: taken });
    const none = 'No free slug was found for "ada"; give the author a slug.';
    expect(refused(409, none)).toEqual({ field: "slug", message: none });
  });

  it("the author rules' 400s and the validator's name their field", () => {
    expect(refused(400, "avatarUrl must not carry a user name or password.")?.field).toBe(
      "avatarUrl",
    );
    expect(refused(400, "websiteUrl must be an absolute http(s) URL.")?.field).toBe("websiteUrl");
    expect(refused(400, "name must not be blank.")).toEqual({
      field: "name",
      message: "Name must not be blank.",
    });
    expect(
      refused(400, 'request/body/slug must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"'),
    ).toEqual({
      field: "slug",
      message: "Use lower-case letters, digits and single dashes between them (ada-lovelace).",
    });
    expect(refused(400, "request/body/bio must NOT have more than 500 characters")).toEqual({
      field: "bio",
      message: "Must NOT have more than 500 characters.",
    });
  });

  it("the 409 of a full workspace, and other failures, are said above the buttons", () => {
    expect(refused(409, "A workspace has at most 200 authors.")).toBeNull();
    expect(refused(500, "Slug broke")).toBeNull();
    expect(authorProblemOf(new Error("boom"))).toBeNull();
  });
});

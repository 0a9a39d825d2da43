import { describe, expect, it } from "vitest";
import { authorsJoined, NO_AUTHORS } from "../../server/src/blogs/blog-authors.js";
import { BLOG_FIELDS, BLOG_VIEW, toBlog as toBlogWith } from "../../server/src/blogs/blog-view.js";
import {
  type ProjectedBlogDoc,
  parseFields,
  toPartialBlog,
} from "../../server/src/blogs/field-selection.js";
import type { BlogDoc } from "../../server/src/platform/db/collections.js";

// The consumer `Blog` has one definition (server/src/blogs/blog-view.ts, BLOG_VIEW): the whole
// blog, a `fields` selection and its projection are all made from it (openapi.yaml, "Choosing
// fields": "Each property, when present, is exactly the Blog property of the same name; the keys
// come in the Blog schema's order").

const doc: BlogDoc = {
  _id: "b_7KcXw2Qm9TfL3pZa",
  workspaceId: "ws_1",
  status: "released",
  slug: "spring-release-notes",
  title: "Spring <release> notes",
  excerpt: "Everything that shipped & more.",
  bodyMarkdown: "# Spring\n\nText.",
  bodyHtml: "<h1>Spring</h1>\n<p>Text.</p>\n",
  tags: ["release-notes", "product"],
  authorName: "Ada Lovelace",
  authorIds: ["au_ada", "au_gone"],
  coverImageUrl: "https://images.example.com/spring.jpg",
  coverImageAlt: "A field of <tulips>",
  featured: true,
  metaTitle: "Spring & more",
  metaDescription: "What shipped.",
  canonicalUrl: "https://example.com/spring",
  socialImageUrl: null,
  readingTimeMinutes: 1,
  createdAt: new Date("2026-01-01T00:00:00Z"),
  updatedAt: new Date("2026-01-03T00:00:00Z"),
  releasedAt: new Date("2026-01-02T00:00:00Z"),
  removedAt: null,
  revision: "r1",
  searchTerms: ["spring"],
  titleKey: "spring release notes",
};

// Ada exists; the second author the blog names was removed since: left out (openapi.yaml, "Authors").
const ada = {
  _id: "au_ada",
  name: "Ada <Lovelace>",
  slug: "ada-lovelace",
  bio: "Engines & numbers.\nPoems too.",
  avatarUrl: null,
  websiteUrl: "https://example.com/ada",
  createdAt: new Date("2026-01-01T00:00:00Z"),
  updatedAt: new Date("2026-01-04T00:00:00Z"),
};
const joined = authorsJoined([ada]);
const toBlog = (stored: Parameters<typeof toBlogWith>[0]) => toBlogWith(stored, joined);
const partialOf = (stored: ProjectedBlogDoc, selection: Parameters<typeof toPartialBlog>[1]) =>
  toPartialBlog(stored, selection, joined);

const project = (fields: Readonly<Record<string, 1>>): ProjectedBlogDoc => {
  const read: Record<string, unknown> = { _id: doc._id, updatedAt: doc.updatedAt };
  read.releasedAt = doc.releasedAt;
  for (const name of Object.keys(fields)) read[name] = doc[name as keyof BlogDoc];
  return read as ProjectedBlogDoc;
};

describe("one Blog view (openapi.yaml, Blog and Choosing fields)", () => {
  it("toBlog sends every property in the Blog schema's order", () => {
    const blog = toBlog(doc);
    expect(Object.keys(blog)).toEqual([...BLOG_FIELDS]);
    expect(JSON.stringify(blog)).toBe(
      '{"id":"b_7KcXw2Qm9TfL3pZa","slug":"spring-release-notes","title":"Spring <release> notes",' +
        '"excerpt":"Everything that shipped & more.","bodyMarkdown":"# Spring\\n\\nText.",' +
        '"bodyHtml":"<h1>Spring</h1>\\n<p>Text.</p>\\n","tags":["release-notes","product"],' +
        '"authorName":"Ada <Lovelace>","authors":[{"id":"au_ada","slug":"ada-lovelace",' +
        '"name":"Ada <Lovelace>","bio":"Engines & numbers.\\nPoems too.","avatarUrl":null,' +
        '"websiteUrl":"https://example.com/ada"}],' +
        '"coverImageUrl":"https://images.example.com/spring.jpg",' +
        '"coverImageAlt":"A field of <tulips>","coverImage":null,"featured":true,' +
        '"metaTitle":"Spring & more",' +
        '"metaDescription":"What shipped.","canonicalUrl":"https://example.com/spring",' +
        '"socialImageUrl":null,"readingTimeMinutes":1,"releasedAt":"2026-01-02T00:00:00.000Z",' +
        '"updatedAt":"2026-01-03T00:00:00.000Z"}',
    );
  });

  it("a blog stored before the presentation fields existed sends null, false and 0 for them", () => {
    const {
      coverImageAlt: _a,
      featured: _f,
      metaTitle: _t,
      metaDescription: _d,
      canonicalUrl: _c,
      socialImageUrl: _s,
      readingTimeMinutes: _r,
      ...older
    } = doc;
    expect(toBlog(older)).toMatchObject({
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
      readingTimeMinutes: 0,
    });
  });

  it("a cover that is a library image gets its size; one elsewhere, or of another name, gets null", () => {
    const url = "https://press.example.com/api/consumer/media/med_abc123/spring.jpg";
    const covers = authorsJoined(
      [ada],
      new Map([["med_abc123", { _id: "med_abc123", name: "spring.jpg", width: 800, height: 600 }]]),
    );
    expect(toBlogWith({ ...doc, coverImageUrl: url }, covers).coverImage).toEqual({
      url,
      width: 800,
      height: 600,
      alt: "A field of <tulips>",
    });
    expect(
      toBlogWith({ ...doc, coverImageUrl: url, coverImageAlt: null }, covers).coverImage,
    ).toMatchObject({ alt: "" });
    for (const elsewhere of [
      "https://images.example.com/spring.jpg",
      "https://press.example.com/api/consumer/media/med_abc123/other.jpg",
      `${url}?w=640`,
      "https://press.example.com/api/consumer/media/med_gone/spring.jpg",
    ]) {
      expect(toBlogWith({ ...doc, coverImageUrl: elsewhere }, covers).coverImage).toBeNull();
    }
  });

  it("a blog that names no author (or only removed ones) has no authors and its byline as authorName", () => {
    expect(toBlogWith(doc, NO_AUTHORS)).toMatchObject({ authorName: "Ada Lovelace", authors: [] });
    const { authorIds: _ids, ...older } = doc;
    expect(toBlog(older)).toMatchObject({ authorName: "Ada Lovelace", authors: [] });
    expect(toBlog({ ...doc, authorIds: ["au_gone"] })).toMatchObject({ authors: [] });
  });

  it("a blog never released is sent with its updatedAt as releasedAt", () => {
    expect(toBlog({ ...doc, releasedAt: null }).releasedAt).toBe("2026-01-03T00:00:00.000Z");
  });

  it("each selected property is exactly the whole Blog's, read from its projection alone", () => {
    const whole = toBlog(doc);
    for (const name of BLOG_FIELDS) {
      const selection = parseFields(name);
      if (selection === null) throw new Error("a single name is a selection");
      const partial = partialOf(project(selection.projection), selection);
      expect(partial).toEqual({ id: whole.id, [name]: whole[name] });
      expect(Object.keys(selection.projection).sort()).toEqual(
        [...new Set([...BLOG_VIEW.id.stored, ...BLOG_VIEW[name].stored])].sort(),
      );
    }
  });

  it("every property but one is the whole Blog less that one, in the same order", () => {
    for (const left of BLOG_FIELDS.filter((name) => name !== "id")) {
      const selection = parseFields(BLOG_FIELDS.filter((name) => name !== left).join(","));
      if (selection === null) throw new Error("not every name");
      const { [left]: _left, ...rest } = toBlog(doc);
      expect(JSON.stringify(partialOf(project(selection.projection), selection))).toBe(
        JSON.stringify(rest),
      );
    }
  });

  it("a projection that missed a stored field is a bug (500), never a property left out", () => {
    const selection = parseFields("id,title");
    if (selection === null) throw new Error("a selection");
    expect(() => partialOf(project({}), selection)).toThrow("Blog field title was not read.");
  });
});

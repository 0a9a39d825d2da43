import { describe, expect, it } from "vitest";
import { inputOf, parseTags, patchOf } from "../dashboard/src/blog-draft.js";
import { timeAgo } from "../dashboard/src/time.js";
import type { components } from "../openapi/generated/admin.js";

type AdminBlog = components["schemas"]["AdminBlog"];

describe("dashboard relative times", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("reads like “just now”, “42 seconds ago”, “3 minutes ago”, “yesterday”", () => {
    expect(timeAgo(ago(2), now)).toBe("just now");
    expect(timeAgo(ago(-30), now)).toBe("just now"); // a server clock slightly ahead
    expect(timeAgo(ago(42), now)).toBe("42 seconds ago");
    expect(timeAgo(ago(3 * 60 + 20), now)).toBe("3 minutes ago");
    expect(timeAgo(ago(2 * 3600), now)).toBe("2 hours ago");
    expect(timeAgo(ago(26 * 3600), now)).toBe("yesterday");
    expect(timeAgo(ago(40 * 86400), now)).toBe("last month");
  });
});

describe("dashboard blog drafts", () => {
  const blog: AdminBlog = {
    id: "b_1",
    status: "draft",
    slug: "hello",
    title: "Hello",
    excerpt: "Derived.",
    bodyMarkdown: "Body",
    bodyHtml: "<p>Body</p>",
    tags: ["news"],
    authorName: "Ada",
    coverImageUrl: null,
    createdAt: "2025-06-01T12:00:00.000Z",
    updatedAt: "2025-06-01T12:00:00.000Z",
    releasedAt: null,
  };
  const draft = {
    title: "Hello",
    slug: "hello",
    tags: "news",
    coverImageUrl: "",
    excerpt: "Derived.",
    authorName: "Ada",
    bodyMarkdown: "Body",
  };

  it("tags are comma-separated, trimmed and de-duplicated", () => {
    expect(parseTags(" news, Release notes ,, news ")).toEqual(["news", "Release notes"]);
  });

  it("a save sends only the fields that changed, and nothing when none did", () => {
    expect(patchOf(blog, draft)).toEqual({});
    expect(patchOf(blog, { ...draft, bodyMarkdown: "New", tags: "news, launch" })).toEqual({
      bodyMarkdown: "New",
      tags: ["news", "launch"],
    });
    expect(patchOf(blog, { ...draft, slug: "" })).toEqual({}); // an emptied slug keeps the old one
    expect(patchOf(blog, { ...draft, coverImageUrl: "https://img.example/c.png" })).toEqual({
      coverImageUrl: "https://img.example/c.png",
    });
  });

  it("an excerpt typed over several lines is sent as one line (the spec refuses line breaks)", () => {
    const excerpt = "  First line,\r\nsecond\tline.\n\n";
    expect(patchOf(blog, { ...draft, excerpt }).excerpt).toBe("First line, second line.");
    expect(inputOf({ ...draft, excerpt }).excerpt).toBe("First line, second line.");
  });

  it("a new blog leaves empty optional fields to the server", () => {
    expect(inputOf({ ...draft, slug: "", excerpt: " ", authorName: "" })).toEqual({
      title: "Hello",
      bodyMarkdown: "Body",
      tags: ["news"],
      coverImageUrl: null,
    });
  });
});

import { describe, expect, it } from "vitest";
import { inputOf, parseTags, patchOf } from "../dashboard/src/blog-draft.js";
import { renderMarkdown } from "../dashboard/src/markdown.js";
import { timeAgo } from "../dashboard/src/time.js";
import type { components } from "../openapi/generated/admin.js";

type AdminBlog = components["schemas"]["AdminBlog"];

/** Every tag the preview may produce; anything else means input leaked through as markup. */
const SAFE_TAG =
  /^\/?(h[1-6]|p|strong|em|code|pre|ul|ol|li|blockquote)$|^\/a$|^a href="https?:\/\/[^"<>]*" rel="noopener noreferrer nofollow"$/;
const tagsOf = (html: string): string[] => [...html.matchAll(/<([^>]*)>/g)].map((m) => m[1] ?? "");

describe("dashboard Markdown preview renderer", () => {
  it("renders headings, paragraphs, emphasis, code, lists, quotes and http(s) links", () => {
    const html = renderMarkdown(
      "# Title\n\nSome **bold**, *italic* and `x < y` text with [a link](https://example.com/a_b).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```\nif (a && b) {}\n```",
    );
    expect(html).toBe(
      [
        "<h1>Title</h1>",
        '<p>Some <strong>bold</strong>, <em>italic</em> and <code>x &lt; y</code> text with <a href="https://example.com/a_b" rel="noopener noreferrer nofollow">a link</a>.</p>',
        "<ul><li>one</li><li>two</li></ul>",
        "<ol><li>first</li><li>second</li></ol>",
        "<blockquote><p>quoted</p></blockquote>",
        "<pre><code>if (a &amp;&amp; b) {}</code></pre>",
      ].join("\n"),
    );
  });

  it("escapes raw HTML and drops links that are not http(s)", () => {
    const html = renderMarkdown(
      '<img src=x onerror="alert(1)"> [click](javascript:alert(1)) [d](data:text/html,x) [ok](https://a.example/"onmouseover="x)',
    );
    expect(html).not.toMatch(/<img|<script|href="javascript|href="data/);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(tagsOf(html).every((t) => SAFE_TAG.test(t))).toBe(true);
  });

  it("never emits a tag or attribute outside its safe subset, whatever the input (fuzzed)", () => {
    const alphabet = [
      "<",
      ">",
      '"',
      "'",
      "&",
      "*",
      "_",
      "`",
      "[",
      "]",
      "(",
      ")",
      "#",
      "-",
      "1.",
      "\n",
      "> ",
      "```",
      " ",
      "a",
      "script",
      "javascript:",
      "https://x.example/",
      "[x](https://x.example/",
      "[x](javascript:",
      "onerror=",
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let links = 0;
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 40);
      const source = Array.from(
        { length },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join("");
      const html = renderMarkdown(source);
      const bad = tagsOf(html).filter((t) => !SAFE_TAG.test(t));
      expect(bad, `input ${JSON.stringify(source)} gave ${html}`).toEqual([]);
      if (html.includes("<a ")) links++;
    }
    expect(links).toBeGreaterThan(50); // the fuzzing did reach the link code
  });
});

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

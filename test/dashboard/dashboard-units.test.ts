import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  committedTags,
  draftOf,
  inputOf,
  parseTags,
  patchOf,
} from "../../dashboard/src/features/blogs/blog-draft.js";
import { timeAgo } from "../../dashboard/src/time.js";
import type { components } from "../../openapi/generated/admin.js";
import {
  adminLimits,
  adminQueryLimits,
  type FieldLimits,
} from "../../openapi/generated/admin-limits.js";

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
    version: "v1",
    pendingChanges: false,
    schedule: { publishAt: null, unreleaseAt: null },
    status: "draft",
    slug: "hello",
    title: "Hello",
    excerpt: "Derived.",
    bodyMarkdown: "Body",
    bodyHtml: "<p>Body</p>",
    tags: ["news"],
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
  const draft = { ...draftOf(blog) };

  it("tags are comma-separated, trimmed and de-duplicated", () => {
    expect(parseTags(" news, Release notes ,, news ")).toEqual(["news", "Release notes"]);
  });

  it("tags are committed in the server's normal form (openapi.yaml, Tags), or the first that cannot be is named", () => {
    expect(committedTags(" Release  Notes, release-notes, ＣＡＦＥ\u0301 ")).toEqual({
      tags: ["release-notes", "café"],
      problem: null,
    });
    expect(committedTags("ok, zero\u200bwidth").problem).toContain("U+200B");
    expect(inputOf({ ...draft, tags: "News, NEWS, c++" }).tags).toEqual(["news", "c++"]);
    expect(patchOf(blog, { ...draft, tags: "NEWS" })).toEqual({});
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

describe("the dashboard's form limits are admin.yaml's", () => {
  // admin.yaml read here on its own, by JSON pointer, not through openapi/generate-limits.ts.
  const spec: unknown = parse(readFileSync("openapi/admin.yaml", "utf8"));
  const at = (pointer: string): Record<string, unknown> => {
    const node = pointer
      .split("/")
      .slice(1)
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>(
        (parent, part) =>
          typeof parent === "object" && parent !== null
            ? (parent as Record<string, unknown>)[part]
            : undefined,
        spec,
      );
    if (typeof node !== "object" || node === null) throw new Error(`admin.yaml has no ${pointer}`);
    return node as Record<string, unknown>;
  };
  const schema = (name: string, field: string) => `/components/schemas/${name}/properties/${field}`;
  const mintKeyName =
    "/paths/~1workspaces~1{workspaceId}~1keys/post/requestBody/content/application~1json/schema/properties/name";

  // Every limit a form sets (dashboard/src/features), with the spec's field it must equal.
  const used: [
    form: string,
    limits: FieldLimits,
    pointer: string,
    keywords: (keyof FieldLimits)[],
  ][] = [
    ["setup name", adminLimits.runSetup.name, schema("SetupRequest", "name"), ["maxLength"]],
    ["setup email", adminLimits.runSetup.email, schema("SetupRequest", "email"), ["maxLength"]],
    [
      "setup password",
      adminLimits.runSetup.password,
      schema("SetupRequest", "password"),
      ["minLength", "maxLength"],
    ],
    [
      "setup workspace name",
      adminLimits.runSetup.workspaceName,
      schema("SetupRequest", "workspaceName"),
      ["maxLength"],
    ],
    [
      "new workspace name",
      adminLimits.createWorkspace.name,
      schema("WorkspaceInput", "name"),
      ["maxLength"],
    ],
    ["key name", adminLimits.mintKey.name, mintKeyName, ["maxLength"]],
    ["blog title", adminLimits.createBlog.title, schema("BlogInput", "title"), ["maxLength"]],
    [
      "blog slug",
      adminLimits.createBlog.slug,
      schema("BlogInput", "slug"),
      ["maxLength", "pattern"],
    ],
    [
      "blog author",
      adminLimits.createBlog.authorName,
      schema("BlogInput", "authorName"),
      ["maxLength"],
    ],
    ["blog excerpt", adminLimits.createBlog.excerpt, schema("BlogInput", "excerpt"), ["maxLength"]],
    [
      "blog body",
      adminLimits.createBlog.bodyMarkdown,
      schema("BlogInput", "bodyMarkdown"),
      ["maxLength"],
    ],
    // The blog list's search box, and the `q` it sends to the list and the counts.
    [
      "blog search",
      adminQueryLimits.listAdminBlogs.q,
      "/components/parameters/BlogSearch/schema",
      ["maxLength"],
    ],
    [
      "blog counts search",
      adminQueryLimits.countAdminBlogs.q,
      "/components/parameters/BlogSearch/schema",
      ["maxLength"],
    ],
    // A cover image URL is null, empty, or an http(s) URL of at most this length.
    [
      "blog cover image URL",
      adminLimits.createBlog.coverImageUrl,
      "/components/schemas/CoverImageUrlInput/anyOf/2",
      ["maxLength"],
    ],
    // The search and social fields: plain text (null or a string), or PublicUrlInput.
    [
      "blog alt text",
      adminLimits.createBlog.coverImageAlt,
      `${schema("BlogInput", "coverImageAlt")}/anyOf/1`,
      ["maxLength", "pattern"],
    ],
    [
      "blog meta title",
      adminLimits.createBlog.metaTitle,
      `${schema("BlogInput", "metaTitle")}/anyOf/1`,
      ["maxLength", "pattern"],
    ],
    [
      "blog meta description",
      adminLimits.createBlog.metaDescription,
      `${schema("BlogInput", "metaDescription")}/anyOf/1`,
      ["maxLength", "pattern"],
    ],
    [
      "blog canonical URL",
      adminLimits.createBlog.canonicalUrl,
      "/components/schemas/PublicUrlInput/anyOf/2",
      ["maxLength"],
    ],
    [
      "blog social image URL",
      adminLimits.createBlog.socialImageUrl,
      "/components/schemas/PublicUrlInput/anyOf/2",
      ["maxLength"],
    ],
  ];

  for (const [form, limits, pointer, keywords] of used) {
    it(`${form}: ${keywords.join(", ")} as in admin.yaml ${pointer.replace("/components/schemas/", "")}`, () => {
      for (const keyword of keywords) {
        const expected = at(pointer)[keyword];
        expect(expected, `admin.yaml ${pointer} has no ${keyword}`).toBeDefined();
        expect(limits[keyword], keyword).toBe(expected);
      }
    });
  }

  it("the editor's limits (a new blog's) hold for an edit too: BlogPatch's equal BlogInput's", () => {
    expect(adminLimits.updateBlog).toEqual(adminLimits.createBlog);
  });

  it("no form copies a limit: dashboard/src sets none as a literal", () => {
    const files = readdirSync("dashboard/src", { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => path.join("dashboard/src", file));
    expect(files.length).toBeGreaterThan(10);
    const literal =
      /\b(minLength|maxLength|pattern|min|max|minItems|maxItems)\s*=\s*(\{\s*[-\d"'`]|["'`])|\b\d+ characters\b/;
    const copies = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => literal.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(copies).toEqual([]);
  });
});

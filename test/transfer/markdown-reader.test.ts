import { mkdir, mkdtemp, truncate, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportInputError } from "../../server/src/transfer/import-set.js";
import { readMarkdownFolder } from "../../server/src/transfer/markdown-reader.js";

// The Markdown folder importer's reader (server/src/transfer/markdown-reader.ts and
// markdown-fields.ts, their headers state the rules; README, "Import and export").

async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "markdown-reader-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  return root;
}

const read = (root: string) => readMarkdownFolder(root, {});

async function problemsOf(root: string) {
  const err = await read(root).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportInputError);
  return err instanceof ImportInputError ? err.problems : [];
}

const GOOD = `---
title: "Hello: world"
slug: hello
tags: [News, "Café Culture"]
date: 2024-03-01
author: Ada
excerpt: |
  A short
  one.
cover: https://example.org/c.jpg
layout: post
---
Body **here**.
`;

describe("happy: a folder of Markdown files becomes blogs (markdown-reader.ts header)", () => {
  it("maps front matter: title, slug, tags as a list, date as released, author, excerpt, cover", async () => {
    const root = await folder({ "hello.md": GOOD });
    const set = await read(root);
    expect(set.blogs).toEqual([
      {
        sourceKey: "markdown:hello.md",
        origin: "hello.md",
        title: "Hello: world",
        slug: "hello",
        status: "released",
        bodyMarkdown: "Body **here**.\n",
        excerpt: "A short one.",
        tags: ["news", "café-culture"],
        authorName: "Ada",
        coverImageUrl: "https://example.org/c.jpg",
        coverImageAlt: null,
        featured: false,
        metaTitle: null,
        metaDescription: null,
        canonicalUrl: null,
        socialImageUrl: null,
        createdAt: new Date("2024-03-01T00:00:00Z"),
        updatedAt: new Date("2024-03-01T00:00:00Z"),
        releasedAt: new Date("2024-03-01T00:00:00Z"),
        removedAt: null,
      },
    ]);
    expect(set.notes).toContain("Front matter keys not imported: layout (1).");
  });

  it("walks nested folders in sorted order; tags as a comma string; draft: true is a draft; slug from the file or folder name", async () => {
    const root = await folder({
      "b/Second Post.markdown": "---\ntitle: Two\ntags: a, b ,  A\ndraft: true\n---\nx\n",
      "a/deep/index.md": "---\ntitle: Deep\ndate: 2024-05-06T07:08:09+02:00\n---\ny\n",
      "c.md": "# From the heading\n\nText.\n",
      ".hidden/x.md": "---\ntitle: hidden\n---\n",
      "notes.txt": "not markdown",
    });
    await utimes(
      path.join(root, "c.md"),
      new Date("2020-01-02T03:04:05Z"),
      new Date("2020-01-02T03:04:05Z"),
    );
    const set = await read(root);
    expect(
      set.blogs.map((b) => [b.sourceKey, b.slug, b.title, b.status, b.tags, b.releasedAt]),
    ).toEqual([
      [
        "markdown:a/deep/index.md",
        "deep",
        "Deep",
        "released",
        [],
        new Date("2024-05-06T05:08:09Z"),
      ],
      ["markdown:b/Second Post.markdown", "second-post", "Two", "draft", ["a", "b"], null],
      ["markdown:c.md", "c", "From the heading", "released", [], new Date("2020-01-02T03:04:05Z")],
    ]);
    expect(set.blogs[2]?.bodyMarkdown).toBe("Text.\n");
    // A file with no date: its modification time, and the note says what that means on re-import.
    expect(set.notes).toContain(
      "2 file(s) have no date: their modification time was used. A copy or a fresh clone changes it, and importing again then updates those blogs (a blog.updated event for each released one); give them a date: in front matter to keep them stable.",
    );
    expect(set.skipped).toEqual([
      { origin: "notes.txt", reason: "not a Markdown file (.md, .markdown)" },
    ]);
  });

  it("reads a file with Windows line ends (CRLF) like any other (no front matter lost)", async () => {
    const root = await folder({ "win.md": "---\r\ntitle: Win\r\ntags: [a]\r\n---\r\nBody.\r\n" });
    const [blog] = (await read(root)).blogs;
    expect([blog?.title, blog?.tags, blog?.bodyMarkdown]).toEqual(["Win", ["a"], "Body.\r\n"]);
  });

  it("reports progress as files are read, ending at the total", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 250; i++) files[`p${i}.md`] = `---\ntitle: P${i}\n---\n`;
    const root = await folder(files);
    const calls: number[] = [];
    await readMarkdownFolder(root, { onProgress: (_s, done) => calls.push(done) });
    expect(calls.at(-1)).toBe(250);
    expect(calls).toEqual([...calls].sort((a, b) => a - b));
  });
});

describe("error: every bad file is listed at once, each with its file:line", () => {
  it("bad YAML, a bad date, a missing title, a bad slug, a duplicate slug, a bad draft flag, not UTF-8", async () => {
    const root = await folder({
      "good.md": GOOD,
      "bad-yaml.md": "---\ntitle: ok\ntags: [a, b\n---\nbody\n",
      "bad-date.md": "---\ntitle: When\n\ndate: 2024-02-30\n---\n",
      "no-title.md": "---\ntags: x\n---\nJust text.\n",
      "bad-slug.md": "---\ntitle: S\nslug: Not OK\n---\n",
      "dup/hello.md": "---\ntitle: Again\n---\n",
      "flag.md": "---\ntitle: F\ndraft: yes\n---\n",
      "unclosed.md": "---\ntitle: U\n",
      "latin1.md": new Uint8Array([0x23, 0x20, 0xe9, 0x0a]),
    });
    const problems = await problemsOf(root);
    expect(problems.map((p) => p.where)).toEqual([
      "bad-date.md:4",
      "bad-slug.md:3",
      "bad-yaml.md:4",
      "flag.md:3",
      "good.md:3",
      "latin1.md",
      "no-title.md:1",
      "unclosed.md:1",
    ]);
    const message = (where: string) => problems.find((p) => p.where === where)?.message;
    expect(message("bad-date.md:4")).toBe(
      'date "2024-02-30" is not a date (YYYY-MM-DD or an ISO date-time)',
    );
    expect(message("bad-yaml.md:4")).toMatch(/^front matter is not valid YAML/);
    expect(message("bad-slug.md:3")).toContain('(try "not-ok")');
    expect(message("good.md:3")).toBe(
      'slug "hello" is also the slug of dup/hello.md (set a distinct slug: in front matter)',
    );
    expect(message("no-title.md:1")).toContain("has no title");
    expect(message("latin1.md")).toBe("is not UTF-8 text");
  });

  it("a source that is not a folder", async () => {
    const [problem] = await problemsOf(path.join(tmpdir(), "no-such-folder-for-import"));
    expect(problem?.message).toMatch(/^is not a readable folder/);
  });

  it("a file over 1 MiB is refused by its size, unread (a blog body is at most 200,000 characters)", async () => {
    const root = await folder({
      "ok.md": "---\ntitle: Fine\n---\nx\n",
      "huge.md": "",
      "big.md": "",
    });
    await writeFile(path.join(root, "big.md"), "x".repeat(1024 * 1024 + 1));
    // 3 GiB, sparse: reading it whole would fail (Node refuses files over 2 GiB) or take long.
    await truncate(path.join(root, "huge.md"), 3 * 1024 ** 3);
    expect(await problemsOf(root)).toEqual([
      {
        where: "big.md",
        message:
          "is 1048577 bytes, over the 1048576-byte limit of a Markdown file (a blog body is at most 200000 characters); not read.",
      },
      {
        where: "huge.md",
        message:
          "is 3221225472 bytes, over the 1048576-byte limit of a Markdown file (a blog body is at most 200000 characters); not read.",
      },
    ]);
  });
});

describe("happy: the presentation and search fields come from front matter (README, 'Import and export')", () => {
  it("each field under each of its names: metaTitle, metaDescription, canonicalUrl, socialImage, coverAlt, featured; image is not read", async () => {
    const root = await folder({
      "a.md": [
        "---",
        "title: A",
        "metaTitle: '  Search title  '",
        "metaDescription: For search",
        "canonicalUrl: https://old.example/a",
        "socialImage: https://cdn.example/a.png",
        "coverAlt: A lake",
        "featured: true",
        "---",
        "x",
      ].join("\n"),
      "b.md": [
        "---",
        "title: B",
        "meta_title: B title",
        "meta_description: >",
        "  B on",
        "  two lines",
        "canonical_url: https://old.example/b",
        "social_image: https://cdn.example/b.png",
        "cover_alt: B alt",
        "---",
        "x",
      ].join("\n"),
      "c.md": [
        "---",
        "title: C",
        "description: C desc",
        "canonical: https://old.example/c",
        "og_image: https://cdn.example/c.png",
        "coverImageAlt: C alt",
        "featured: false",
        "image: https://cdn.example/not-read.png",
        "---",
        "x",
      ].join("\n"),
      "d.md": "---\ntitle: D\n---\nx\n",
    });
    const set = await read(root);
    const fields = set.blogs.map((b) => [
      b.origin,
      b.metaTitle,
      b.metaDescription,
      b.canonicalUrl,
      b.socialImageUrl,
      b.coverImageAlt,
      b.featured,
    ]);
    expect(fields).toEqual([
      [
        "a.md",
        "Search title",
        "For search",
        "https://old.example/a",
        "https://cdn.example/a.png",
        "A lake",
        true,
      ],
      [
        "b.md",
        "B title",
        "B on two lines",
        "https://old.example/b",
        "https://cdn.example/b.png",
        "B alt",
        false,
      ],
      [
        "c.md",
        null,
        "C desc",
        "https://old.example/c",
        "https://cdn.example/c.png",
        "C alt",
        false,
      ],
      ["d.md", null, null, null, null, null, false],
    ]);
    expect(set.notes).toContain("Front matter keys not imported: image (1).");
  });

  it("a wrong type or a URL the cover's rule refuses is a problem at its line, as for the other keys", async () => {
    const root = await folder({
      "flag.md": "---\ntitle: F\nfeatured: yes\n---\n",
      "list.md": "---\ntitle: L\n\nmetaTitle: [a, b]\n---\n",
      "relative.md": "---\ntitle: R\ncanonical_url: /posts/r\n---\n",
      "secret.md": "---\ntitle: S\nsocialImage: https://u:pw@cdn.example/s.png\n---\n",
    });
    const problems = await problemsOf(root);
    expect(problems).toEqual([
      { where: "flag.md:3", message: 'featured must be true or false, not "yes"' },
      { where: "list.md:4", message: "metaTitle must be text" },
      { where: "relative.md:3", message: "canonical_url must be an absolute http(s) URL" },
      { where: "secret.md:3", message: "socialImage must not carry a user name or password" },
    ]);
    expect(JSON.stringify(problems)).not.toContain("pw@");
  });
});

import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../server/src/blogs/render.js";
import { ghostBodyConverter } from "../../server/src/transfer/ghost-body.js";
import { readGhostExport } from "../../server/src/transfer/ghost-reader.js";
import type { ImportBlog, ImportSet } from "../../server/src/transfer/import-set.js";
import { ImportInputError } from "../../server/src/transfer/import-set.js";

// The Ghost importer's reader (server/src/transfer/ghost-reader.ts, its header states the mapping;
// README, "Import and export"), against a real Ghost 6.65 export (test/fixtures/ghost-6.65-export.json).

const FIXTURE = path.join(import.meta.dirname, "../fixtures/ghost-6.65-export.json");
const read = (file = FIXTURE, onProgress?: (s: string, d: number, t: number) => void) =>
  readGhostExport(file, { onProgress });
const bySlug = (set: ImportSet, slug: string): ImportBlog => {
  const blog = set.blogs.find((b) => b.slug === slug);
  if (blog === undefined) throw new Error(`no blog ${slug}`);
  return blog;
};
const at = (iso: string) => new Date(iso);

async function writeTemp(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "ghost-reader-"));
  await writeFile(path.join(dir, name), content);
  return path.join(dir, name);
}

async function problemsOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportInputError);
  return err instanceof ImportInputError ? err.problems : [];
}

describe("happy: a Ghost export's posts become blogs (ghost-reader.ts header)", () => {
  it("maps each post exactly: slug, status, releasedAt, tags, author, excerpt, cover", async () => {
    const set = await read();
    const row = (b: ImportBlog) => [
      b.sourceKey,
      b.slug,
      b.status,
      b.releasedAt?.toISOString() ?? null,
      b.tags.join(","),
      b.authorName,
      b.excerpt ?? null,
      b.coverImageUrl,
    ];
    const released = "2026-11-23T09:01:2";
    expect(set.format).toBe("ghost");
    expect(set.blogs.map(row)).toEqual([
      [
        "ghost:6b0400d0b4403b31eeca7d3c",
        "coming-soon",
        "released",
        "2026-11-23T09:01:04.000Z",
        "news",
        "Ada Editor",
        null,
        "https://static.ghost.org/v4.0.0/images/feature-image.jpg",
      ],
      [
        "ghost:6b0400e1b4403b31eeca7fb5",
        "hello-world",
        "released",
        `${released}1.000Z`,
        "news",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e1b4403b31eeca7fba",
        "release-notes-1-2",
        "released",
        `${released}1.000Z`,
        "releases,engineering",
        "Ada Editor",
        "Faster lists and tag filters.",
        null,
      ],
      [
        "ghost:6b0400e1b4403b31eeca7fc4",
        "draft-roadmap",
        "draft",
        null,
        "roadmap",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e1b4403b31eeca7fcb",
        "scheduled-launch",
        "draft",
        null,
        "news",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e1b4403b31eeca7fd0",
        "unicode-cafe-ri-ben-yu-emoji",
        "released",
        `${released}1.000Z`,
        "café-culture",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e2b4403b31eeca7fd7",
        "images-and-quotes",
        "released",
        `${released}2.000Z`,
        "essays",
        "Ada Editor",
        null,
        "https://example.org/feature.jpg",
      ],
      [
        "ghost:6b0400e2b4403b31eeca7fde",
        "a-long-read",
        "released",
        `${released}2.000Z`,
        "essays,engineering",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e2b4403b31eeca7fe4",
        "same-title",
        "released",
        `${released}2.000Z`,
        "",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e2b4403b31eeca7fe8",
        "same-title-2",
        "released",
        `${released}2.000Z`,
        "",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e2b4403b31eeca7fec",
        "old-draft-never-published",
        "draft",
        null,
        "",
        "Ada Editor",
        null,
        null,
      ],
      [
        "ghost:6b0400e2b4403b31eeca7ff4",
        "published-then-pulled",
        "draft",
        null,
        "news",
        "Ada Editor",
        null,
        null,
      ],
    ]);
    const coming = bySlug(set, "coming-soon");
    expect([coming.createdAt, coming.updatedAt]).toEqual([
      at("2026-11-23T09:01:04Z"),
      at("2026-11-23T09:01:20Z"),
    ]);
    expect(set.blogs.every((b) => b.removedAt === null)).toBe(true);
  });

  it("keeps a scheduled post's time to come as the draft's scheduled release (admin.yaml, Schedules); a passed or too distant one is a note", async () => {
    const scheduled = (set: ImportSet) => set.blogs.find((b) => b.slug === "scheduled-launch");
    const at = new Date("2027-01-15T09:00:00.000Z");
    const before = await readGhostExport(FIXTURE, { now: new Date("2026-12-01T00:00:00Z") });
    expect(scheduled(before)).toMatchObject({ status: "draft", publishAt: at, releasedAt: null });
    expect(before.notes).toContain(
      'posts[5] "scheduled-launch": scheduled in Ghost for 2027-01-15T09:00:00.000Z; imported as a draft released at that time.',
    );
    const after = await readGhostExport(FIXTURE, { now: new Date("2027-02-01T00:00:00Z") });
    expect(scheduled(after)?.publishAt).toBeUndefined();
    expect(after.notes).toContain(
      'posts[5] "scheduled-launch": scheduled in Ghost for 2027-01-15T09:00:00.000Z, a time that has passed; imported as a draft with nothing scheduled.',
    );
    const long = await readGhostExport(FIXTURE, { now: new Date("2025-06-01T00:00:00Z") });
    expect(scheduled(long)?.publishAt).toBeUndefined();
    expect(long.notes.some((n) => n.includes("more than 366 days ahead"))).toBe(true);
  });

  it("skips pages with a reason, and imports scheduled and pulled-back posts as drafts with a note", async () => {
    const set = await readGhostExport(FIXTURE, { now: new Date("2026-12-01T00:00:00Z") });
    expect(set.skipped.filter((s) => s.origin.startsWith("posts"))).toEqual([
      { origin: 'posts[1] "about"', reason: expect.stringContaining("a Ghost page") },
      { origin: 'posts[12] "about-2"', reason: expect.stringContaining("a Ghost page") },
    ]);
    expect(set.notes).toContain(
      'posts[5] "scheduled-launch": scheduled in Ghost for 2027-01-15T09:00:00.000Z; imported as a draft released at that time.',
    );
    expect(
      set.notes.some((n) =>
        n.startsWith('posts[13] "published-then-pulled": published in Ghost on'),
      ),
    ).toBe(true);
  });

  it("keeps the distinct slugs of posts with the same title, and unicode titles and tags intact", async () => {
    const set = await read();
    const same = set.blogs.filter((b) => b.title === "Same title").map((b) => b.slug);
    expect(same).toEqual(["same-title", "same-title-2"]);
    const unicode = bySlug(set, "unicode-cafe-ri-ben-yu-emoji");
    expect(unicode.title).toBe("Unicode — café, 日本語, emoji 🎉");
    expect(unicode.tags).toEqual(["café-culture"]);
    expect(unicode.bodyMarkdown).toBe("Accents and scripts: naïve café, 日本語, עברית.");
  });

  it("converts bodies to Markdown that renders: code keeps its language, quotes and images survive", async () => {
    const set = await read();
    const notes = bySlug(set, "release-notes-1-2");
    expect(notes.bodyMarkdown).toContain("## What changed");
    expect(notes.bodyMarkdown).toContain("```js\nconst x = 1;\n```");
    const html = renderMarkdown(notes.bodyMarkdown);
    expect(html).toContain("<h2>What changed</h2>");
    expect(html).toContain('<code class="language-js">const x = 1;');
    expect(html).toMatch(/<li>Faster lists<\/li>\s*<li>Tag filters<\/li>/);
    const quotes = renderMarkdown(bySlug(set, "images-and-quotes").bodyMarkdown);
    expect(quotes).toMatch(/<blockquote>\s*<p>Simplicity is prerequisite for reliability.<\/p>/);
    expect(quotes).toContain('<img src="https://example.org/cover.jpg" alt="Cover" />');
    const hello = renderMarkdown(bySlug(set, "hello-world").bodyMarkdown);
    expect(hello).toContain(
      'Our <strong>first</strong> post, with a <a href="https://example.org"',
    );
    expect(set.notes[0]).toBe(
      "Ghost 6.65.0: 12 posts read (0 bodies from Markdown cards as they are, 12 converted from HTML).",
    );
  });

  it("takes a body made of Markdown cards verbatim, and turns cards with no Markdown form into links, images and text", () => {
    const convert = ghostBodyConverter();
    const lexical = JSON.stringify({
      root: { children: [{ type: "markdown", markdown: "# Hi\n\n```py\nx = 1\n```" }] },
    });
    expect(convert({ lexical, html: "<h1>not this</h1>" })).toMatchObject({
      markdown: "# Hi\n\n```py\nx = 1\n```",
      source: "markdown-cards",
    });
    const cards = convert({
      html:
        '<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="https://example.org/a"><div class="kg-bookmark-title">A page</div></a></figure>' +
        '<figure class="kg-card kg-embed-card"><iframe src="https://www.youtube.com/embed/x"></iframe></figure>' +
        '<div class="kg-card kg-signup-card"><form><input type="email"></form></div><!--members-only-->' +
        '<figure class="kg-card kg-gallery-card"><div class="kg-gallery-image"><img src="__GHOST_URL__/content/images/a.jpg" alt="A"></div></figure>',
    });
    expect(cards.markdown).toBe(
      "[A page](https://example.org/a)\n\n[Embedded content](https://www.youtube.com/embed/x)\n\n![A](/content/images/a.jpg)",
    );
    expect(Object.fromEntries(cards.cards)).toEqual({
      bookmark: 1,
      embed: 1,
      signup: 1,
      gallery: 1,
      "members-only": 1,
    });
    expect(cards.ghostUrls).toBe(1);
  });

  it("releases a published post at its published_at, not its created_at (Ghost's UTC times)", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    raw.db[0].data.posts[2].published_at = "2026-11-24 10:00:00";
    const set = await read(await writeTemp("later.json", JSON.stringify(raw)));
    const hello = bySlug(set, "hello-world");
    expect([hello.createdAt, hello.releasedAt]).toEqual([
      at("2026-11-23T09:01:21Z"),
      at("2026-11-24T10:00:00Z"),
    ]);
  });

  it("notes email-only and members-only posts, a cover on the Ghost site, drops internal # tags, makes the excerpt one line", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    const data = raw.db[0].data;
    data.posts[2].status = "sent";
    data.posts[3].visibility = "paid";
    data.posts[3].custom_excerpt = "Faster lists\nand  tag filters.";
    data.posts[7].feature_image = "__GHOST_URL__/content/images/x.jpg";
    data.posts[6].feature_image = "https://user:secret@example.org/cover.jpg";
    data.tags.push({ id: "internal1", name: "#hidden", slug: "hash-hidden" });
    data.posts_tags.push({
      id: "pt1",
      post_id: data.posts[3].id,
      tag_id: "internal1",
      sort_order: 2,
    });
    const set = await read(await writeTemp("variants.json", JSON.stringify(raw)));
    expect(bySlug(set, "hello-world")).toMatchObject({ status: "draft", releasedAt: null });
    expect(bySlug(set, "release-notes-1-2")).toMatchObject({
      tags: ["releases", "engineering"],
      excerpt: "Faster lists and tag filters.",
    });
    expect(bySlug(set, "images-and-quotes").coverImageUrl).toBeNull();
    // A cover with a user name or password is refused, as the admin API refuses it.
    const credentialed = set.blogs.find((b) => b.origin.startsWith("posts[6] "));
    expect(credentialed?.coverImageUrl).toBeNull();
    expect(set.notes.join("\n")).not.toContain("secret");
    expect(set.notes).toContainEqual(
      expect.stringMatching(/^posts\[6\] "[^"]+": feature image carries a user name or password/),
    );
    expect(set.notes).toEqual(
      expect.arrayContaining([
        'posts[2] "hello-world": sent by email only in Ghost (never on the site); imported as a draft.',
        'posts[7] "images-and-quotes": feature image "__GHOST_URL__/content/images/x.jpg" is on the Ghost site (__GHOST_URL__); no cover.',
        "1 Ghost internal tag(s) (#…) not imported.",
        expect.stringMatching(
          /^1 post\(s\) were for members only in Ghost; .*: posts\[3\] "release-notes-1-2"\.$/,
        ),
      ]),
    );
  });

  it("reports progress over the posts, ending at the total", async () => {
    const calls: [string, number, number][] = [];
    await read(FIXTURE, (s, d, t) => calls.push([s, d, t]));
    expect(calls.at(-1)).toEqual(["reading", 14, 14]);
  });
});

describe("happy: a post's SEO and social fields map to the presentation fields (README, 'Import and export')", () => {
  /** The export's posts of type "post" (the others are pages, skipped). */
  const postsOf = (data: Record<string, unknown[]>) =>
    (data.posts as Record<string, unknown>[]).filter((p) => p.type !== "page");
  /** The fixture with `change` applied to its data, read. */
  async function readChanged(change: (data: Record<string, unknown[]>) => void) {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    change(raw.db[0].data);
    return read(await writeTemp("changed.json", JSON.stringify(raw)));
  }
  const presentation = (b: ImportBlog) => ({
    metaTitle: b.metaTitle,
    metaDescription: b.metaDescription,
    canonicalUrl: b.canonicalUrl,
    socialImageUrl: b.socialImageUrl,
    coverImageAlt: b.coverImageAlt,
    featured: b.featured,
  });

  it("Ghost 5 and later: the posts_meta row gives meta_title, meta_description, og_image, feature_image_alt over the post's; the post canonical_url and featured", async () => {
    let slug = "";
    const set = await readChanged((data) => {
      const post = postsOf(data)[0] as Record<string, unknown>;
      slug = String(post.slug);
      Object.assign(post, {
        featured: true,
        canonical_url: "https://old.example/first",
        meta_title: "Overridden by posts_meta",
      });
      data.posts_meta = [
        {
          id: "pm1",
          post_id: post.id,
          og_image: "https://cdn.example/og.png",
          og_title: "OG title",
          og_description: "OG description",
          twitter_image: "https://cdn.example/tw.png",
          twitter_title: null,
          twitter_description: null,
          meta_title: "Search\n title",
          meta_description: "What the post is about.",
          email_subject: "Subject for subscribers",
          frontmatter: null,
          feature_image_alt: "A lake at dawn",
          feature_image_caption: "<b>caption</b>",
          email_only: false,
        },
      ];
    });
    expect(presentation(bySlug(set, slug))).toEqual({
      metaTitle: "Search title",
      metaDescription: "What the post is about.",
      canonicalUrl: "https://old.example/first",
      socialImageUrl: "https://cdn.example/og.png",
      coverImageAlt: "A lake at dawn",
      featured: true,
    });
    expect(JSON.stringify(set)).not.toContain("Subject for subscribers");
    expect(set.notes.join("\n")).not.toContain("posts_meta");
  });

  it("older exports keep them on the post: featured 1 (as Ghost 6.65 still writes it), og_title when there is no meta_title, twitter_image when there is no og_image", async () => {
    let slug = "";
    const set = await readChanged((data) => {
      const post = postsOf(data)[1] as Record<string, unknown>;
      slug = String(post.slug);
      Object.assign(post, {
        featured: 1,
        og_title: "OG title",
        meta_description: "Older description",
        twitter_image: "https://cdn.example/tw.png",
        feature_image_alt: "Alt on the post",
        canonical_url: null,
      });
    });
    expect(presentation(bySlug(set, slug))).toEqual({
      metaTitle: "OG title",
      metaDescription: "Older description",
      canonicalUrl: null,
      socialImageUrl: "https://cdn.example/tw.png",
      coverImageAlt: "Alt on the post",
      featured: true,
    });
    // The real Ghost 6.65 export marks a featured post 1, the others 0; nothing else is set.
    expect(bySlug(set, "release-notes-1-2").featured).toBe(true);
    const others = set.blogs
      .filter((b) => b.slug !== slug && b.slug !== "release-notes-1-2")
      .map((b) => JSON.stringify(presentation(b)));
    expect(new Set(others)).toEqual(
      new Set([
        JSON.stringify({
          metaTitle: null,
          metaDescription: null,
          canonicalUrl: null,
          socialImageUrl: null,
          coverImageAlt: null,
          featured: false,
        }),
      ]),
    );
  });

  it("a social image or canonical URL the cover's rule refuses is dropped with a note (credentials not repeated); text over its bound is dropped with a note, never cut", async () => {
    const ids: string[] = [];
    const set = await readChanged((data) => {
      const posts = postsOf(data);
      for (const p of posts.slice(0, 4)) ids.push(String(p.id));
      data.posts_meta = [
        { post_id: ids[0], og_image: "/content/images/og.png" },
        { post_id: ids[1], og_image: "https://user:secret@cdn.example/og.png" },
        { post_id: ids[2], og_image: "__GHOST_URL__/content/images/og.png" },
        { post_id: ids[3], meta_description: "x".repeat(501), meta_title: "Kept" },
      ];
      Object.assign(posts[0] as object, { canonical_url: "ftp://old.example/a" });
    });
    const blogs = ids.map((id) => set.blogs.find((b) => b.sourceKey === `ghost:${id}`));
    expect(blogs.map((b) => b?.socialImageUrl)).toEqual([null, null, null, null]);
    expect(blogs[0]?.canonicalUrl).toBeNull();
    expect([blogs[3]?.metaTitle, blogs[3]?.metaDescription]).toEqual(["Kept", null]);
    const notes = set.notes.join("\n");
    expect(notes).not.toContain("secret");
    expect(set.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^posts\[\d+\] "[^"]+": og_image "\/content\/images\/og.png" is not an absolute http\(s\) URL; no social image\.$/,
        ),
        expect.stringMatching(
          /^posts\[\d+\] "[^"]+": canonical_url "ftp:\/\/old.example\/a" is not an absolute http\(s\) URL; no canonical URL\.$/,
        ),
        expect.stringMatching(
          /^posts\[\d+\] "[^"]+": og_image carries a user name or password, refused; no social image\.$/,
        ),
        expect.stringMatching(
          /^posts\[\d+\] "[^"]+": og_image "__GHOST_URL__\/content\/images\/og.png" is on the Ghost site/,
        ),
        expect.stringMatching(
          /^posts\[\d+\] "[^"]+": meta_description is longer than 500 characters \(501\); not imported\.$/,
        ),
      ]),
    );
  });
});

describe("security: Ghost users are never accounts, and their secrets go nowhere", () => {
  it("skips the staff user and puts no email or password hash anywhere in the import", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    const user = raw.db[0].data.users[0];
    const set = await read();
    expect(set.skipped.some((s) => s.origin === 'users "Ada Editor"')).toBe(true);
    const everything = JSON.stringify(set);
    expect(everything).not.toContain(user.email);
    expect(everything).not.toContain(user.password);
    expect(everything).not.toContain("$2b$");
  });
});

describe("error: a file that is not a readable Ghost export names where", () => {
  it("a file that is not JSON: file:line:column of the fault", async () => {
    const file = await writeTemp("bad.json", '{\n  "db": [\n    {"meta": {}, }\n  ]\n}\n');
    expect(await problemsOf(read(file))).toEqual([
      { where: `${file}:3:18`, message: expect.stringMatching(/^not valid JSON \(.+\)\.$/) },
    ]);
    const whole = await readFile(FIXTURE, "utf8");
    const cut = whole.slice(0, whole.indexOf('"slug": "hello-world"'));
    const truncated = await writeTemp("truncated.json", cut);
    const lines = cut.split("\n");
    expect(await problemsOf(read(truncated))).toEqual([
      {
        where: `${truncated}:${lines.length}:${(lines.at(-1)?.length ?? 0) + 1}`,
        message: expect.stringMatching(/^not valid JSON/),
      },
    ]);
  });

  it("JSON that is not a Ghost export: says what is missing", async () => {
    const file = await writeTemp("other.json", '{"posts": []}');
    const [problem] = await problemsOf(read(file));
    expect(problem?.message).toContain("is not a Ghost export: it has no db[0].data.posts");
  });

  it('every bad post at once, each named posts[i] "slug"', async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    const posts = raw.db[0].data.posts;
    posts[2].title = "  ";
    posts[3].published_at = "yesterday";
    posts[4].slug = "Same-Title"; // slugified to same-title, taken by posts[9]
    posts[6].html = null; // its lexical has a paragraph: the body would be lost
    const file = await writeTemp("broken.json", JSON.stringify(raw));
    expect(await problemsOf(read(file))).toEqual([
      { where: 'posts[2] "hello-world"', message: "has no title" },
      { where: 'posts[3] "release-notes-1-2"', message: 'published_at "yesterday" is not a time' },
      {
        where: 'posts[6] "unicode-cafe-ri-ben-yu-emoji"',
        message: "has content in lexical or mobiledoc but no rendered html to convert",
      },
      {
        where: 'posts[9] "same-title"',
        message: 'slug "same-title" is also the slug of posts[4] "Same-Title"',
      },
    ]);
  });

  it("a time that is a number out of Date's range is named as not a time, never a RangeError", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    raw.db[0].data.posts[2].created_at = 1e20;
    const file = await writeTemp("numeric-time.json", JSON.stringify(raw));
    expect(await problemsOf(read(file))).toEqual([
      {
        where: 'posts[2] "hello-world"',
        message: 'created_at "100000000000000000000" is not a time',
      },
    ]);
  });

  it("a body that cannot be converted is a problem naming its post, never a stack trace", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    const post = raw.db[0].data.posts[2];
    // Nested deeper than the HTML converter's recursion can go.
    post.html = `${"<div>".repeat(12_000)}deep${"</div>".repeat(12_000)}`;
    post.lexical = null;
    post.mobiledoc = null;
    const file = await writeTemp("deep.json", JSON.stringify(raw));
    const problems = await problemsOf(read(file));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.where).toBe('posts[2] "hello-world"');
    expect(problems[0]?.message).toMatch(/^body could not be converted: /);
  });
});

describe("error: crafted lexical and mobiledoc do not break the reader (ghost-body.ts)", () => {
  it("null or mistyped children, sections and cards: the post is read from its html", async () => {
    const raw = JSON.parse(await readFile(FIXTURE, "utf8"));
    const posts = raw.db[0].data.posts;
    const crafted = [
      { root: { children: [null] } },
      { root: null },
      { root: { children: [{ type: "paragraph", children: "x" }] } },
    ].map((lexical) => JSON.stringify(lexical));
    const mobiledocs = [
      { sections: [null], cards: [] },
      { sections: [[10, 0]], cards: [null] },
      { sections: [[10, 0]], cards: [["markdown", null]] },
    ].map((doc) => JSON.stringify(doc));
    const chosen = posts.filter((p: { type?: string }) => p.type !== "page").slice(0, 6);
    [...crafted, ...mobiledocs].forEach((doc, i) => {
      const post = chosen[i];
      post.lexical = i < crafted.length ? doc : null;
      post.mobiledoc = i < crafted.length ? null : doc;
      post.html = `<p>Crafted ${i}</p>`;
    });
    const set = await read(await writeTemp("crafted.json", JSON.stringify(raw)));
    const body = (id: string) => set.blogs.find((b) => b.sourceKey === `ghost:${id}`)?.bodyMarkdown;
    expect(chosen.map((p: { id: string }) => body(p.id))).toEqual(
      chosen.map((_: unknown, i: number) => `Crafted ${i}`),
    );
  });
});

import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readGhostExport } from "../../server/src/transfer/ghost-reader.js";
import { TOKENS } from "../../server/src/transfer/import-images.js";
import { ImportInputError, type ImportSet } from "../../server/src/transfer/import-set.js";
import { rewriteMarkdownImages } from "../../server/src/transfer/markdown-images.js";
import { readMarkdownFolder } from "../../server/src/transfer/markdown-reader.js";
import { readPressroomExport } from "../../server/src/transfer/pressroom-format.js";

// The importers' images beside their sources (README, "Import and export": "Images"; the rules
// in server/src/transfer/import-images.ts, ghost-images.ts, pressroom-media.ts headers). Readers
// only name the files and check them: the library is the CLI's (test/server/transfer-media.test.ts).

const png = (colour: string) =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: colour } })
    .png()
    .toBuffer();

async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "import-images-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  return root;
}

async function problemsOf(read: Promise<ImportSet>) {
  const err = await read.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportInputError);
  return err instanceof ImportInputError ? err.problems : [];
}

/** The file each token of a text stands for, in order. */
const filesNamed = (set: ImportSet, text: string | null) =>
  (text?.match(TOKENS) ?? []).map((t) =>
    path.basename(set.images?.find((i) => i.token === t)?.file ?? "?"),
  );

const MD = (front: string, body: string) =>
  `---\ntitle: T\ndate: 2024-01-01\n${front}---\n${body}\n`;

describe("happy: a Markdown folder's relative images become the set's images (README, 'Import and export')", () => {
  it("a body's ./img/a.png and images/b.jpg relative to the file, and a cover path with its coverAlt", async () => {
    const root = await folder({
      "posts/one.md": MD(
        "cover: ./img/cover.png\ncoverAlt: The cover\n",
        '![A pier](./img/a.png) and ![](img/a.png "same file") and ![Remote](https://example.org/x.png)',
      ),
      "posts/img/a.png": await png("#f00"),
      "posts/img/cover.png": await png("#0f0"),
    });
    const set = await readMarkdownFolder(root, {});
    const [blog] = set.blogs;
    expect(set.images?.map((i) => [path.basename(i.file), i.alt, i.origin])).toEqual([
      ["cover.png", "The cover", "posts/one.md"],
      ["a.png", "A pier", "posts/one.md"],
    ]);
    expect(filesNamed(set, blog?.bodyMarkdown ?? "")).toEqual(["a.png", "a.png"]);
    expect(blog?.bodyMarkdown).toContain('"same file")');
    expect(blog?.bodyMarkdown).toContain("](https://example.org/x.png)");
    expect(filesNamed(set, blog?.coverImageUrl ?? null)).toEqual(["cover.png"]);
  });

  it("leaves images in code as written, and a missing file as its path with a note", async () => {
    const root = await folder({
      "a.md": MD("cover: gone.png\n", "```\n![x](./a.png)\n```\n`![y](a.png)` ![z](missing.png)"),
      "a.png": await png("#00f"),
    });
    const set = await readMarkdownFolder(root, {});
    const [blog] = set.blogs;
    expect(set.images).toBeUndefined();
    expect(blog?.bodyMarkdown).toBe("```\n![x](./a.png)\n```\n`![y](a.png)` ![z](missing.png)\n");
    expect(blog?.coverImageUrl).toBeNull();
    expect(set.notes).toContain('a.md: image "missing.png" not found; its path is kept.');
    expect(set.notes).toContain('a.md: cover image "gone.png" not found; imported with no cover.');
  });
});

describe("error: an image path out of the folder or a file that is no image is refused, nothing read (README, 'Import and export')", () => {
  it("../../etc/passwd, a cover out of the folder and a symbolic link out of it are problems naming the file", async () => {
    const outside = await folder({ "secret.png": await png("#000") });
    const root = await folder({
      "notes/a.md": MD("cover: ../../x.png\n", "![p](../../etc/passwd)"),
      "b.md": MD("", "![l](link.png)"),
    });
    await symlink(path.join(outside, "secret.png"), path.join(root, "link.png"));
    const problems = await problemsOf(readMarkdownFolder(root, {}));
    expect(problems).toEqual([
      {
        where: "notes/a.md",
        message: 'image "../x.png" is outside the folder imported from; not read.',
      },
      {
        where: "notes/a.md",
        // Paths as from the folder imported: notes/../../etc/passwd.
        message: 'image "../etc/passwd" is outside the folder imported from; not read.',
      },
      {
        where: "b.md",
        message:
          'image "link.png" leads outside the folder imported from (a symbolic link); not read.',
      },
    ]);
  });

  it("an SVG, an HTML file named .png and a PDF are refused by their bytes, as an upload is (415)", async () => {
    const root = await folder({
      "a.md": MD("", "![s](s.svg) ![h](h.png) ![p](doc.pdf)"),
      "s.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>',
      "h.png": "<html><script>alert(1)</script></html>",
      "doc.pdf": "%PDF-1.7\n",
    });
    const problems = await problemsOf(readMarkdownFolder(root, {}));
    const message = "is not an image Pressroom takes: JPEG, PNG, WebP, AVIF or GIF.";
    expect(problems.map((p) => p.message)).toEqual([
      `image "s.svg" ${message}`,
      `image "h.png" ${message}`,
      `image "doc.pdf" ${message}`,
    ]);
  });
});

const ghostExport = (posts: object[]) =>
  JSON.stringify({
    db: [
      {
        meta: { version: "6.65.0" },
        data: {
          posts,
          users: [{ id: "u1", name: "Ada", slug: "ada" }],
          posts_authors: posts.map((p, i) => ({
            post_id: (p as { id: string }).id,
            author_id: "u1",
            sort_order: i,
          })),
          posts_meta: [{ post_id: "p1", feature_image_alt: "A press" }],
        },
      },
    ],
  });

const ghostPost = (html: string, featureImage: string | null) => ({
  id: "p1",
  title: "Hello",
  slug: "hello",
  status: "published",
  type: "post",
  html,
  feature_image: featureImage,
  created_at: "2024-01-01 10:00:00",
  updated_at: "2024-01-01 10:00:00",
  published_at: "2024-01-01 10:00:00",
});

describe("happy: Ghost's content/images (--media-dir) gives the posts' images (README, 'Import and export', Ghost)", () => {
  it("a body image and the feature image with feature_image_alt; a size copy is its original; a missing one a note", async () => {
    const images = await folder({
      "2024/01/press.png": await png("#123"),
      "2024/01/photo.png": await png("#456"),
    });
    const source = await folder({
      "ghost.json": ghostExport([
        ghostPost(
          '<p>Hi</p><img src="__GHOST_URL__/content/images/size/w600/2024/01/photo.png" alt="A photo"><img src="__GHOST_URL__/content/images/2024/01/gone.png" alt="">',
          "__GHOST_URL__/content/images/2024/01/press.png",
        ),
      ]),
    });
    const set = await readGhostExport(path.join(source, "ghost.json"), { mediaDir: images });
    const [blog] = set.blogs;
    expect(set.images?.map((i) => [path.basename(i.file), i.alt])).toEqual([
      ["photo.png", "A photo"],
      ["press.png", "A press"],
    ]);
    expect(filesNamed(set, blog?.bodyMarkdown ?? "")).toEqual(["photo.png"]);
    expect(blog?.bodyMarkdown).toContain("](/content/images/2024/01/gone.png)");
    expect(filesNamed(set, blog?.coverImageUrl ?? null)).toEqual(["press.png"]);
    expect(set.notes).toContain(
      'posts[0] "hello": image "2024/01/gone.png" not in --media-dir; kept as a site path.',
    );
  });

  it("without --media-dir nothing changes: the site's paths kept, its cover dropped with a note", async () => {
    const source = await folder({
      "ghost.json": ghostExport([
        ghostPost(
          '<img src="__GHOST_URL__/content/images/a.png" alt="A">',
          "__GHOST_URL__/content/images/a.png",
        ),
      ]),
    });
    const set = await readGhostExport(path.join(source, "ghost.json"), {});
    expect(set.images).toBeUndefined();
    expect(set.blogs[0]?.bodyMarkdown).toBe("![A](/content/images/a.png)");
    expect(set.blogs[0]?.coverImageUrl).toBeNull();
  });

  it("a path out of content/images is a problem, nothing read", async () => {
    const images = await folder({});
    const source = await folder({
      "ghost.json": ghostExport([
        ghostPost('<img src="__GHOST_URL__/content/images/../../../etc/passwd" alt="">', null),
      ]),
    });
    const problems = await problemsOf(
      readGhostExport(path.join(source, "ghost.json"), { mediaDir: images }),
    );
    expect(problems.map((p) => p.where)).toEqual(['posts[0] "hello"']);
    expect(problems[0]?.message).toMatch(/outside the folder imported from/);
  });
});

describe("happy: a Pressroom export's media records and files (README, 'Import and export')", () => {
  it("every library URL of a record with a file names its token, on any origin and path, a copy's query and a full stop kept", async () => {
    const url = "https://old.example/api/consumer/media/med_abc123/press.png";
    const dir = await folder({
      "ws-media/med_abc123-press.png": await png("#789"),
    });
    const blog = {
      id: "b_1",
      slug: "a",
      title: "A",
      status: "released",
      bodyMarkdown: `![Press](${url}?w=640&fm=webp) ![Gone](http://localhost:3000/api/consumer/media/med_gone1/gone.png) See https://press.example/path/api/consumer/media/med_abc123/press.png.`,
      excerpt: null,
      tags: [],
      authorName: "Ada",
      authors: [],
      coverImageUrl: url,
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-01T00:00:00.000Z",
      releasedAt: "2024-01-01T00:00:00.000Z",
      removedAt: null,
    };
    const record = (id: string, name: string) => ({
      id,
      name,
      alt: "A press",
      type: "png",
      width: 4,
      height: 4,
      bytes: 10,
      sha256: "a".repeat(64),
      createdAt: "2024-01-01T00:00:00.000Z",
    });
    await writeFile(
      path.join(dir, "ws.json"),
      JSON.stringify({
        format: "pressroom.workspace-export",
        version: 1,
        blogs: [blog],
        media: [record("med_abc123", "press.png"), record("med_gone1", "gone.png")],
      }),
    );
    const set = await readPressroomExport(path.join(dir, "ws.json"), {});
    const [read] = set.blogs;
    expect(set.images?.map((i) => [path.basename(i.file), i.alt, i.exported?.id])).toEqual([
      ["med_abc123-press.png", "A press", "med_abc123"],
    ]);
    expect(read?.bodyMarkdown).toMatch(
      /^!\[Press\]\(https:\/\/pressroom-import\.invalid\/image\/(\d+)\?w=640&fm=webp\) !\[Gone\]\(http:\/\/localhost:3000\/api\/consumer\/media\/med_gone1\/gone\.png\) See https:\/\/pressroom-import\.invalid\/image\/\1\.$/,
    );
    expect(filesNamed(set, read?.coverImageUrl ?? null)).toEqual(["med_abc123-press.png"]);
    expect(set.notes.join("\n")).toMatch(/1 image\(s\) have no file in .*med_gone1-gone\.png/);
  });
});

describe("rewriteMarkdownImages: only images outside code, titles and <…> sources kept", () => {
  it("rewrites each image's source by the function given", () => {
    const out = rewriteMarkdownImages(
      '![a](x.png "t") [link](x.png) ![b](<my photo.png>)\n~~~\n![c](x.png)\n~~~',
      (src) => `NEW:${src}`,
    );
    expect(out).toBe(
      '![a](NEW:x.png "t") [link](x.png) ![b](NEW:my photo.png)\n~~~\n![c](x.png)\n~~~',
    );
  });
});

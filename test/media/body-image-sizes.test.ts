// Library images in a blog's body (README "Media"; openapi.yaml "Putting blogs on a page"):
// sized when the body is rendered — width and height, an srcset of the copies below the image's
// own width plus the original, sizes, loading="lazy", decoding="async", the library's alt text
// where none was written — and nothing else in a body changed; consumer reads cost no more.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { renderMarkdown } from "../../server/src/blogs/render.js";
import { libraryImagesIn } from "../../server/src/media/body-images.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Media = components["schemas"]["Media"];

let t: TestDb;
let dataDir: string;
let server: TestServer;
let owner: AdminClient;
let ws: string;
let otherWs: string;
let key: string;
/** 1000 × 500, alt text with characters the sanitiser escapes. */
let field: Media;
/** 40 × 30, no alt text. */
let icon: Media;
/** An image of the other workspace's library. */
let foreign: Media;

const FIELD_ALT = 'A field & "the sky"';
const ESCAPED_FIELD_ALT = "A field &amp; &quot;the sky&quot;";

async function upload(bytes: Uint8Array, query: Record<string, string>, workspace = ws) {
  const res = await fetch(
    `${server.url}/api/admin/workspaces/${workspace}/media?${new URLSearchParams(query)}`,
    {
      method: "POST",
      headers: {
        "content-type": "application/octet-stream",
        cookie: owner.cookie ?? "",
        origin: server.url,
      },
      body: Buffer.from(bytes),
    },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Media;
}

const png = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

beforeAll(async () => {
  t = await useTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-body-images-"));
  server = await startTestServer(t.db, { DATA_DIR: dataDir, VALIDATE_RESPONSES: "true" });
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
  otherWs = (await owner.post<{ id: string }>("/workspaces", { name: "Elsewhere" })).body.id;
  key = (await owner.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Site" })).body
    .secret;
  field = await upload(await png(1000, 500, "#3a7"), { name: "field.png", alt: FIELD_ALT });
  icon = await upload(await png(40, 30, "#a37"), { name: "icon.png" });
  foreign = await upload(await png(200, 100, "#37a"), { name: "away.png", alt: "Away" }, otherWs);
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A blog of `ws` with `bodyMarkdown`, released; its ID. */
async function released(bodyMarkdown: string): Promise<string> {
  const created = await owner.post<{ id: string; version: string }>(`/workspaces/${ws}/blogs`, {
    title: `Images ${Math.random()}`,
    bodyMarkdown,
  });
  expect(created.status).toBe(201);
  const release = await owner.post(
    `/workspaces/${ws}/blogs/${created.body.id}/release`,
    undefined,
    {
      "if-match": `"${created.body.version}"`,
    },
  );
  expect(release.status).toBe(200);
  return created.body.id;
}

/** The consumer API's `bodyHtml` of a released blog. */
async function bodyHtmlOf(blogId: string): Promise<string> {
  const res = await fetch(`${server.url}/api/consumer/blogs/${blogId}?fields=bodyHtml`, {
    headers: { "x-api-key": key },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { bodyHtml: string }).bodyHtml;
}

/** The commands sent to the `media` collection while `run` runs. */
async function mediaCommandsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const before = t.commands.length;
  await run();
  return t.commands
    .slice(before)
    .filter((c) => c.collection === "media")
    .map((c) => c.name);
}

/** The sized element the sanitiser's format gives a library image of `media` (W × H). */
function sized(media: Media, attributes: string, shownWidth = media.width): string {
  const copies = [64, 128, 256, 320, 480, 640, 768, 960, 1024, 1280, 1536, 1920, 2560]
    .filter((w) => w < media.width)
    .map((w) => `${media.url}?w=${w} ${w}w`);
  const srcset = [...copies, `${media.url} ${media.width}w`].join(", ");
  return `<img src="${media.url}" ${attributes} srcset="${srcset}" sizes="(max-width: ${shownWidth}px) 100vw, ${shownWidth}px" loading="lazy" decoding="async" />`;
}

describe("library images in bodyHtml (README Media; openapi.yaml Putting blogs on a page)", () => {
  it("get the image's width and height, an srcset of the copies below its width plus the original, lazy loading, and the library's alt where none was written (which the release's alt rule accepts)", async () => {
    const blog = await released(`![](${field.url})\n\n![Given in place](${field.url})`);
    const html = await bodyHtmlOf(blog);
    expect(html).toBe(
      [
        `<p>${sized(field, `alt="${ESCAPED_FIELD_ALT}" width="1000" height="500"`)}</p>`,
        `<p>${sized(field, 'alt="Given in place" width="1000" height="500"')}</p>`,
      ].join("\n"),
    );
    // What the release rule and deletions read still reads it, and every candidate is served.
    const images = libraryImagesIn(html);
    expect(images.map((i) => [i.mediaId, i.alt])).toEqual([
      [field.id, FIELD_ALT],
      [field.id, "Given in place"],
    ]);
    const srcset = images[0]?.attributes.get("srcset") ?? "";
    expect(srcset.split(", ").map((c) => Number(c.split(" ")[1]?.replace("w", "")))).toEqual([
      64, 128, 256, 320, 480, 640, 768, 960, 1000,
    ]);
    for (const candidate of srcset.split(", ")) {
      const [url = "", width = ""] = candidate.split(" ");
      const copy = await fetch(url);
      expect(copy.status, url).toBe(200);
      const meta = await sharp(Buffer.from(await copy.arrayBuffer())).metadata();
      expect(`${meta.width}w`, url).toBe(width);
    }
  });

  it("an image narrower than every copy width has only itself in srcset", async () => {
    const html = await bodyHtmlOf(await released(`![An icon](${icon.url})`));
    expect(html).toBe(`<p>${sized(icon, 'alt="An icon" width="40" height="30"')}</p>`);
  });

  it("no alt is invented when the library has none, so the release still asks for one", async () => {
    const source = `![](${icon.url})`;
    const preview = await owner.post<{ bodyHtml: string }>(`/workspaces/${ws}/blogs/preview`, {
      bodyMarkdown: source,
    });
    expect(preview.body.bodyHtml).toBe(`<p>${sized(icon, 'alt="" width="40" height="30"')}</p>`);
    const created = await owner.post<{ id: string; version: string }>(`/workspaces/${ws}/blogs`, {
      title: "No alt anywhere",
      bodyMarkdown: source,
    });
    const release = await owner.post(
      `/workspaces/${ws}/blogs/${created.body.id}/release`,
      undefined,
      { "if-match": `"${created.body.version}"` },
    );
    expect(release.status).toBe(409);
  });

  it("a width the writer gave is kept and the height follows the image's proportions", async () => {
    const html = await bodyHtmlOf(
      await released(`<img src="${field.url}" width="300" height="999" alt="Small">`),
    );
    expect(html).toBe(sized(field, 'width="300" height="150" alt="Small"', 300));
  });

  it("another workspace's image, an unknown ID and a wrong name are left untouched", async () => {
    const unknown = field.url.replace(field.id, "med_unknown0000000000");
    const wrongName = field.url.replace("/field.png", "/other.png");
    const source = `![Away](${foreign.url})\n\n![Unknown](${unknown})\n\n![Wrong](${wrongName})`;
    expect(await bodyHtmlOf(await released(source))).toBe(renderMarkdown(source));
  });

  it("a body without library images is stored byte for byte as rendered, with no query for images", async () => {
    const source =
      '# Title\n\nText with [a link](https://example.com) and ![elsewhere](https://images.example.com/a.png).\n\n<img src="https://images.example.com/b.png" width="10" height="20">\n\n- [x] done';
    let blog = "";
    const queries = await mediaCommandsDuring(async () => {
      blog = await released(source);
    });
    expect(queries).toEqual([]);
    expect(await bodyHtmlOf(blog)).toBe(renderMarkdown(source));
  });

  it("consumer reads of a body with library images send no query for them (sized at write)", async () => {
    const blog = await released(`![](${field.url})`);
    const queries = await mediaCommandsDuring(() => bodyHtmlOf(blog));
    expect(queries).toEqual([]);
  });

  it("the editor's preview answers the bodyHtml a save stores (admin.yaml previewBlogBody)", async () => {
    const source = `![](${field.url})`;
    const preview = await owner.post<{ bodyHtml: string }>(`/workspaces/${ws}/blogs/preview`, {
      bodyMarkdown: source,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.bodyHtml).toBe(await bodyHtmlOf(await released(source)));
    expect(preview.body.bodyHtml).toContain('loading="lazy"');
  });
});

// Library images in blogs (README, "Media"; admin.yaml deleteMedia and releaseBlog): deleting
// an image that blogs show asks first, naming them (409, then `force=true`), and a blog is
// released only when every library image it shows has alt text there.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { fillSearchFields, SEARCH_FIELDS_MARKER } from "../../server/src/blogs/search-migration.js";
import {
  fillStagedMediaIds,
  STAGED_MEDIA_MARKER,
} from "../../server/src/blogs/staged-media-migration.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Media = components["schemas"]["Media"];
type MediaInUse = components["schemas"]["MediaInUse"];
type AdminBlog = components["schemas"]["AdminBlog"];

let t: TestDb;
let dataDir: string;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-media-use-"));
  server = await startTestServer(t.db, { DATA_DIR: dataDir, VALIDATE_RESPONSES: "true" });
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

let colour = 0;
/** A new image of the library (a colour of its own: the same bytes would be the same image). */
async function uploaded(name: string, alt = ""): Promise<Media> {
  colour += 1;
  const png = await sharp({
    create: { width: 48, height: 32, channels: 3, background: { r: colour, g: 90, b: 160 } },
  })
    .png()
    .toBuffer();
  const query = new URLSearchParams({ name, ...(alt === "" ? {} : { alt }) });
  const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/media?${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/octet-stream",
      cookie: owner.cookie ?? "",
      origin: server.url,
    },
    body: png,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Media;
}

const blogs = () => `/workspaces/${ws}/blogs`;

async function draft(title: string, fields: Record<string, unknown>): Promise<AdminBlog> {
  const res = await owner.post<AdminBlog>(blogs(), { title, bodyMarkdown: "Text.", ...fields });
  expect(res.status).toBe(201);
  return res.body;
}

const release = (id: string) =>
  owner.post<AdminBlog & { message?: string }>(`${blogs()}/${id}/release`, undefined, ANY_VERSION);

const deleteImage = (m: Media, force = false) =>
  owner.delete<MediaInUse>(`/workspaces/${ws}/media/${m.id}${force ? "?force=true" : ""}`);

describe("deleting an image blogs show (admin.yaml deleteMedia)", () => {
  it("is refused with 409 naming the blogs, released first; removed blogs do not count; force deletes it", async () => {
    const image = await uploaded("harbour.png", "The harbour at dawn");
    await draft("Zebra notes", { bodyMarkdown: `Look: ![Boats](${image.url})` });
    const asCover = await draft("Alpha launch", {
      coverImageUrl: image.url,
      coverImageAlt: "The harbour",
    });
    expect((await release(asCover.id)).status).toBe(200);
    const removed = await draft("Removed one", { bodyMarkdown: `![Gone](${image.url})` });
    expect((await owner.delete(`${blogs()}/${removed.id}`, ANY_VERSION)).status).toBe(204);
    // A released blog whose pending changes (not its live version) show it.
    const pending = await draft("Middle pending", {});
    expect((await release(pending.id)).status).toBe(200);
    const edited = await owner.patch<AdminBlog>(
      `${blogs()}/${pending.id}`,
      { bodyMarkdown: `Soon: ![Boats again](${image.url})` },
      ANY_VERSION,
    );
    expect(edited.body.pendingChanges).toBe(true);

    const refused = await deleteImage(image);
    expect(refused.status).toBe(409);
    expect(refused.body.total).toBe(3);
    expect(refused.body.blogs.map((b) => [b.title, b.status])).toEqual([
      ["Alpha launch", "released"],
      ["Middle pending", "released"],
      ["Zebra notes", "draft"],
    ]);
    expect(refused.body.message).toMatch(/3 blogs show this image.*force=true/);
    // Nothing was deleted: the image still serves.
    expect((await fetch(image.url)).status).toBe(200);

    expect((await deleteImage(image, true)).status).toBe(204);
    expect((await fetch(image.url)).status).toBe(404);
    expect((await owner.get(`/workspaces/${ws}/media/${image.id}`)).status).toBe(404);
  });

  it("an image no blog shows any more is deleted at once", async () => {
    const image = await uploaded("kite.png", "A kite");
    const blog = await draft("Kites", { bodyMarkdown: `![A kite](${image.url})` });
    expect((await deleteImage(image)).status).toBe(409);
    // The body no longer shows it: the blog's stored `mediaIds` follow the edit.
    await owner.patch(`${blogs()}/${blog.id}`, { bodyMarkdown: "No kite now." }, ANY_VERSION);
    expect((await deleteImage(image)).status).toBe(204);
  });

  it("an image shown by another workspace's blog is not this workspace's concern (404 there)", async () => {
    const image = await uploaded("lantern.png", "A lantern");
    const other = (await owner.post<{ id: string }>("/workspaces", { name: "Other" })).body.id;
    const res = await owner.delete(`/workspaces/${other}/media/${image.id}`);
    expect(res.status).toBe(404);
    expect((await fetch(image.url)).status).toBe(200);
  });
});

describe("blogs stored before media IDs were (start-up migrations)", () => {
  it("a blog and pending changes without `mediaIds` get them at start, and the image is then in use", async () => {
    const c = collections(t.db);
    const image = await uploaded("old.png", "An old photo");
    const live = await draft("Old live", { bodyMarkdown: `![Old](${image.url})` });
    const staged = await draft("Old staged", {});
    expect((await release(staged.id)).status).toBe(200);
    await owner.patch(`${blogs()}/${staged.id}`, { coverImageUrl: image.url }, ANY_VERSION);
    // As a version before `mediaIds` stored them.
    await c.blogs.updateOne({ _id: live.id }, { $unset: { mediaIds: "" } });
    await c.blogStaged.updateOne({ blogId: staged.id }, { $unset: { mediaIds: "" } });
    await c.markers.deleteMany({ _id: { $in: [SEARCH_FIELDS_MARKER, STAGED_MEDIA_MARKER] } });
    const before = await c.blogs.findOne({ _id: live.id });
    expect(before?.mediaIds).toBeUndefined();

    expect(await fillSearchFields(c)).toBeGreaterThanOrEqual(1);
    expect(await fillStagedMediaIds(c)).toBe(1);
    const after = await c.blogs.findOne({ _id: live.id });
    expect(after?.mediaIds).toEqual([image.id]);
    expect(after?.revision).toBe(before?.revision);
    expect((await c.blogStaged.findOne({ blogId: staged.id }))?.mediaIds).toEqual([image.id]);
    const refused = await deleteImage(image);
    expect(refused.status).toBe(409);
    expect(refused.body.blogs.map((b) => b.title).sort()).toEqual(["Old live", "Old staged"]);
    // Done once: the markers stop later starts from reading everything again.
    expect(await fillStagedMediaIds(c)).toBe(0);
  });
});

describe("alt text before release (README, Media; admin.yaml releaseBlog)", () => {
  it("a body image of the library without alt text stops the release, naming it; given alt text, it releases", async () => {
    const image = await uploaded("chart.png");
    const blog = await draft("Figures", { bodyMarkdown: `See ![](${image.url}) here.` });
    const refused = await release(blog.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/alt text.*chart\.png/);
    expect((await owner.get<AdminBlog>(`${blogs()}/${blog.id}`)).body.status).toBe("draft");
    await owner.patch(
      `${blogs()}/${blog.id}`,
      { bodyMarkdown: `See ![Sales by month](${image.url}) here.` },
      ANY_VERSION,
    );
    expect((await release(blog.id)).status).toBe(200);
  });

  it("a library cover needs coverImageAlt; an image from elsewhere needs nothing", async () => {
    const image = await uploaded("front.png", "Front page");
    const blog = await draft("Cover story", {
      coverImageUrl: image.url,
      bodyMarkdown: "![](https://images.example.com/elsewhere.png)",
    });
    const refused = await release(blog.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/the cover \(front\.png\)/);
    await owner.patch(`${blogs()}/${blog.id}`, { coverImageAlt: "The front page" }, ANY_VERSION);
    expect((await release(blog.id)).status).toBe(200);
  });

  it("pending changes that add an image without alt text are not published", async () => {
    const image = await uploaded("later.png");
    const blog = await draft("Later", {});
    expect((await release(blog.id)).status).toBe(200);
    await owner.patch(`${blogs()}/${blog.id}`, { bodyMarkdown: `![](${image.url})` }, ANY_VERSION);
    const refused = await owner.post<{ message: string }>(
      `${blogs()}/${blog.id}/publish`,
      undefined,
      ANY_VERSION,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/later\.png/);
    const read = (await owner.get<AdminBlog>(`${blogs()}/${blog.id}`)).body;
    expect(read.pendingChanges).toBe(true);
    expect(read.bodyMarkdown).toBe(`![](${image.url})`);
  });

  it("a scheduled release of a blog whose image lacks alt text fails when its time comes, and the blog stays a draft", async () => {
    const image = await uploaded("dusk.png");
    const blog = await draft("At dusk", { bodyMarkdown: `![](${image.url})` });
    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    const set = await owner.call<AdminBlog>(
      "PUT",
      `${blogs()}/${blog.id}/schedule`,
      { publishAt: at },
      ANY_VERSION,
    );
    expect(set.status).toBe(200);
    const stores = createStores(t.db);
    await stores.blogs.fireSchedule(ws, blog.id, new Date(Date.parse(at) + 1000));
    const after = (await owner.get<AdminBlog>(`${blogs()}/${blog.id}`)).body;
    expect(after.status).toBe("draft");
    expect(after.schedule).toEqual({ publishAt: null, unreleaseAt: null });
    const audit = await owner.get<{ data: { action: string; details: { blogId?: string } }[] }>(
      `/workspaces/${ws}/audit?limit=20`,
    );
    expect(
      audit.body.data.some(
        (e) => e.action === "blog.schedule_failed" && e.details.blogId === blog.id,
      ),
    ).toBe(true);
  });
});

// Images in `pressroom export` and `pressroom import`, on the server's machine and with --server
// (README, "Import and export": "Images"; admin.yaml `WorkspaceExport.media`, `ExportedMedia`).
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "mongodb";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import type { WorkspaceExport } from "../../server/src/transfer/export-workspace.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type CliResult, runCli } from "../support/cli.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Media = components["schemas"]["Media"];

let source: TestDb;
let target: TestDb;
let sourceServer: TestServer;
let targetServer: TestServer;
let sourceWs: string;
let targetWs: string;
let targetOwner: AdminClient;
let dir: string;
let cover: Media;
let inBody: Media;

const ok = (r: CliResult): string => {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const envOf = (t: TestDb, server: TestServer) => ({
  MONGODB_URI: t.uri,
  MONGODB_DB: t.name,
  PUBLIC_URL: server.url,
});

const png = (colour: string, width = 40) =>
  sharp({ create: { width, height: 30, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** An image's pixels, which a re-upload keeps (its file's bytes may be encoded again). */
const pixelsOf = async (bytes: Buffer) => sharp(bytes).raw().toBuffer();

async function upload(owner: AdminClient, ws: string, bytes: Buffer, name: string, alt: string) {
  const res = await fetch(
    `${owner.baseUrl}/api/admin/workspaces/${ws}/media?name=${name}&alt=${encodeURIComponent(alt)}`,
    {
      method: "POST",
      headers: {
        cookie: owner.cookie ?? "",
        origin: owner.baseUrl,
        "content-type": "application/octet-stream",
      },
      body: new Uint8Array(bytes),
    },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Media;
}

const served = async (url: string): Promise<Buffer> => {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

/**
 * A workspace's images and blogs as stored: what "changes nothing" compares (not the fields the
 * server's relays clear on their own time: the webhook outbox and the feed's marks).
 */
const stored = async (db: Db, ws: string) =>
  Promise.all([
    db.collection("media").find({ workspaceId: ws }).sort({ _id: 1 }).toArray(),
    db
      .collection("blogs")
      .find(
        { workspaceId: ws },
        { projection: { webhookOutbox: 0, webhookPending: 0, feedPending: 0, eventSeq: 0 } },
      )
      .sort({ _id: 1 })
      .toArray(),
    db.collection("mediaFiles.files").find({}).sort({ _id: 1 }).toArray(),
  ]);

async function setUp(db: TestDb): Promise<{ server: TestServer; owner: AdminClient; ws: string }> {
  const server = await startTestServer(db.db);
  const owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  return { server, owner, ws: setup.body.workspaces[0]?.id ?? "" };
}

beforeAll(async () => {
  source = await useTestDb();
  target = await useTestDb();
  const from = await setUp(source);
  const to = await setUp(target);
  [sourceServer, sourceWs] = [from.server, from.ws];
  [targetServer, targetWs, targetOwner] = [to.server, to.ws, to.owner];
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-transfer-media-"));
  cover = await upload(from.owner, sourceWs, await png("#c33"), "Cover Photo.png", "A red cover");
  inBody = await upload(from.owner, sourceWs, await png("#33c", 64), "press.png", "A blue press");
  const created = await from.owner.post(`/workspaces/${sourceWs}/blogs`, {
    title: "With images",
    bodyMarkdown: `Text.\n\n![A blue press](${inBody.url}?w=640&fm=webp)\n`,
    coverImageUrl: cover.url,
    coverImageAlt: "A red cover",
  });
  expect(created.status).toBe(201);
}, 180_000);

describe("happy: export writes the library's images beside the JSON (README, 'Import and export')", () => {
  it("lists each image's record in media and writes its stored bytes as {id}-{name} in FILE-media/", async () => {
    const out = path.join(dir, "ws.json");
    const r = await runCli(
      ["export", "--workspace", sourceWs, "--out", out],
      envOf(source, sourceServer),
    );
    ok(r);
    expect(r.stderr).toContain(`Wrote 2 image file(s) to ${path.join(dir, "ws-media")}`);
    const doc = JSON.parse(await readFile(out, "utf8")) as WorkspaceExport;
    expect(doc.media.map((m) => [m.id, m.name, m.alt, m.type, m.width, m.height])).toEqual([
      [cover.id, "cover-photo.png", "A red cover", "png", 40, 30],
      [inBody.id, "press.png", "A blue press", "png", 64, 30],
    ]);
    expect(doc.media[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await readdir(path.join(dir, "ws-media"))).sort()).toEqual(
      [`${cover.id}-cover-photo.png`, `${inBody.id}-press.png`].sort(),
    );
    const file = await readFile(path.join(dir, "ws-media", `${cover.id}-cover-photo.png`));
    expect(file.equals(await served(cover.url))).toBe(true);
  });
});

describe("happy: import puts an export's images in the target library and points its blogs at them (README, 'Import and export')", () => {
  let imported: { coverImageUrl: string; bodyMarkdown: string };

  it("a dry run uploads nothing and says what it would upload", async () => {
    const r = await runCli(
      ["import", "--workspace", targetWs, "--dry-run", path.join(dir, "ws.json")],
      envOf(target, targetServer),
    );
    ok(r);
    expect(r.stderr).toContain("Images: 2 to upload to the library, 0 already there.");
    expect(await target.db.collection("media").countDocuments({ workspaceId: targetWs })).toBe(0);
  });

  it("new library images on the target's PUBLIC_URL, same pixels, alt and name; the blogs' cover and body URLs are theirs, a copy's query kept", async () => {
    const r = await runCli(
      ["import", "--workspace", targetWs, path.join(dir, "ws.json")],
      envOf(target, targetServer),
    );
    ok(r);
    expect(r.stderr).toContain("Images: 2 uploaded to the library, 0 already there.");
    const media = await target.db
      .collection("media")
      .find({ workspaceId: targetWs })
      .sort({ createdAt: 1 })
      .toArray();
    expect(media.map((m) => [m.name, m.alt, m.createdBy])).toEqual([
      ["cover-photo.png", "A red cover", "import"],
      ["press.png", "A blue press", "import"],
    ]);
    const blog = await target.db.collection("blogs").findOne({ workspaceId: targetWs });
    imported = blog as unknown as typeof imported;
    const urlOf = (m: (typeof media)[number]) =>
      `${targetServer.url}/api/consumer/media/${m._id}/${m.name}`;
    expect(imported.coverImageUrl).toBe(urlOf(media[0] as (typeof media)[number]));
    expect(imported.bodyMarkdown).toBe(
      `Text.\n\n![A blue press](${urlOf(media[1] as (typeof media)[number])}?w=640&fm=webp)\n`,
    );
    expect(await pixelsOf(await served(imported.coverImageUrl))).toEqual(
      await pixelsOf(await served(cover.url)),
    );
  });

  it("importing the same export again changes nothing: no image stored twice, no blog written", async () => {
    const before = await stored(target.db, targetWs);
    const r = await runCli(
      ["import", "--workspace", targetWs, path.join(dir, "ws.json")],
      envOf(target, targetServer),
    );
    ok(r);
    expect(r.stderr).toContain("Images: 0 uploaded to the library, 2 already there.");
    expect(await stored(target.db, targetWs)).toEqual(before);
  });

  it("an export's images imported back into the workspace they came from are found by ID: none added", async () => {
    // The export's library without its blogs (whose slugs the workspace holds, a conflict).
    const doc = JSON.parse(await readFile(path.join(dir, "ws.json"), "utf8")) as WorkspaceExport;
    await writeFile(path.join(dir, "library.json"), JSON.stringify({ ...doc, blogs: [] }));
    const before = await stored(source.db, sourceWs);
    const r = await runCli(
      [
        "import",
        "--workspace",
        sourceWs,
        "--media-dir",
        path.join(dir, "ws-media"),
        path.join(dir, "library.json"),
      ],
      envOf(source, sourceServer),
    );
    ok(r);
    expect(r.stderr).toContain("Images: 0 uploaded to the library, 2 already there.");
    expect(await stored(source.db, sourceWs)).toEqual(before);
  });
});

describe("happy: pressroom --server import sends a Markdown folder's images through uploadMedia first (README, 'Import and export')", () => {
  let token: string;
  let folder: string;
  const remote = (args: string[]) =>
    runCli(["--server", targetServer.url, ...args], { PRESSROOM_TOKEN: token });

  beforeAll(async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const minted = await targetOwner.post<{ secret: string }>("/me/tokens", {
      name: "CI",
      scopes: ["blogs:write"],
      expiresAt,
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    token = minted.body.secret;
    folder = await mkdtemp(path.join(tmpdir(), "pressroom-md-images-"));
    await mkdir(path.join(folder, "posts", "img"), { recursive: true });
    await writeFile(path.join(folder, "posts", "img", "dock.png"), await png("#3c3"));
    await writeFile(
      path.join(folder, "posts", "dock.md"),
      "---\ntitle: The dock\nslug: the-dock\ndate: 2026-01-02\ncover: img/dock.png\ncoverAlt: A green dock\n---\n![A green dock](./img/dock.png)\n",
    );
  });

  it("uploads the image, and the blog's cover and body name its URL on the server, the body's image sized", async () => {
    const r = await remote(["import", "--workspace", targetWs, folder]);
    ok(r);
    expect(r.stderr).toContain("Images: 1 uploaded to the library, 0 already there.");
    const media = await target.db
      .collection("media")
      .findOne({ workspaceId: targetWs, name: "dock.png" });
    expect(media?.alt).toBe("A green dock");
    const url = `${targetServer.url}/api/consumer/media/${media?._id}/dock.png`;
    const blog = await target.db
      .collection("blogs")
      .findOne({ workspaceId: targetWs, slug: "the-dock" });
    expect(blog?.coverImageUrl).toBe(url);
    expect(blog?.bodyMarkdown).toBe(`![A green dock](${url})\n`);
    // One of the target's library images, so its render sized it (README, "Media": bodyHtml).
    expect(blog?.bodyHtml).toContain('width="40" height="30"');
    expect(await pixelsOf(await served(url))).toEqual(await pixelsOf(await png("#3c3")));
  });

  it("running it again uploads the same bytes to the same image and changes nothing", async () => {
    const before = await stored(target.db, targetWs);
    const r = await remote(["import", "--workspace", targetWs, folder]);
    ok(r);
    expect(r.stderr).toContain("Images: 0 uploaded to the library, 1 already there.");
    expect(await stored(target.db, targetWs)).toEqual(before);
  });

  it("a file that is only named .png is refused with its problem; nothing uploaded or written", async () => {
    const bad = await mkdtemp(path.join(tmpdir(), "pressroom-md-bad-"));
    await writeFile(path.join(bad, "fake.png"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    await writeFile(path.join(bad, "a.md"), "---\ntitle: A\n---\n![x](fake.png)\n");
    const before = await stored(target.db, targetWs);
    const r = await remote(["import", "--workspace", targetWs, bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'a.md: image "fake.png" is not an image Pressroom takes: JPEG, PNG, WebP, AVIF or GIF.',
    );
    expect(await stored(target.db, targetWs)).toEqual(before);
  });

  it("a blog the server refuses uploads no image: the blogs are checked before any upload", async () => {
    const clash = await mkdtemp(path.join(tmpdir(), "pressroom-md-clash-"));
    await writeFile(path.join(clash, "new.png"), await png("#ccc", 50));
    // The slug of the blog imported above, from another file: a 409 of the import's plan.
    await writeFile(
      path.join(clash, "other.md"),
      "---\ntitle: Other\nslug: the-dock\n---\n![n](new.png)\n",
    );
    const before = await stored(target.db, targetWs);
    const r = await remote(["import", "--workspace", targetWs, clash]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('slug "the-dock"');
    expect(await stored(target.db, targetWs)).toEqual(before);
  });

  it("pressroom --server export writes the image files read from their public URLs", async () => {
    const out = path.join(dir, "remote.json");
    ok(await remote(["export", "--workspace", targetWs, "--out", out]));
    const doc = JSON.parse(await readFile(out, "utf8")) as WorkspaceExport;
    expect(doc.media).toHaveLength(3);
    const files = await readdir(path.join(dir, "remote-media"));
    expect(files.sort()).toEqual(doc.media.map((m) => `${m.id}-${m.name}`).sort());
  });
});

describe("error: --media-dir where it means nothing (README, 'Import and export', Images)", () => {
  it("a Markdown folder's images are beside its files: --media-dir is a usage error, and so is a folder that is not there", async () => {
    const md = await mkdtemp(path.join(tmpdir(), "pressroom-md-dir-"));
    const env = envOf(target, targetServer);
    const refused = await runCli(["import", "--workspace", targetWs, "--media-dir", md, md], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--media-dir is for a Ghost or Pressroom export");
    const gone = path.join(md, "gone");
    const missing = await runCli(
      ["import", "--workspace", targetWs, "--media-dir", gone, path.join(dir, "ws.json")],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--media-dir ${gone} is not a folder.`);
  });
});

describe("happy: the Ghost importer's --media-dir (README, 'Import and export', Ghost)", () => {
  it("uploads Ghost's content/images files and rewrites __GHOST_URL__ covers and body images to them", async () => {
    const ghost = await mkdtemp(path.join(tmpdir(), "pressroom-ghost-images-"));
    await mkdir(path.join(ghost, "images", "2025", "05"), { recursive: true });
    await writeFile(path.join(ghost, "images", "2025", "05", "boat.png"), await png("#399"));
    const post = {
      id: "g1",
      title: "Boats",
      slug: "boats",
      status: "published",
      type: "post",
      html: '<p>See</p><img src="__GHOST_URL__/content/images/2025/05/boat.png" alt="A boat">',
      feature_image: "__GHOST_URL__/content/images/2025/05/boat.png",
      created_at: "2025-05-01 10:00:00",
      updated_at: "2025-05-01 10:00:00",
      published_at: "2025-05-01 10:00:00",
    };
    await writeFile(
      path.join(ghost, "export.json"),
      JSON.stringify({ db: [{ meta: { version: "6.65.0" }, data: { posts: [post], users: [] } }] }),
    );
    ok(
      await runCli(
        [
          "import",
          "--workspace",
          targetWs,
          "--media-dir",
          path.join(ghost, "images"),
          path.join(ghost, "export.json"),
        ],
        envOf(target, targetServer),
      ),
    );
    const media = await target.db
      .collection("media")
      .findOne({ workspaceId: targetWs, name: "boat.png" });
    const url = `${targetServer.url}/api/consumer/media/${media?._id}/boat.png`;
    const blog = await target.db
      .collection("blogs")
      .findOne({ workspaceId: targetWs, slug: "boats" });
    expect(blog?.coverImageUrl).toBe(url);
    expect(blog?.bodyMarkdown).toContain(`![A boat](${url})`);
    expect(media?.alt).toBe("A boat");
  });
});

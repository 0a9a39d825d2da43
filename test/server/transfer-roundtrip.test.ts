// `pressroom export` / `pressroom import` (README, "Operator CLI" and "Import and export"): Pressroom's own
// format round-trips exactly, imports are idempotent, and a bad source writes nothing.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { createStores } from "../../server/src/stores.js";
import type { WorkspaceExport } from "../../server/src/transfer/export-workspace.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { CLI_PATH, type CliResult, runCli } from "../support/cli.js";
import { editLive, get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let source: TestDb;
let target: TestDb;
let server: TestServer;
let admin: AdminClient;
let dir: string;
let sourceWs: string;
let targetWs: string;
let exported: WorkspaceExport;
let exportText: string;
const secrets: string[] = [];
let targetKey: string;
let sinceToken: string;

const envOf = (t: TestDb) => ({ MONGODB_URI: t.uri, MONGODB_DB: t.name });
/** `runCli` on the source database under umask 022, with which a plain new file is 0644. */
const runCliWithUmask022 = (args: string[]): Promise<CliResult> =>
  new Promise((resolve) => {
    execFile(
      "/bin/sh",
      ["-c", 'umask 022 && exec "$0" "$@"', process.execPath, CLI_PATH, ...args],
      { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...envOf(source) } },
      (err, stdout, stderr) =>
        resolve({
          code: err === null ? 0 : typeof err.code === "number" ? err.code : 1,
          stdout,
          stderr,
        }),
    );
  });
const ok = (r: CliResult): string => {
  expect(r.stderr.includes("Error"), r.stderr).toBe(false);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const file = async (name: string, content: string): Promise<string> => {
  const at = path.join(dir, name);
  await writeFile(at, content);
  return at;
};
/**
 * Every stored document of workspace `ws` an import may write, for "nothing changed" (not
 * `apiKeys`: a consumer request updates its key's `lastUsedAt` later).
 */
const snapshot = async (db: Db, ws: string) =>
  Promise.all([
    ...["blogs", "webhookEndpoints", "changes"].map((name) =>
      db.collection(name).find({ workspaceId: ws }).sort({ _id: 1 }).toArray(),
    ),
    db
      .collection("markers")
      .find({ _id: { $regex: `^import:${ws}:` } as never })
      .toArray(),
    db
      .collection("workspaces")
      .find({ _id: ws as never })
      .toArray(),
  ]);
/** The server's outbox relay has taken the webhook events of the workspace's blogs. */
async function relayed(db: Db, ws: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      (await db.collection("blogs").countDocuments({ workspaceId: ws, webhookPending: true })) === 0
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("The outbox relay did not take the events within 30 s.");
}
/** The presentation and search fields of "Hello world" (openapi.yaml, "Presentation and search fields"). */
const PRESENTATION = {
  coverImageAlt: "A lighthouse at dusk",
  featured: true,
  metaTitle: "Hello, world — the search title",
  metaDescription: "What a search engine shows under the title.",
  canonicalUrl: "https://first.example.org/hello",
  socialImageUrl: "https://images.example.com/hello-card.png",
};
/** The content of an export: what a round trip keeps (the format's identities dropped). */
const contentOf = (doc: WorkspaceExport) => doc.blogs.map(({ id: _id, ...rest }) => rest);

async function seedSource(db: Db): Promise<string> {
  const s = createStores(db);
  const ws = (await s.workspaces.create("Source newsroom"))._id;
  const write = (title: string, extra: Record<string, unknown> = {}) =>
    s.blogs.create(ws, { title, bodyMarkdown: `Body of *${title}*.\n\nMore.`, ...extra });
  const tick = () => new Promise((r) => setTimeout(r, 3));
  await write("Hello world", {
    release: true,
    tags: ["news", "launch"],
    excerpt: "A custom excerpt",
    coverImageUrl: "https://images.example.com/hello.png",
    authorName: "Ada",
    ...PRESENTATION,
  });
  await tick();
  await write("Ünïcödé — 日本語のブログ", { tags: ["日本語", "c++"], slug: "unicode" });
  await tick();
  const removed = await write("Gone", { release: true });
  await s.blogs.setStatus(ws, removed._id, "removed");
  await tick();
  const back = await write("Released then unreleased", { release: true });
  await s.blogs.setStatus(ws, back._id, "draft");
  await tick();
  const edited = await write("Edited later", { release: true });
  await editLive(s.blogs, ws, edited._id, { bodyMarkdown: "A [link](https://example.com) here." });
  const minted = await s.keys.mint(ws, "Website");
  const hash = (await db.collection("apiKeys").findOne({ keyId: minted.id }))?._id;
  const hook = await s.webhookEndpoints.create(
    ws,
    { url: "https://hooks.example.com/pressroom", events: ["blog.released"], description: "Site" },
    null,
  );
  // A receiver that takes its token in the URL: the token is a secret too.
  await s.webhookEndpoints.create(
    ws,
    {
      url: "https://hooks.example.com/in?token=url-token-0123456789",
      events: ["blog.updated"],
    },
    null,
  );
  const sealed = (
    await db.collection("webhookEndpoints").findOne({ _id: hook.endpoint._id as never })
  )?.secret;
  const user = await s.users.create({
    email: "e@example.com",
    name: "E",
    password: "a long password",
  });
  const passwordHash = (await db.collection("users").findOne({ _id: user._id as never }))
    ?.passwordHash;
  secrets.push(minted.key, String(hash), hook.secret, String(sealed), String(passwordHash));
  secrets.push("url-token-0123456789");
  return ws;
}

beforeAll(async () => {
  source = await useTestDb();
  target = await useTestDb();
  server = await startTestServer(target.db);
  admin = new AdminClient(server.url);
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-transfer-"));
  sourceWs = await seedSource(source.db);
  targetWs = (await admin.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body
    .workspaces[0]?.id as string;
  // A consumer of the target workspace that follows the changes feed from before the import.
  targetKey = (await createStores(target.db).keys.mint(targetWs, "Mirror")).key;
  const start = await get(`${server.url}/api/consumer/changes`, { "x-api-key": targetKey });
  sinceToken = (start.body as { nextToken: string }).nextToken;
  exportText = ok(await runCli(["export", "--workspace", sourceWs], envOf(source)));
  exported = JSON.parse(exportText) as WorkspaceExport;
}, 120_000);

describe("happy: round trip (README, 'Operator CLI': export, import)", () => {
  it("exports every blog in every state, keys and endpoints as metadata, in the documented format", () => {
    expect(exported).toMatchObject({ format: "pressroom.workspace-export", version: 1 });
    expect(exported.blogs.map((b) => [b.slug, b.status])).toEqual([
      ["hello-world", "released"],
      ["unicode", "draft"],
      ["gone", "removed"],
      ["released-then-unreleased", "draft"],
      ["edited-later", "released"],
    ]);
    expect(exported.blogs[0]).toMatchObject({
      excerpt: "A custom excerpt",
      tags: ["news", "launch"],
      coverImageUrl: "https://images.example.com/hello.png",
      ...PRESENTATION,
    });
    expect(exported.blogs[1]).toMatchObject({
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
    });
    // A derived excerpt is exported as null, so the importer derives it again.
    expect(exported.blogs[4]?.excerpt).toBeNull();
    expect(exported.blogs[3]?.releasedAt).toBeNull();
    expect(exported.keys).toMatchObject([{ name: "Website" }]);
    expect(exported.webhookEndpoints).toEqual([
      {
        url: "https://hooks.example.com/pressroom",
        description: "Site",
        events: ["blog.released"],
        enabled: true,
      },
      // Origin and path only (export-workspace.ts header).
      {
        url: "https://hooks.example.com/in",
        description: "",
        events: ["blog.updated"],
        enabled: true,
      },
    ]);
  });

  it("export → import into an empty database → export gives the same blogs; again: all unchanged, nothing written", async () => {
    const from = await file("ws.json", exportText);
    const imported = JSON.parse(
      ok(await runCli(["import", "--workspace", targetWs, "--json", from], envOf(target))),
    );
    expect(imported.counts).toMatchObject({ create: 5, update: 0, unchanged: 0, skipped: 3 });
    const again = JSON.parse(ok(await runCli(["export", "--workspace", targetWs], envOf(target))));
    expect(contentOf(again)).toEqual(contentOf(exported));
    // Keys and endpoints in the file are reported as skipped, never created.
    expect(imported.skipped.map((s: { origin: string }) => s.origin)).toEqual([
      "keys[0]",
      "webhookEndpoints[0]",
      "webhookEndpoints[1]",
    ]);
    expect(await target.db.collection("apiKeys").countDocuments({})).toBe(1); // the mirror's
    expect(await target.db.collection("webhookEndpoints").countDocuments({})).toBe(0);

    await relayed(target.db, targetWs);
    const before = await snapshot(target.db, targetWs);
    const rerun = JSON.parse(
      ok(await runCli(["import", "--workspace", targetWs, "--json", from], envOf(target))),
    );
    expect(rerun.counts).toMatchObject({ create: 0, update: 0, unchanged: 5 });
    expect(await snapshot(target.db, targetWs)).toEqual(before);
  });

  it("the presentation fields and the reading time arrive as stored in the source; a re-import whose metaTitle changed is an update, the same file again unchanged (README, 'Import and export')", async () => {
    const ws = (await createStores(target.db).workspaces.create("Presentation"))._id;
    const run = async (name: string, doc: unknown) => {
      const from = await file(name, JSON.stringify(doc));
      const args = ["import", "--workspace", ws, "--json", from];
      return JSON.parse(ok(await runCli(args, envOf(target)))).counts;
    };
    const hello = () =>
      target.db.collection("blogs").findOne({ workspaceId: ws, slug: "hello-world" });
    expect(await run("p1.json", exported)).toMatchObject({ create: 5 });
    const sourceHello = await source.db
      .collection("blogs")
      .findOne({ workspaceId: sourceWs, slug: "hello-world" });
    expect(await hello()).toMatchObject({
      ...PRESENTATION,
      readingTimeMinutes: sourceHello?.readingTimeMinutes,
    });
    const consumerKey = (await createStores(target.db).keys.mint(ws, "Site")).key;
    const served = await get(`${server.url}/api/consumer/blogs/${(await hello())?._id}`, {
      "x-api-key": consumerKey,
    });
    expect(served.body).toMatchObject({ ...PRESENTATION, readingTimeMinutes: 1 });

    const changed = structuredClone(exported);
    (changed.blogs[0] as { metaTitle: string | null }).metaTitle = "A new search title";
    expect(await run("p2.json", changed)).toMatchObject({ create: 0, update: 1, unchanged: 4 });
    expect(await run("p2.json", changed)).toMatchObject({ create: 0, update: 0, unchanged: 5 });
    expect((await hello())?.metaTitle).toBe("A new search title");

    // An export made before the fields existed has none of them: null, and not featured.
    const older = structuredClone(exported);
    for (const blog of older.blogs as unknown as Record<string, unknown>[]) {
      for (const field of Object.keys(PRESENTATION)) delete blog[field];
    }
    expect(await run("p3.json", older)).toMatchObject({ update: 1, unchanged: 4 });
    expect(await hello()).toMatchObject({
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
    });
  });

  it("imported released blogs are visible to consumers and in the changes feed; drafts and removed are not; editors see drafts", async () => {
    const headers = { "x-api-key": targetKey };
    const list = await get(`${server.url}/api/consumer/blogs`, headers);
    const titles = (list.body as { data: { title: string }[] }).data.map((b) => b.title).sort();
    expect(titles).toEqual(["Edited later", "Hello world"]);
    const stored = await target.db.collection("blogs").find({ workspaceId: targetWs }).toArray();
    for (const blog of stored) {
      const one = await get(`${server.url}/api/consumer/blogs/${blog._id}`, headers);
      expect([blog.title, one.status]).toEqual([
        blog.title,
        blog.status === "released" ? 200 : 404,
      ]);
    }
    const changes = await get(
      `${server.url}/api/consumer/changes?since=${encodeURIComponent(sinceToken)}`,
      headers,
    );
    const upserts = (
      changes.body as { changes: { type: string; blog?: { title: string } }[] }
    ).changes
      .filter((c) => c.type === "upsert")
      .map((c) => c.blog?.title)
      .sort();
    expect(upserts).toEqual(["Edited later", "Hello world"]);
    await admin.post("/session", { email: OWNER.email, password: OWNER.password });
    const editors = await admin.get<{ data: { title: string; status: string }[] }>(
      `/workspaces/${targetWs}/blogs?limit=50`,
    );
    expect(editors.body.data.map((b) => b.title).sort()).toEqual(
      [
        "Edited later",
        "Hello world",
        "Released then unreleased",
        "Ünïcödé — 日本語のブログ",
      ].sort(),
    );
  });
});

describe("happy: export --out (README, 'Operator CLI': export)", () => {
  it("writes the whole export to the file, through a temporary file renamed at the end", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "pressroom-export-out-"));
    const out = path.join(folder, "ws.json");
    ok(await runCli(["export", "--workspace", sourceWs, "--out", out], envOf(source)));
    const written = JSON.parse(await readFile(out, "utf8")) as WorkspaceExport;
    expect(contentOf(written)).toEqual(contentOf(exported));
    expect(await readdir(folder)).toEqual(["ws.json"]);
  });

  it("creates the file readable by its owner only (0600, as a backup), also in place of a 0644 one", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "pressroom-export-mode-"));
    const fresh = path.join(folder, "fresh.json");
    const replaced = path.join(folder, "replaced.json");
    await writeFile(replaced, "{}", { mode: 0o644 });
    await chmod(replaced, 0o644); // whatever the umask
    for (const out of [fresh, replaced]) {
      ok(await runCliWithUmask022(["export", "--workspace", sourceWs, "--out", out]));
      expect((await stat(out)).mode & 0o777).toBe(0o600);
      expect(contentOf(JSON.parse(await readFile(out, "utf8")))).toEqual(contentOf(exported));
    }
  });
});

describe("happy: dry run (README, 'Operator CLI': --dry-run)", () => {
  it("reports what would be created and writes nothing", async () => {
    const ws = JSON.parse(
      ok(await runCli(["workspace", "create", "--name", "Dry", "--json"], envOf(target))),
    ).id;
    const before = await snapshot(target.db, ws);
    const from = await file("dry.json", exportText);
    const plan = JSON.parse(
      ok(await runCli(["import", "--workspace", ws, "--dry-run", "--json", from], envOf(target))),
    );
    expect(plan).toMatchObject({ dryRun: true, counts: { create: 5, update: 0, unchanged: 0 } });
    expect(plan.entries.map((e: { slug: string; action: string }) => [e.slug, e.action])).toEqual(
      exported.blogs.map((b) => [b.slug, "create"]),
    );
    expect(await snapshot(target.db, ws)).toEqual(before);
  });
});

describe("error: a bad source is named and nothing is written (README, 'Operator CLI': import)", () => {
  const refused = async (name: string, content: string) => {
    const ws = JSON.parse(
      ok(await runCli(["workspace", "create", "--name", name, "--json"], envOf(target))),
    ).id as string;
    const before = await snapshot(target.db, ws);
    const result = await runCli(
      ["import", "--workspace", ws, await file(name, content)],
      envOf(target),
    );
    expect(result.code).toBe(1);
    expect(await snapshot(target.db, ws)).toEqual(before);
    return result.stderr;
  };

  it("broken JSON is reported with its line and column", async () => {
    const stderr = await refused(
      "broken.json",
      '{\n  "format": "pressroom.workspace-export",\n  "version": 1,\n  "blogs": [}\n}',
    );
    expect(stderr).toContain("broken.json:4:13: not valid JSON");
  });

  it("every bad entry is named by its index and slug, with its field", async () => {
    const doc = structuredClone(exported);
    (doc.blogs[1] as { slug: string }).slug = "Not A Slug";
    (doc.blogs[3] as { tags: string[] }).tags = ["ok", "OK"];
    (doc.blogs[4] as { releasedAt: unknown }).releasedAt = "yesterday";
    // As the admin API refuses it (admin.yaml, CoverImageUrlInput): no user name or password.
    (doc.blogs[2] as { coverImageUrl: string }).coverImageUrl =
      "https://user:secret@images.example.com/a.png";
    const stderr = await refused("entries.json", JSON.stringify(doc));
    expect(stderr).toMatch(
      /blogs\[2\] "[^"]+": "coverImageUrl" must not carry a user name or password/,
    );
    expect(stderr).toContain('blogs[1] "Not A Slug": "slug" must be lower-case');
    expect(stderr).toContain('blogs[3] "released-then-unreleased": "tags" must be distinct');
    expect(stderr).toContain('blogs[4] "edited-later": "releasedAt" must be an ISO 8601 date-time');
    expect(stderr).toContain("Nothing was imported: 4 problem(s)");
  });

  it("a slug already used by another blog of the workspace is named", async () => {
    const stores = createStores(target.db);
    const ws = (await stores.workspaces.create("Clash"))._id;
    await stores.blogs.create(ws, { title: "Mine", slug: "unicode", bodyMarkdown: "x" });
    const before = await snapshot(target.db, ws);
    const result = await runCli(
      ["import", "--workspace", ws, await file("clash.json", exportText)],
      envOf(target),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /blogs\[1\] "unicode": slug "unicode" is already used in this workspace by blog b_/,
    );
    expect(await snapshot(target.db, ws)).toEqual(before);
  });

  it("export --out into a missing folder: exit 1, one clear line, no stack trace, no file", async () => {
    const out = path.join(dir, "no-such-folder", "ws.json");
    const result = await runCli(["export", "--workspace", sourceWs, "--out", out], envOf(source));
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Cannot write the export to ${out}: its folder does not exist.`,
    );
    expect(await readdir(dir)).not.toContain("no-such-folder");
  });

  it("a JSON file over IMPORT_MAX_BYTES is refused unread, naming the file and the limit (README, 'Import and export')", async () => {
    const ws = JSON.parse(
      ok(await runCli(["workspace", "create", "--name", "Big", "--json"], envOf(target))),
    ).id as string;
    const before = await snapshot(target.db, ws);
    const big = await file("big.json", exportText);
    const size = Buffer.byteLength(exportText).toLocaleString("en");
    for (const from of [[], ["--from", "pressroom"], ["--from", "ghost"]]) {
      const result = await runCli(["import", "--workspace", ws, ...from, big], {
        ...envOf(target),
        IMPORT_MAX_BYTES: "1024",
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        `big.json: is ${size} bytes, over the 1,024-byte limit of a JSON import (IMPORT_MAX_BYTES); not read`,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await snapshot(target.db, ws)).toEqual(before);
  });

  it("an unknown format version is refused", async () => {
    const stderr = await refused("v2.json", JSON.stringify({ ...exported, version: 2 }));
    expect(stderr).toContain("export version 2 is not one this Pressroom reads");
  });
});

describe("security: an export holds no secret (README, 'Operator CLI': export)", () => {
  it("contains no raw key, key hash, webhook secret (raw or sealed), password hash, or a webhook URL's query string", () => {
    expect(secrets).toHaveLength(6);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(exportText.includes(secret)).toBe(false);
    }
    expect(exportText).not.toMatch(/passwordHash|"hash"|secret/i);
  });
});

// The CLI's remote mode (README, "Operator CLI" and "Publishing from CI"): `pressroom --server
// URL …` with an access token in PRESSROOM_TOKEN does through the admin API what the same
// command does on the server's machine — a Markdown import that a CI job can run on every merge
// (the second run changes nothing), an export, blog create/update/release — and never shows the
// token, sends it in clear to another host, or takes it from the command line.

import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { onFileEnd } from "../support/cleanup.js";
import { type CliResult, runCli } from "../support/cli.js";
import { get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;
let token: string;
let key: string;
let folder: string;

async function mintToken(scopes: string[]): Promise<string> {
  const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const res = await owner.post<{ secret: string }>("/me/tokens", { name: "CI", scopes, expiresAt });
  expect(res.status).toBe(201);
  return res.body.secret;
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  token = await mintToken(["blogs:write"]);
  const minted = await owner.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Site" });
  key = minted.body.secret;
  folder = await mkdtemp(path.join(tmpdir(), "pressroom-remote-"));
  await mkdir(path.join(folder, "2026"), { recursive: true });
  await writeFile(
    path.join(folder, "2026", "launch.md"),
    "---\ntitle: Launch day\ntags: [News]\ndate: 2026-03-01\n---\nWe *launched*.\n",
  );
  await writeFile(
    path.join(folder, "ideas.md"),
    "---\ntitle: Ideas\nslug: remote-ideas\ndraft: true\n---\nNot yet.\n",
  );
});

/** The CLI with no database settings at all: only the server's URL and the token. */
const remote = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(["--server", server.url, ...args], { PRESSROOM_TOKEN: token, ...env });

/** Neither output of a run holds the token. */
function tokenNowhere(r: CliResult, secret = token): void {
  expect(r.stdout).not.toContain(secret);
  expect(r.stderr).not.toContain(secret);
}

describe("import, as a CI job runs it on every merge", () => {
  it("imports the folder; the next run changes nothing; an edited file updates its blog", async () => {
    const first = await remote(["import", "--workspace", ws, "--json", folder]);
    expect(first.code, first.stderr).toBe(0);
    tokenNowhere(first);
    expect(JSON.parse(first.stdout)).toMatchObject({
      dryRun: false,
      counts: { create: 2, update: 0, unchanged: 0, conflict: 0, skipped: 0 },
      applied: { created: 2 },
    });
    const launch = await get(`${server.url}/api/consumer/blogs/by-slug/launch`, {
      "x-api-key": key,
    });
    expect(launch.body).toMatchObject({ title: "Launch day", tags: ["news"] });

    const again = await remote(["import", "--workspace", ws, folder]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      "Imported: create 0, update 0, leave 2 unchanged; 0 conflict(s)",
    );
    // The same folder imported on the server's machine finds the same blogs.
    const local = await runCli(["import", "--workspace", ws, "--json", folder], {
      MONGODB_URI: t.uri,
      MONGODB_DB: t.name,
    });
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout).counts).toMatchObject({ create: 0, update: 0, unchanged: 2 });

    await writeFile(
      path.join(folder, "2026", "launch.md"),
      "---\ntitle: Launch day\ntags: [News]\ndate: 2026-03-01\n---\nWe *launched*, again.\n",
    );
    const dry = await remote(["import", "--workspace", ws, "--dry-run", folder]);
    expect(dry.stdout).toContain(
      "Dry run, nothing written: would create 0, update 1, leave 1 unchanged",
    );
    const third = await remote(["import", "--workspace", ws, "--json", folder]);
    expect(JSON.parse(third.stdout).counts).toMatchObject({ update: 1, unchanged: 1 });
    const edited = await get(`${server.url}/api/consumer/blogs/by-slug/launch`, {
      "x-api-key": key,
    });
    expect((edited.body as { bodyMarkdown: string }).bodyMarkdown).toContain("again");
  });

  it("a source with problems exits 1 naming them, and writes nothing", async () => {
    const bad = await mkdtemp(path.join(tmpdir(), "pressroom-remote-bad-"));
    await writeFile(path.join(bad, "taken.md"), "---\ntitle: Taken\nslug: launch\n---\nA clash.\n");
    const r = await remote(["import", "--workspace", ws, bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Nothing was imported: 1 problem(s)");
    expect(r.stderr).toContain('taken.md: slug "launch" is already used in this workspace');
  });
});

describe("export", () => {
  it("writes Pressroom's format to a file, which the local import reads", async () => {
    const file = path.join(folder, "..", `export-${Date.now()}.json`);
    const r = await remote(["export", "--workspace", ws, "--out", file]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(await readFile(file, "utf8")) as {
      format: string;
      blogs: { slug: string }[];
      keys: unknown[];
    };
    expect(doc.format).toBe("pressroom.workspace-export");
    expect(doc.blogs.map((b) => b.slug).sort()).toEqual(["launch", "remote-ideas"]);
    // The token has no keys:manage: the export lists no keys (admin.yaml exportWorkspace).
    expect(doc.keys).toEqual([]);
    const stdout = await remote(["export", "--workspace", ws]);
    expect(JSON.parse(stdout.stdout).blogs).toHaveLength(2);
  });
});

describe("blog commands", () => {
  it("create --release, update (pending until --publish), list, remove", async () => {
    const body = path.join(folder, "..", `body-${Date.now()}.md`);
    await writeFile(body, "First words.\n");
    const created = await remote([
      "blog",
      "create",
      "--workspace",
      ws,
      "--title",
      "From CI",
      "--body-file",
      body,
      "--release",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const seen = await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key });
    expect(seen.status).toBe(200);

    const staged = await remote([
      "blog",
      "update",
      "--workspace",
      ws,
      id,
      "--title",
      "From CI, edited",
    ]);
    expect(staged.code, staged.stderr).toBe(0);
    expect(staged.stdout).toContain("Its changes are pending");
    expect(
      (await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key })).body,
    ).toMatchObject({ title: "From CI" });
    const published = await remote([
      "blog",
      "update",
      "--workspace",
      ws,
      id,
      "--title",
      "From CI, edited",
      "--publish",
    ]);
    expect(published.code, published.stderr).toBe(0);
    expect(
      (await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key })).body,
    ).toMatchObject({ title: "From CI, edited" });

    const list = await remote(["blog", "list", "--workspace", ws, "--json"]);
    expect(
      (JSON.parse(list.stdout) as { blogs: { id: string }[] }).blogs.map((b) => b.id),
    ).toContain(id);
    const removed = await remote(["blog", "remove", "--workspace", ws, id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key })).status).toBe(
      404,
    );
    tokenNowhere(removed);
  });
});

describe("blog commands — presentation and search fields (README, 'Operator CLI')", () => {
  it("create --featured --meta-title … sends the six fields; update --no-featured and an empty --meta-title clear them", async () => {
    const created = await remote([
      "blog",
      "create",
      "--workspace",
      ws,
      "--title",
      "Dressed from CI",
      "--cover-image-alt",
      "A harbour",
      "--featured",
      "--meta-title",
      "Search title",
      "--meta-description",
      "Card text.",
      "--canonical-url",
      "https://first.example.org/ci",
      "--social-image-url",
      "https://images.example.com/ci.png",
      "--release",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const seen = await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key });
    expect(seen.body).toMatchObject({
      coverImageAlt: "A harbour",
      featured: true,
      metaTitle: "Search title",
      metaDescription: "Card text.",
      canonicalUrl: "https://first.example.org/ci",
      socialImageUrl: "https://images.example.com/ci.png",
    });
    const updated = await remote([
      "blog",
      "update",
      "--workspace",
      ws,
      id,
      "--no-featured",
      "--meta-title",
      "",
      "--publish",
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    const after = await get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": key });
    expect(after.body).toMatchObject({
      featured: false,
      metaTitle: null,
      coverImageAlt: "A harbour",
    });
  });

  it("import sends a Markdown file's presentation fields through the admin API (README, 'Import and export')", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pressroom-remote-seo-"));
    await writeFile(
      path.join(dir, "seo.md"),
      "---\ntitle: SEO\nslug: remote-seo\ndate: 2026-03-02\nmeta_title: Remote search title\ndescription: Remote card.\ncanonical: https://first.example.org/seo\nog_image: https://images.example.com/seo.png\ncover_alt: Remote alt\nfeatured: true\n---\nText.\n",
    );
    const r = await remote(["import", "--workspace", ws, "--json", dir]);
    expect(r.code, r.stderr).toBe(0);
    const list = await get(`${server.url}/api/consumer/blogs?featured=true`, { "x-api-key": key });
    const blog = (list.body as { data: { slug: string; id: string }[] }).data.find(
      (b) => b.slug === "remote-seo",
    );
    const one = await get(`${server.url}/api/consumer/blogs/${blog?.id}`, { "x-api-key": key });
    expect(one.body).toMatchObject({
      metaTitle: "Remote search title",
      metaDescription: "Remote card.",
      canonicalUrl: "https://first.example.org/seo",
      socialImageUrl: "https://images.example.com/seo.png",
      coverImageAlt: "Remote alt",
      featured: true,
    });
    const again = await remote(["import", "--workspace", ws, "--json", dir]);
    expect(JSON.parse(again.stdout).counts).toMatchObject({ unchanged: 1, update: 0 });
  });
});

describe("import --server carries authors (README, 'Import and export'; admin.yaml ImportRequest.authors)", () => {
  it("a Ghost export's authors reach the workspace through the admin API with their public profile, never an email; a second run changes nothing", async () => {
    const ghost = JSON.parse(
      await readFile(new URL("../fixtures/ghost-6.65-export.json", import.meta.url), "utf8"),
    );
    const [user] = ghost.db[0].data.users;
    user.bio = "Edits Field Notes.";
    user.website = "https://ada.example.org/";
    const dir = await mkdtemp(path.join(tmpdir(), "pressroom-remote-ghost-"));
    const file = path.join(dir, "ghost.json");
    await writeFile(file, JSON.stringify(ghost));
    const other = (await owner.post<{ id: string }>("/workspaces", { name: "Remote Ghost" })).body
      .id;
    const r = await remote(["import", "--workspace", other, "--from", "ghost", "--json", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).authors).toEqual([
      { slug: "ada", name: "Ada Editor", action: "create" },
    ]);
    const list = await owner.get<{ data: Record<string, unknown>[] }>(
      `/workspaces/${other}/authors`,
    );
    expect(list.body.data).toMatchObject([
      {
        slug: "ada",
        name: "Ada Editor",
        bio: "Edits Field Notes.",
        websiteUrl: "https://ada.example.org/",
      },
    ]);
    const stored = JSON.stringify(
      await t.db.collection("authors").find({ workspaceId: other }).toArray(),
    );
    expect(stored).not.toContain("ada@example.com");
    const again = await remote(["import", "--workspace", other, "--from", "ghost", "--json", file]);
    expect(JSON.parse(again.stdout).counts).toMatchObject({ create: 0, update: 0 });
  });
});

describe("refusals", () => {
  it("a command that needs the database says so (exit 2)", async () => {
    const r = await remote(["key", "mint", "--workspace", ws, "--name", "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"key mint" works on the server's machine only`);
  });

  it("no token, a malformed one, or http to another host: refused before any request, the token never shown", async () => {
    const none = await runCli(["--server", server.url, "workspace", "list"], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("PRESSROOM_TOKEN must hold an access token");
    const cut = token.slice(0, -1);
    const malformed = await remote(["workspace", "list"], { PRESSROOM_TOKEN: cut });
    expect(malformed.code).toBe(1);
    tokenNowhere(malformed, cut);
    const clear = await runCli(["--server", "http://pressroom.example.com", "workspace", "list"], {
      PRESSROOM_TOKEN: token,
    });
    expect(clear.code).toBe(1);
    expect(clear.stderr).toContain("--server must use https");
    tokenNowhere(clear);
  });

  it("a revoked token exits 1 with the server's refusal", async () => {
    const revoked = await mintToken(["blogs:read"]);
    const list = await owner.get<{ data: { id: string; name: string }[] }>("/me/tokens");
    const id = list.body.data[0]?.id ?? ""; // newest first (admin.yaml listAccessTokens)
    expect((await owner.delete(`/me/tokens/${id}`)).status).toBe(204);
    const r = await remote(["blog", "list", "--workspace", ws], { PRESSROOM_TOKEN: revoked });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refused PRESSROOM_TOKEN");
    tokenNowhere(r, revoked);
  });

  it("a scope the token lacks is the server's 403, exit 1", async () => {
    const reader = await mintToken(["blogs:read"]);
    const r = await remote(["import", "--workspace", ws, folder], { PRESSROOM_TOKEN: reader });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does not have the scope blogs:write");
  });
});

describe("retries (README: clients retry 5xx with backoff)", () => {
  it("a read answered 503 with Retry-After is sent again and succeeds; a create answered 500 is not", async () => {
    const seen: string[] = [];
    let failures = 2;
    const flaky = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      if (req.method === "GET" && failures-- > 0) {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        res.end(JSON.stringify({ message: "Busy." }));
        return;
      }
      if (req.method === "POST") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Internal server error." }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          data: [{ id: "ws_1", name: "One", role: "owner", createdAt: new Date().toISOString() }],
        }),
      );
    });
    await new Promise<void>((r) => flaky.listen(0, "127.0.0.1", r));
    onFileEnd(() => new Promise<void>((r) => flaky.close(() => r())));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    const list = await runCli(["--server", url, "workspace", "list"], { PRESSROOM_TOKEN: token });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("ws_1");
    expect(list.stderr.match(/HTTP 503; trying again/g)).toHaveLength(2);
    expect(seen.filter((s) => s.startsWith("GET"))).toHaveLength(3);

    const create = await runCli(
      ["--server", url, "blog", "create", "--workspace", "ws_1", "--title", "T"],
      {
        PRESSROOM_TOKEN: token,
      },
    );
    expect(create.code).toBe(1);
    expect(seen.filter((s) => s.startsWith("POST"))).toHaveLength(1);
  });
});

// Preview on the team's own site (openapi.yaml, "Preview"; admin.yaml mintKey `kind`,
// setPreviewUrl, createPreviewLink): preview keys read drafts and pending changes as they would
// be published, on /api/preview only; every preview answer says so, is never cached and never
// shares an ETag with a live one; live and preview keys are each refused on the other's path;
// preview links carry a signed one-hour token for one blog, which a site exchanges with its live
// key, and every refusal of a token is one message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { previewTokens } from "../../server/src/preview/preview-tokens.js";
import { AdminClient, ANY_VERSION, OWNER, versionOf } from "../support/admin-client.js";
import { Mirror } from "../support/changes-mirror.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type ApiKey = components["schemas"]["ApiKey"];
type Workspace = components["schemas"]["Workspace"];
interface Blog {
  id: string;
  slug: string;
  title: string;
  tags: string[];
  releasedAt: string;
  bodyMarkdown: string;
}

const TOKEN_MESSAGE =
  "This preview link is not valid or has expired. Open the preview again from the editor.";

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;
let otherWs: string;
let liveKey = "";
let previewKey = "";
let otherLiveKey = "";
let made = 0;

const mint = async (workspaceId: string, body: Record<string, unknown>) =>
  owner.post<{ key: ApiKey; secret: string }>(`/workspaces/${workspaceId}/keys`, body);

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  otherWs = (await owner.post<{ id: string }>("/workspaces", { name: "Elsewhere" })).body.id;
  liveKey = (await mint(ws, { name: "Site" })).body.secret;
  previewKey = (await mint(ws, { name: "Preview site", kind: "preview" })).body.secret;
  otherLiveKey = (await mint(otherWs, { name: "Other site" })).body.secret;
});
afterAll(async () => {
  await server?.stop();
});

const blogPath = (id: string) => `/workspaces/${ws}/blogs/${id}`;

async function draft(fields: Record<string, unknown> = {}): Promise<AdminBlog> {
  made++;
  const res = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title: `Preview ${made}`,
    slug: `preview-${made}`,
    bodyMarkdown: "Draft words.",
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function released(fields: Record<string, unknown> = {}): Promise<AdminBlog> {
  const blog = await draft(fields);
  const res = await owner.post<AdminBlog>(
    `${blogPath(blog.id)}/release`,
    undefined,
    versionOf(blog),
  );
  expect(res.status).toBe(200);
  return res.body;
}

const get = (base: "consumer" | "preview", path: string, headers: Record<string, string>) =>
  fetch(`${server.url}/api/${base}${path}`, { headers });
const live = (path: string, headers: Record<string, string> = {}) =>
  get("consumer", path, { "x-api-key": liveKey, ...headers });
const preview = (path: string, headers: Record<string, string> = {}) =>
  get("preview", path, { "x-api-key": previewKey, ...headers });

async function walk(read: typeof live, query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query === "" ? "?" : `?${query}&`;
    const path: string = `/blogs${sep}limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
    const res = await read(path);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Blog[]; nextCursor: string | null };
    ids.push(...body.data.map((b) => b.id));
    cursor = body.nextCursor;
    pages++;
  } while (cursor !== null);
  return { ids, pages };
}

describe("preview keys: their own prefix, minted by owners, refused on the live path", () => {
  it("a preview key is cp_preview_…, listed with its kind; a live key stays cp_live_…", async () => {
    expect(previewKey).toMatch(/^cp_preview_[0-9A-Za-z]{42}$/);
    expect(liveKey).toMatch(/^cp_live_[0-9A-Za-z]{42}$/);
    const keys = (await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`)).body.data;
    const kinds = Object.fromEntries(keys.map((k) => [k.name, [k.kind, k.prefix]]));
    expect(kinds["Preview site"]).toEqual(["preview", previewKey.slice(0, 15)]);
    expect(kinds.Site).toEqual(["live", liveKey.slice(0, 12)]);
  });

  it("only the owner mints or rolls a preview key: a member gets 403 and nothing is stored", async () => {
    const email = "member-of-preview@example.com";
    const password = "a member's password";
    const user = await stores(t.db).users.create({ email, name: "Mem", password });
    await stores(t.db).workspaces.join(ws, user._id, "member");
    const member = new AdminClient(server.url);
    expect((await member.post("/session", { email, password })).status).toBe(200);
    const before = await collections(t.db).apiKeys.countDocuments({ workspaceId: ws });
    const refused = await member.post(`/workspaces/${ws}/keys`, { name: "Sneak", kind: "preview" });
    expect(refused.status).toBe(403);
    expect(await collections(t.db).apiKeys.countDocuments({ workspaceId: ws })).toBe(before);
    const keys = (await owner.get<{ data: ApiKey[] }>(`/workspaces/${ws}/keys`)).body.data;
    const previewId = keys.find((k) => k.kind === "preview")?.id ?? "";
    const roll = await member.post(`/workspaces/${ws}/keys/${previewId}/roll`, {
      gracePeriodSeconds: 3600,
    });
    expect(roll.status).toBe(403);
    // A member still mints live keys, as before.
    expect((await member.post(`/workspaces/${ws}/keys`, { name: "Members' site" })).status).toBe(
      201,
    );
  });

  it("a preview key on every live path, and a live key on every preview path, get the unknown key's 401", async () => {
    const blog = await released();
    const paths = [
      "/blogs",
      `/blogs/${blog.id}`,
      `/blogs/by-slug/${blog.slug}`,
      "/tags",
      "/changes",
    ];
    for (const path of paths) {
      const ways: Record<string, string>[] = [
        { "x-api-key": previewKey },
        { authorization: `Bearer ${previewKey}` },
      ];
      for (const headers of ways) {
        const res = await get("consumer", path, headers);
        expect([path, res.status]).toEqual([path, 401]);
        expect(await res.json()).toEqual({ message: "Invalid or missing API key." });
      }
      const res = await get("preview", path, { "x-api-key": liveKey });
      expect([path, res.status]).toEqual([path, 401]);
      expect(await res.json()).toEqual({ message: "Invalid or missing API key." });
    }
    const exchange = await fetch(`${server.url}/api/consumer/preview-tokens/exchange`, {
      method: "POST",
      headers: { "x-api-key": previewKey, "content-type": "application/json" },
      body: JSON.stringify({ token: "a.b" }),
    });
    expect(exchange.status).toBe(401);
  });

  it("a revoked preview key is refused at once", async () => {
    const minted = await mint(ws, { name: "Short-lived preview", kind: "preview" });
    const key = minted.body.secret;
    expect((await get("preview", "/blogs", { "x-api-key": key })).status).toBe(200);
    await owner.post(`/workspaces/${ws}/keys/${minted.body.key.id}/revoke`);
    expect((await get("preview", "/blogs", { "x-api-key": key })).status).toBe(401);
  });
});

describe("the preview perspective: drafts and pending changes as they would be published", () => {
  it("a draft is seen by preview (by ID, slug and in the list) and never by live", async () => {
    const blog = await draft({ title: "Only in preview", tags: ["secret-plans"] });
    const byId = await preview(`/blogs/${blog.id}`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get("pressroom-perspective")).toBe("preview");
    expect(byId.headers.get("cache-control")).toBe("no-store");
    const body = (await byId.json()) as Blog;
    expect(body.title).toBe("Only in preview");
    // Never released and not scheduled: released "now", as of its last change.
    expect(body.releasedAt).toBe(blog.updatedAt);
    expect((await preview(`/blogs/by-slug/${blog.slug}`)).status).toBe(200);
    expect((await walk(preview, "")).ids).toContain(blog.id);

    expect((await live(`/blogs/${blog.id}`)).status).toBe(404);
    expect((await live(`/blogs/by-slug/${blog.slug}`)).status).toBe(404);
    expect((await walk(live, "")).ids).not.toContain(blog.id);
    const liveTags = (await (await live("/tags")).json()) as { data: { tag: string }[] };
    expect(liveTags.data.map((d) => d.tag)).not.toContain("secret-plans");
    const previewTags = (await (await preview("/tags")).json()) as {
      data: { tag: string; count: number }[];
    };
    expect(previewTags.data).toContainEqual({ tag: "secret-plans", count: 1 });
  });

  it("a released blog's pending changes: preview shows them (by their new slug too), live the released text", async () => {
    const blog = await released({ title: "Released text", tags: ["alpha"] });
    const staged = await owner.patch<AdminBlog>(
      blogPath(blog.id),
      { title: "Pending text", slug: `${blog.slug}-renamed`, tags: ["beta"] },
      versionOf(blog),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.pendingChanges).toBe(true);

    const liveBlog = (await (await live(`/blogs/${blog.id}`)).json()) as Blog;
    expect([liveBlog.title, liveBlog.slug]).toEqual(["Released text", blog.slug]);
    const previewBlog = (await (await preview(`/blogs/${blog.id}`)).json()) as Blog;
    expect([previewBlog.title, previewBlog.slug, previewBlog.tags]).toEqual([
      "Pending text",
      `${blog.slug}-renamed`,
      ["beta"],
    ]);
    expect(previewBlog.releasedAt).toBe(liveBlog.releasedAt);
    expect((await preview(`/blogs/by-slug/${blog.slug}-renamed`)).status).toBe(200);
    // The old slug is no longer the blog's, as it will be once published.
    expect((await preview(`/blogs/by-slug/${blog.slug}`)).status).toBe(404);
    expect((await live(`/blogs/by-slug/${blog.slug}-renamed`)).status).toBe(404);

    const tagged = await walk(preview, "tag=beta");
    expect(tagged.ids).toEqual([blog.id]);
    expect((await walk(preview, "tag=alpha")).ids).not.toContain(blog.id);
    expect((await walk(live, "tag=alpha")).ids).toContain(blog.id);
  });

  it("a scheduled draft is released, in preview, at its scheduled time", async () => {
    const blog = await draft();
    const publishAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await owner.call<AdminBlog>(
      "PUT",
      `${blogPath(blog.id)}/schedule`,
      { publishAt },
      versionOf(blog),
    );
    expect(res.status).toBe(200);
    const body = (await (await preview(`/blogs/${blog.id}`)).json()) as Blog;
    expect(body.releasedAt).toBe(publishAt);
  });

  it("removed blogs and other workspaces' blogs are not in preview either", async () => {
    const blog = await released();
    expect((await owner.delete(blogPath(blog.id), ANY_VERSION)).status).toBe(204);
    expect((await preview(`/blogs/${blog.id}`)).status).toBe(404);
    expect((await walk(preview, "")).ids).not.toContain(blog.id);

    const other = await owner.post<AdminBlog>(`/workspaces/${otherWs}/blogs`, {
      title: "Not yours",
      slug: "not-yours",
      bodyMarkdown: "x",
    });
    expect((await preview(`/blogs/${other.body.id}`)).status).toBe(404);
    expect((await preview("/blogs/by-slug/not-yours")).status).toBe(404);
  });

  it("a preview ETag is never a live one, and answers its own 304 only", async () => {
    // Released with nothing pending: the same content in both perspectives.
    const blog = await released();
    const liveRes = await live(`/blogs/${blog.id}`);
    const previewRes = await preview(`/blogs/${blog.id}`);
    expect(await liveRes.json()).toEqual(await previewRes.json());
    const liveTag = liveRes.headers.get("etag") ?? "";
    const previewTag = previewRes.headers.get("etag") ?? "";
    expect(liveTag).not.toBe("");
    expect(previewTag).not.toBe("");
    expect(previewTag).not.toBe(liveTag);
    expect((await preview(`/blogs/${blog.id}`, { "if-none-match": liveTag })).status).toBe(200);
    const notModified = await preview(`/blogs/${blog.id}`, { "if-none-match": previewTag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("cache-control")).toBe("no-store");
    expect((await live(`/blogs/${blog.id}`, { "if-none-match": previewTag })).status).toBe(200);
    const listLive = (await live("/blogs")).headers.get("etag");
    const listPreview = (await preview("/blogs")).headers.get("etag");
    expect(listPreview).not.toBe(listLive);
    const tagsLive = (await live("/tags")).headers.get("etag");
    expect((await preview("/tags")).headers.get("etag")).not.toBe(tagsLive);

    // A staged edit changes the preview's ETag, and not the live one.
    const current = (await owner.get<AdminBlog>(blogPath(blog.id))).body;
    await owner.patch(blogPath(blog.id), { title: "Edited again" }, versionOf(current));
    expect((await preview(`/blogs/${blog.id}`, { "if-none-match": previewTag })).status).toBe(200);
    expect((await live(`/blogs/${blog.id}`, { "if-none-match": liveTag })).status).toBe(304);
  });

  it("a preview list walk sees each blog once, newest created first, with or without a tag", async () => {
    const tag = "walked";
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const blog = i % 2 === 0 ? await draft({ tags: [tag] }) : await released({ tags: [tag] });
      made.push(blog.id);
    }
    const walked = await walk(preview, `tag=${tag}`);
    expect(walked.ids).toEqual([...made].reverse());
    const all = await walk(preview, "");
    expect(new Set(all.ids).size).toBe(all.ids.length);
    expect(all.ids.filter((id) => made.includes(id))).toEqual([...made].reverse());
  });

  it("the preview changes feed keeps a mirror equal to the preview perspective; tokens stay in their feed", async () => {
    const mirror = new Mirror(server.url, previewKey, 3, {}, "preview");
    const equalsPreview = async () => {
      await mirror.drain();
      const walked: Blog[] = [];
      let cursor: string | null = null;
      do {
        const path: string = `/blogs?limit=100${cursor === null ? "" : `&cursor=${cursor}`}`;
        const page = (await (await preview(path)).json()) as {
          data: Blog[];
          nextCursor: string | null;
        };
        walked.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(mirror.sorted()).toEqual(walked.sort((x, y) => x.id.localeCompare(y.id)));
    };
    await equalsPreview();
    // A draft's edit, a staged edit, a schedule, a removal: each reaches the preview mirror.
    const d = await draft({ title: "Mirrored draft" });
    const r = await released({ title: "Mirrored release" });
    await equalsPreview();
    await owner.patch(blogPath(d.id), { title: "Draft, edited" }, ANY_VERSION);
    await owner.patch(blogPath(r.id), { title: "Release, staged" }, ANY_VERSION);
    await owner.call(
      "PUT",
      `${blogPath(d.id)}/schedule`,
      {
        publishAt: new Date(Date.now() + 7_200_000).toISOString(),
      },
      ANY_VERSION,
    );
    await equalsPreview();
    expect(mirror.blogs.get(d.id)?.title).toBe("Draft, edited");
    expect(mirror.blogs.get(r.id)?.title).toBe("Release, staged");
    expect((await owner.delete(blogPath(r.id), ANY_VERSION)).status).toBe(204);
    await equalsPreview();
    expect(mirror.blogs.has(r.id)).toBe(false);

    const previewToken = mirror.token ?? "";
    const liveToken = ((await (await live("/changes")).json()) as { nextToken: string }).nextToken;
    const crossed = [
      await live(`/changes?since=${encodeURIComponent(previewToken)}`),
      await preview(`/changes?since=${encodeURIComponent(liveToken)}`),
    ];
    expect(crossed.map((res) => res.status)).toEqual([400, 400]);
    expect((await preview("/changes")).headers.get("pressroom-perspective")).toBe("preview");
  });
});

describe("preview links: a signed one-hour token for one blog, exchanged with the site's live key", () => {
  const exchange = (token: unknown, key = liveKey) =>
    fetch(`${server.url}/api/consumer/preview-tokens/exchange`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
  const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

  it("without a preview URL, a link is a 409 telling an owner to set one", async () => {
    const blog = await draft();
    const res = await owner.post<{ message: string }>(`${blogPath(blog.id)}/preview-link`);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/no preview URL/);
  });

  it("a preview URL must be absolute http(s), without credentials or fragment, with {token}", async () => {
    for (const bad of [
      "example.com/preview?token={token}",
      "ftp://example.com/{token}",
      "https://user:pw@example.com/preview?token={token}",
      "https://example.com/preview?token={token}#top",
      "https://example.com/preview?slug={slug}",
    ]) {
      const res = await owner.call<{ message: string }>("PUT", `/workspaces/${ws}/preview-url`, {
        previewUrl: bad,
      });
      expect([bad, res.status]).toEqual([bad, 400]);
    }
    const none = await owner.get<Me>("/me");
    expect(none.body.workspaces.find((w) => w.id === ws)?.previewUrl).toBeNull();
  });

  it("an editor's link fills the URL; the site exchanges its token for the blog as edited now", async () => {
    const set = await owner.call<Workspace>("PUT", `/workspaces/${ws}/preview-url`, {
      previewUrl: "http://localhost:4321/api/preview?slug={slug}&id={blogId}&token={token}",
    });
    expect(set.status).toBe(200);
    expect(set.body.previewUrl).toContain("{token}");

    const blog = await released({ title: "Live title" });
    const edited = await owner.patch<AdminBlog>(
      blogPath(blog.id),
      { title: "Pending title", slug: `${blog.slug}-next` },
      versionOf(blog),
    );
    const link = await owner.post<{ url: string; expiresAt: string }>(
      `${blogPath(blog.id)}/preview-link`,
    );
    expect(link.status).toBe(201);
    const url = new URL(link.body.url);
    expect(url.origin + url.pathname).toBe("http://localhost:4321/api/preview");
    expect(url.searchParams.get("slug")).toBe(`${blog.slug}-next`);
    expect(url.searchParams.get("id")).toBe(blog.id);
    const expiresIn = Date.parse(link.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);

    const res = await exchange(tokenOf(link.body.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pressroom-perspective")).toBe("preview");
    const body = (await res.json()) as Blog;
    expect([body.id, body.title]).toEqual([blog.id, "Pending title"]);

    // A later save shows on the site's next exchange of the same link.
    await owner.patch(blogPath(blog.id), { title: "Saved later" }, versionOf(edited.body));
    expect(((await (await exchange(tokenOf(link.body.url))).json()) as Blog).title).toBe(
      "Saved later",
    );
    // The link's token appears in no log line.
    const token = tokenOf(link.body.url);
    expect(server.logLines.filter((line) => line.includes(token))).toEqual([]);
  });

  it("edited, forged, cut, other-workspace tokens are 400; expired or removed-blog tokens 410; one message", async () => {
    const blog = await draft();
    const link = await owner.post<{ url: string }>(`${blogPath(blog.id)}/preview-link`);
    const token = tokenOf(link.body.url);
    const [payload = "", mac = ""] = token.split(".");
    const flipped = `${payload}.${mac.startsWith("A") ? `B${mac.slice(1)}` : `A${mac.slice(1)}`}`;
    const otherBlogPayload = Buffer.from(
      Buffer.from(payload, "base64url").toString("utf8").replace(blog.id, "b_someoneelse"),
    ).toString("base64url");
    const expired = await previewTokens(collections(t.db), {
      now: () => Date.now() - 2 * 3_600_000,
    }).mint(ws, blog.id);
    const cases: [string, Response, number][] = [
      ["edited signature", await exchange(flipped), 400],
      ["another blog in the payload", await exchange(`${otherBlogPayload}.${mac}`), 400],
      ["cut short", await exchange(token.slice(0, -3)), 400],
      ["no signature", await exchange(payload), 400],
      [
        "forged from nothing",
        await exchange("WzEsIndzIiwiYiIsOTk5OTk5OTk5OTk5OV0.AAAAAAAAAAAAAAAAAAAAAA"),
        400,
      ],
      ["another workspace's key", await exchange(token, otherLiveKey), 400],
      ["expired", await exchange(expired.token), 410],
    ];
    for (const [what, res, status] of cases) {
      expect([what, res.status]).toEqual([what, status]);
      expect(await res.json()).toEqual({ message: TOKEN_MESSAGE });
    }
    expect((await owner.delete(blogPath(blog.id), ANY_VERSION)).status).toBe(204);
    const removed = await exchange(token);
    expect(removed.status).toBe(410);
    expect(await removed.json()).toEqual({ message: TOKEN_MESSAGE });
  });

  it("the exchange takes a small JSON body only: 413 beyond 4 KB, 400 for anything but {token}", async () => {
    const big = await fetch(`${server.url}/api/consumer/preview-tokens/exchange`, {
      method: "POST",
      headers: { "x-api-key": liveKey, "content-type": "application/json" },
      body: JSON.stringify({ token: "a".repeat(5000) }),
    });
    expect(big.status).toBe(413);
    expect((await exchange(undefined)).status).toBe(400);
    expect((await exchange(42)).status).toBe(400);
    const text = await fetch(`${server.url}/api/consumer/preview-tokens/exchange`, {
      method: "POST",
      headers: { "x-api-key": liveKey, "content-type": "text/plain" },
      body: "token",
    });
    expect(text.status).toBe(415);
  });

  it("setting the preview URL is the owner's and is audited", async () => {
    const audit = await owner.get<{ data: { action: string }[] }>(`/workspaces/${ws}/audit`);
    expect(audit.body.data.map((e) => e.action)).toContain("workspace.preview_url_changed");
    const cleared = await owner.call<Workspace>("PUT", `/workspaces/${ws}/preview-url`, {
      previewUrl: null,
    });
    expect(cleared.body.previewUrl).toBeNull();
  });
});

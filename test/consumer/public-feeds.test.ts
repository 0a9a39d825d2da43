import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import { parseJsonFeed } from "feedsmith";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Feeds" (and admin.yaml setPublicFeeds, turnOffPublicFeeds, renewPublicFeedId):
// an owner turns on public feeds with a link template; RSS, Atom and JSON Feed list the 50
// latest released blogs and the sitemap every released blog's page, with no key, each parsed
// here by a parser of the field (and the sitemap checked against the sitemaps.org XSD); plain
// text is escaped in every format; a renewed or withdrawn feed ID is one 404 at once.

type Workspace = components["schemas"]["Workspace"];
type AdminBlog = components["schemas"]["AdminBlog"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws = "";
let other = "";
const hostile = 'A <script>alert("x")</script> & <b>bold</b> title';
const released: AdminBlog[] = [];
// The sitemaps.org schema, as the `sitemap` package ships it (its exports do not name it).
const sitemapXsd = readFile(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve("sitemap/package.json")),
    "schema/sitemap.xsd",
  ),
  "utf8",
);

/** The markup of an XML document: its CDATA sections (text, however it reads) left out. */
const markupOf = (xml: string) => xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "");
const fetchFeed = (url: string, headers: Record<string, string> = {}) => get(url, headers);
const workspaceOf = async (id: string): Promise<Workspace | undefined> =>
  (await owner.get<{ data: Workspace[] }>("/workspaces")).body.data.find((w) => w.id === id);

async function release(fields: Record<string, unknown>): Promise<AdminBlog> {
  const made = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, fields);
  expect(made.status).toBe(201);
  const done = await owner.post<AdminBlog>(
    `/workspaces/${ws}/blogs/${made.body.id}/release`,
    {},
    ANY_VERSION,
  );
  expect(done.status).toBe(200);
  return done.body;
}

async function turnOn(workspaceId: string, linkTemplate: string) {
  const res = await owner.call<Workspace>("PUT", `/workspaces/${workspaceId}/public-feeds`, {
    linkTemplate,
  });
  expect(res.status).toBe(200);
  const feeds = res.body.publicFeeds;
  if (feeds === null) throw new Error("feeds should be on");
  return feeds;
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
  other = (await owner.post<{ id: string }>("/workspaces", { name: "Other & <Co>" })).body.id;
  released.push(
    await release({
      title: hostile,
      bodyMarkdown: "Hello **world** & <friends>.\n\n```\n<code>\n```",
      excerpt: "An <excerpt> & more",
      tags: ["c++", "r&d"],
      authorName: "Ada <Lovelace> & co",
      coverImageUrl: "https://images.example.com/a.png?x=1&y=2",
    }),
  );
  for (let i = 0; i < 3; i++) {
    released.push(await release({ title: `Post ${i}`, bodyMarkdown: `Body ${i}.` }));
  }
  await owner.post(`/workspaces/${ws}/blogs`, { title: "A draft", slug: "a-draft" });
  released.reverse(); // newest release first
});
afterAll(async () => {
  await server?.stop();
});

describe("turning public feeds on and off (admin.yaml setPublicFeeds)", () => {
  it("feeds are off until an owner turns them on; then the workspace shows the ID and four addresses", async () => {
    expect((await workspaceOf(ws))?.publicFeeds).toBeNull();
    const feeds = await turnOn(ws, "https://example.com/blog/{slug}");
    expect(feeds.feedId).toMatch(/^pf_[A-Za-z0-9]{24}$/);
    const base = `${server.url}/api/consumer/feeds/${feeds.feedId}`;
    expect(feeds.urls).toEqual({
      rss: `${base}/rss.xml`,
      atom: `${base}/atom.xml`,
      json: `${base}/feed.json`,
      sitemap: `${base}/sitemap.xml`,
    });
    // A new template keeps the ID.
    const again = await turnOn(ws, "https://example.com/posts/{slug}?ref=feed&id={id}");
    expect(again.feedId).toBe(feeds.feedId);
  });

  it("a template that is not an absolute http(s) URL, has credentials or a fragment, or lacks {slug} is a 400 naming the rule", async () => {
    // Not http(s) at all: the spec's pattern refuses it first, naming the field.
    for (const linkTemplate of ["example.com/{slug}", "ftp://example.com/{slug}"]) {
      const res = await owner.call("PUT", `/workspaces/${other}/public-feeds`, { linkTemplate });
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain("linkTemplate");
    }
    for (const [linkTemplate, message] of [
      ["http://[::1/{slug}", "A link template must be an absolute http:// or https:// URL."],
      [
        "https://u:p@example.com/{slug}",
        "A link template must not contain a user name or password.",
      ],
      ["https://example.com/#{slug}", "A link template must not have a fragment (#…)."],
      [
        "https://example.com/blog/",
        "A link template must contain {slug}, where each blog's slug goes.",
      ],
    ]) {
      const res = await owner.call("PUT", `/workspaces/${other}/public-feeds`, { linkTemplate });
      expect({ linkTemplate, status: res.status, body: res.body }).toEqual({
        linkTemplate,
        status: 400,
        body: { message },
      });
    }
    expect((await workspaceOf(other))?.publicFeeds).toBeNull();
  });

  it("renew moves the feeds to a new ID and the old one answers 404 at once; off answers 404 too", async () => {
    const feeds = await turnOn(other, "https://other.example/{slug}");
    expect((await fetchFeed(feeds.urls.rss)).status).toBe(200);
    const renewed = await owner.post<Workspace>(`/workspaces/${other}/public-feeds/renew`, {});
    expect(renewed.status).toBe(200);
    const next = renewed.body.publicFeeds;
    expect(next?.feedId).not.toBe(feeds.feedId);
    const gone = await fetchFeed(feeds.urls.rss);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: "Feed not found." });
    expect((await fetchFeed(next?.urls.rss ?? "")).status).toBe(200);
    const off = await owner.delete<Workspace>(`/workspaces/${other}/public-feeds`);
    expect(off.status).toBe(200);
    expect(off.body.publicFeeds).toBeNull();
    const offAnswer = await fetchFeed(next?.urls.rss ?? "");
    expect(offAnswer.status).toBe(404);
    expect(offAnswer.body).toEqual(gone.body);
    expect((await owner.post(`/workspaces/${other}/public-feeds/renew`, {})).status).toBe(409);
    // An ID never issued: the same 404.
    const never = await fetchFeed(`${server.url}/api/consumer/feeds/pf_${"x".repeat(24)}/rss.xml`);
    expect({ status: never.status, body: never.body }).toEqual({ status: 404, body: gone.body });
  });

  it("every change is in the audit log; changing nothing records nothing", async () => {
    const res = await owner.get<{ data: { action: string }[] }>(`/workspaces/${other}/audit`);
    expect(res.body.data.map((e) => e.action).filter((a) => a.includes("feed"))).toEqual([
      "workspace.public_feeds_off",
      "workspace.public_feed_renewed",
      "workspace.public_feeds_on",
    ]);
    await owner.delete(`/workspaces/${other}/public-feeds`);
    const after = await owner.get<{ data: { action: string }[] }>(`/workspaces/${other}/audit`);
    expect(after.body.data.length).toBe(res.body.data.length);
  });
});

describe("the feeds (openapi.yaml, Feeds): parsed by a feed parser, released blogs only", () => {
  const links = () =>
    released.map((b) => `https://example.com/posts/${b.slug}?ref=feed&id=${b.id}`);
  const urls = async () => (await workspaceOf(ws))?.publicFeeds?.urls;

  it("RSS 2.0: the released blogs newest first, linked by the template, text escaped, body as HTML", async () => {
    const res = await fetchFeed((await urls())?.rss ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    // The hostile title is text: no element of it in the markup, only in CDATA.
    expect(markupOf(res.text)).not.toContain("<script");
    expect(markupOf(res.text)).not.toContain("<b>");
    const feed = parseFeed(res.text);
    expect(feed.meta.type).toBe("rss");
    expect(feed.title).toBe((await workspaceOf(ws))?.name);
    expect(feed.items.map((i) => i.url)).toEqual(links());
    const [first] = feed.items.slice(-1);
    expect(first?.title).toBe(hostile);
    expect(first?.description).toBe("An <excerpt> & more");
    expect(first?.content).toContain("<strong>world</strong>");
    expect(first?.categories.map((c) => c.label ?? c.term)).toEqual(["c++", "r&d"]);
    expect(first?.authors.map((a) => a.name)).toEqual(["Ada <Lovelace> & co"]);
    expect(feed.items.map((i) => i.title)).not.toContain("A draft");
  });

  it("Atom 1.0: the same blogs, published and updated times, text escaped", async () => {
    const res = await fetchFeed((await urls())?.atom ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const feed = parseFeed(res.text);
    expect(feed.meta.type).toBe("atom");
    expect(feed.items.map((i) => i.url)).toEqual(links());
    const first = feed.items.at(-1);
    expect(first?.title).toBe(hostile);
    expect(first?.published?.toISOString()).toBe(released.at(-1)?.releasedAt);
    expect(first?.authors.map((a) => a.name)).toEqual(["Ada <Lovelace> & co"]);
    expect(markupOf(res.text)).not.toContain("<script");
  });

  it("JSON Feed 1.1: the same blogs, read back by a JSON Feed parser", async () => {
    const res = await fetchFeed((await urls())?.json ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/feed+json; charset=utf-8");
    const feed = parseJsonFeed(res.text);
    expect(feed.title).toBe((await workspaceOf(ws))?.name);
    expect(res.text).not.toContain("<script");
    expect(feed.home_page_url).toBe("https://example.com/");
    expect(feed.items?.map((i) => i.url)).toEqual(links());
    const first = feed.items?.at(-1);
    expect(first).toMatchObject({
      title: hostile,
      summary: "An <excerpt> & more",
      image: "https://images.example.com/a.png?x=1&y=2",
      tags: ["c++", "r&d"],
    });
  });

  it("the sitemap lists every released blog's page and is valid against the sitemaps.org XSD", async () => {
    const res = await fetchFeed((await urls())?.sitemap ?? "");
    expect(res.status).toBe(200);
    const result = await validateXML({
      xml: [{ fileName: "sitemap.xml", contents: res.text }],
      schema: [await sitemapXsd],
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const locs = [...res.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
      m[1]?.replaceAll("&amp;", "&"),
    );
    expect(locs).toEqual(links());
  });

  it("each feed has a strong ETag; a 304 answers it until a blog changes", async () => {
    const all = await urls();
    for (const url of [all?.rss, all?.atom, all?.json, all?.sitemap]) {
      const first = await fetchFeed(url ?? "");
      const etag = first.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await fetchFeed(url ?? "", { "if-none-match": etag });
      expect(again.status).toBe(304);
    }
    const etag = (await fetchFeed(all?.rss ?? "")).headers.get("etag") ?? "";
    const edited = released[0];
    await stores(t.db).blogs.update(ws, edited?.id ?? "", { title: "Edited title" });
    await stores(t.db).blogs.publish(ws, edited?.id ?? "");
    const after = await fetchFeed(all?.rss ?? "", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(parseFeed(after.text).items[0]?.title).toBe("Edited title");
  });

  it("feeds answer on the live base only, and a parameter the spec does not name is a 400", async () => {
    const all = await urls();
    const preview = (all?.rss ?? "").replace("/api/consumer/", "/api/preview/");
    expect((await fetchFeed(preview)).status).toBe(404);
    const unknownParam = await fetchFeed(`${all?.rss}?x=1`);
    expect(unknownParam.status).toBe(400);
  });

  // That the lookup is an index search is the Go plan test's (server/embedded-db README, "Plans").
  it("the feed ID is kept on its workspace's document and names that workspace alone", async () => {
    const raw = collections(t.db);
    const doc = await raw.workspaces.findOne({ _id: ws });
    expect(doc?.feedId).toMatch(/^pf_/);
    expect(await raw.workspaces.countDocuments({ feedId: doc?.feedId })).toBe(1);
  });
});

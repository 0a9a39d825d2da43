import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { components } from "../../openapi/generated/admin.js";
import { checkSlug } from "../../server/src/blogs/blog-rules.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog, BlogList } from "../../server/src/platform/http/consumer-types.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { editLive, get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type AdminBlog = components["schemas"]["AdminBlog"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
/** A slug only workspace Beta has, on a released blog. */
let betaOnly: Blog;
const NOT_FOUND = { message: "Blog not found." };
const INVALID_KEY = { message: "Invalid or missing API key." };
/** The spec's `Slug` rule (openapi.yaml, components.schemas.Slug). */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const api = (path: string, key: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const bySlug = (slug: string, key: string, headers: Record<string, string> = {}) =>
  api(`/blogs/by-slug/${slug}`, key, headers);

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  // Seeded slugs are post-0, post-1…, in both workspaces: the same slug names two blogs.
  a = await seedWorkspace(t.db, "Alpha", 5);
  b = await seedWorkspace(t.db, "Beta", 2);
  const created = await stores(t.db).blogs.create(b.workspaceId, {
    title: "Beta only",
    bodyMarkdown: "Only in Beta.",
    release: true,
  });
  betaOnly = (await api(`/blogs/${created._id}`, b.key)).body as Blog;
});

describe("getBlogBySlug (openapi.yaml): the released blog getBlog returns, found by its slug", () => {
  it("answers the same body and the same ETag as getBlog for the same blog", async () => {
    for (const id of a.released) {
      const byId = await api(`/blogs/${id}`, a.key);
      const slug = (byId.body as Blog).slug;
      const res = await bySlug(slug, a.key);
      expect(res.status).toBe(200);
      expect(res.text).toBe(byId.text);
      expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
      expect(res.headers.get("etag")).toBe(byId.headers.get("etag"));
      expect(res.headers.get("cache-control")).toBe("private, max-age=60");
      expect(res.headers.get("vary")).toMatch(/x-api-key/i);
    }
  });

  it("with fields: the same partial body and ETag as getBlog with the same fields", async () => {
    const byId = await api(`/blogs/${a.released[0]}?fields=slug,title`, a.key);
    const { slug } = byId.body as Blog;
    const res = await bySlug(`${slug}?fields=title,slug`, a.key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(["id", "slug", "title"]);
    expect(res.text).toBe(byId.text);
    expect(res.headers.get("etag")).toBe(byId.headers.get("etag"));
    const whole = await bySlug(slug, a.key);
    expect(whole.headers.get("etag")).not.toBe(res.headers.get("etag"));
  });

  it("If-None-Match with the blog's ETag answers 304 with no body, whichever way it was fetched", async () => {
    const byId = await api(`/blogs/${a.released[1]}`, a.key);
    const { slug } = byId.body as Blog;
    const etag = byId.headers.get("etag") ?? "";
    for (const [path, tag] of [
      [`/blogs/by-slug/${slug}`, etag],
      [`/blogs/${a.released[1]}`, (await bySlug(slug, a.key)).headers.get("etag") ?? ""],
      [`/blogs/by-slug/${slug}`, `"other", ${etag}`],
      [`/blogs/by-slug/${slug}`, "*"],
    ] as const) {
      const res = await api(path, a.key, { "if-none-match": tag });
      expect(res.status).toBe(304);
      expect(res.text).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
    const stale = await bySlug(slug, a.key, { "if-none-match": '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(byId.text);
  });

  it("every blog the list returns can be fetched by the slug the list gives", async () => {
    const listed = (await api("/blogs?limit=100", a.key)).body as BlogList;
    expect(listed.data.length).toBe(a.released.length);
    for (const blog of listed.data) {
      const res = await bySlug(blog.slug, a.key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(blog);
    }
  });

  it("a slug two workspaces both use names each key's own workspace's blog", async () => {
    const alpha = (await bySlug("post-0", a.key)).body as Blog;
    const beta = (await bySlug("post-0", b.key)).body as Blog;
    expect(alpha.id).toBe(a.released.at(-1));
    expect(beta.id).toBe(b.released.at(-1));
    expect(alpha.id).not.toBe(beta.id);
  });

  it("a changed slug answers at once: the new one finds the blog, the old one is 404", async () => {
    const s = stores(t.db);
    const blog = await s.blogs.create(a.workspaceId, {
      title: "Renamed soon",
      bodyMarkdown: "x",
      release: true,
    });
    const before = await bySlug("renamed-soon", a.key);
    expect(before.status).toBe(200);
    await editLive(s.blogs, a.workspaceId, blog._id, { slug: "renamed-now" });
    expect(await bySlug("renamed-soon", a.key)).toMatchObject({ status: 404, body: NOT_FOUND });
    const after = await bySlug("renamed-now", a.key, {
      "if-none-match": before.headers.get("etag") ?? "",
    });
    expect(after.status).toBe(200);
    expect((after.body as Blog).id).toBe(blog._id);
  });

  it("a blog withdrawn to draft is 404 by slug at once", async () => {
    const s = stores(t.db);
    const blog = await s.blogs.create(b.workspaceId, {
      title: "Brief by slug",
      bodyMarkdown: "x",
      release: true,
    });
    expect((await bySlug(blog.slug, b.key)).status).toBe(200);
    await s.blogs.setStatus(b.workspaceId, blog._id, "draft");
    expect(await bySlug(blog.slug, b.key)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it("the path segment is percent-decoded once, as every URL's is: %2D is a dash", async () => {
    const plain = await bySlug("post-1", a.key);
    const encoded = await bySlug("post%2D1", a.key);
    expect(encoded.status).toBe(200);
    expect(encoded.text).toBe(plain.text);
  });

  it("a trailing slash is the same path (Express routing is not strict)", async () => {
    const res = await bySlug("post-1/", a.key);
    expect(res.status).toBe(200);
    expect(res.text).toBe((await bySlug("post-1", a.key)).text);
  });

  it("a well-formed slug of 100 characters that no blog has is 404, not 400", async () => {
    const longest = `${"a".repeat(49)}-${"b".repeat(50)}`;
    expect(longest).toHaveLength(100);
    expect(await bySlug(longest, a.key)).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});

describe("every slug the admin API can create is accepted (openapi.yaml, Slug; admin.yaml, BlogInput.slug)", () => {
  it("one rule: the consumer's Slug is admin.yaml's slug pattern, and bounds every slug admin.yaml describes", async () => {
    type Schema = { pattern?: string; maxLength?: number; $ref?: string };
    const read = async (file: string) =>
      parse(await readFile(new URL(`../../openapi/${file}`, import.meta.url), "utf8")) as {
        components: { schemas: Record<string, { properties?: Record<string, Schema> } & Schema> };
        paths: Record<string, { get?: { parameters?: { name?: string; schema?: Schema }[] } }>;
      };
    const consumer = await read("openapi.yaml");
    const admin = await read("admin.yaml");
    const rule = consumer.components.schemas.Slug;
    expect(rule?.pattern).toBe(SLUG.source);
    expect(consumer.components.schemas.Blog?.properties?.slug?.$ref).toBe(
      "#/components/schemas/Slug",
    );
    const param = consumer.paths["/blogs/by-slug/{slug}"]?.get?.parameters?.find(
      (p) => p.name === "slug",
    );
    expect(param?.schema?.$ref).toBe("#/components/schemas/Slug");
    // A slug named by reference (an import entry's is BlogInput's) is judged as what it names.
    const resolved = (schema: Schema): Schema => {
      if (schema.$ref === undefined) return schema;
      let node: unknown = admin;
      for (const part of schema.$ref.replace(/^#\//, "").split("/")) {
        node = (node as Record<string, unknown>)[part];
      }
      return resolved(node as Schema);
    };
    const adminSlugs = Object.values(admin.components.schemas)
      .map((schema) => schema.properties?.slug)
      .filter((slug): slug is Schema => slug !== undefined)
      .map(resolved);
    // AdminBlog, BlogInput, BlogPatch, ImportEntry, ExportedBlog
    expect(adminSlugs.length).toBeGreaterThanOrEqual(5);
    for (const slug of adminSlugs) {
      expect(slug.pattern).toBe(rule?.pattern);
      expect(slug.maxLength ?? Infinity).toBeLessThanOrEqual(rule?.maxLength ?? 0);
    }
  });

  it("blog-rules.ts accepts a chosen slug exactly when it matches the Slug pattern within admin.yaml's 80 characters", () => {
    const unit = fc.constantFrom(..."ab09-Z_ é\u00ad\u2212".split(""));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 90 }), (slug) => {
        let accepted = true;
        try {
          checkSlug(slug);
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(SLUG.test(slug) && slug.length <= 80);
      }),
      { numRuns: 2000 },
    );
    expect(checkSlug(`${"a".repeat(40)}-${"b".repeat(39)}`)).toHaveLength(80);
    expect(() => checkSlug("a".repeat(81))).toThrow();
  });

  it("chosen (80 characters), derived from a Unicode title, derived and taken (-2), or no letters at all (blog)", async () => {
    const fresh = await startTestServer((await useTestDb()).db);
    const owner = new AdminClient(fresh.url);
    const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
    const ws = setup.body.workspaces[0]?.id ?? "";
    const key = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Site" })).body
      .secret;
    const longTitle = "Straße ".repeat(20);
    const inputs = [
      { title: "Chosen", slug: `${"x".repeat(40)}-${"y".repeat(39)}` },
      { title: "Ünïcödé Café — 2026!" },
      { title: "ｆｕｌｌｗｉｄｔｈ ｔｉｔｌｅ" },
      { title: longTitle },
      { title: longTitle },
      { title: "🎉🎉" },
      { title: "🎉🎉" },
    ];
    const slugs: string[] = [];
    for (const input of inputs) {
      const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
        ...input,
        bodyMarkdown: "Body.",
      });
      expect(created.status).toBe(201);
      const released = await owner.post<AdminBlog>(
        `/workspaces/${ws}/blogs/${created.body.id}/release`,
        undefined,
        ANY_VERSION,
      );
      expect(released.status).toBe(200);
      const res = await get(`${fresh.url}/api/consumer/blogs/by-slug/${created.body.slug}`, {
        "x-api-key": key,
      });
      expect(res.status).toBe(200);
      expect((res.body as Blog).id).toBe(created.body.id);
      slugs.push(created.body.slug);
    }
    expect(slugs[0]).toHaveLength(80);
    expect(slugs.slice(1, 3)).toEqual(["unicode-cafe-2026", "fullwidth-title"]);
    expect(slugs[4]).toBe(`${slugs[3]}-2`);
    expect(slugs[4]?.length).toBeGreaterThan(80);
    expect(slugs.slice(5)).toEqual(["blog", "blog-2"]);
    await fresh.stop();
  });

  it("for any title, the slug made from it is accepted and finds its blog (100 runs)", async () => {
    const s = stores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("Titles");
    const key = (await s.keys.mint(workspaceId, "titles")).key;
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ unit: "grapheme", minLength: 1, maxLength: 120 })
          .filter((x) => x.trim() !== ""),
        async (title) => {
          const blog = await s.blogs.create(workspaceId, {
            title,
            bodyMarkdown: "b",
            release: true,
          });
          expect(blog.slug).toMatch(SLUG);
          expect(blog.slug.length).toBeLessThanOrEqual(100);
          const res = await bySlug(blog.slug, key);
          expect(res.status).toBe(200);
          expect((res.body as Blog).id).toBe(blog._id);
          // Titles without letters all make `blog`, `blog-2`…: start each run afresh.
          await collections(t.db).blogs.deleteOne({ _id: blog._id });
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("getBlogBySlug answers getBlog's 404, with its message, for every blog it must not show (openapi.yaml, NotFound)", () => {
  const hidden: [string, () => Promise<{ slug: string; id: string }>][] = [
    ["a draft", async () => ({ slug: "alpha-draft", id: a.draft })],
    ["a removed blog", async () => ({ slug: "post-101", id: a.removed })],
    ["another workspace's released blog", async () => ({ slug: betaOnly.slug, id: betaOnly.id })],
    ["a slug no blog has", async () => ({ slug: "never-written", id: "b_doesNotExist0000" })],
  ];
  for (const [name, target] of hidden) {
    it(`${name}: 404 {"message":"Blog not found."}, as by ID, with or without If-None-Match`, async () => {
      const { slug, id } = await target();
      const byId = await api(`/blogs/${id}`, a.key);
      expect(byId).toMatchObject({ status: 404, body: NOT_FOUND });
      for (const headers of [{}, { "if-none-match": "*" }] as Record<string, string>[]) {
        const res = await bySlug(slug, a.key, headers);
        expect(res.status).toBe(404);
        expect(res.text).toBe(byId.text);
        expect(res.headers.get("etag")).toBeNull();
      }
    });
  }

  it("the removed blog's slug is still its own: not given to a new blog, still 404", async () => {
    const blog = await stores(t.db).blogs.create(a.workspaceId, {
      title: "Post 101",
      bodyMarkdown: "x",
      release: true,
    });
    expect(blog.slug).toBe("post-101-2");
    expect((await bySlug("post-101", a.key)).status).toBe(404);
  });

  it("GET /blogs/by-slug and /blogs/by-slug/ (no slug) are getBlog of the ID `by-slug`: 404", async () => {
    for (const path of ["/blogs/by-slug", "/blogs/by-slug/"]) {
      expect(await api(path, a.key)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
  });

  it("a slug cannot hold a `/`: more segments are no operation's path (404), never a blog", async () => {
    for (const path of ["/blogs/by-slug/post-1/post-2", "/blogs/by-slug//"]) {
      const res = await api(path, a.key);
      expect(res.status).toBe(404);
      expect(Object.keys(res.body as object)).toEqual(["message"]);
    }
  });
});

describe("a string that can never be a slug gets 400 {message} naming the parameter (openapi.yaml, getBlogBySlug's slug)", () => {
  const cases: [string, string][] = [
    ["an upper-case letter (no case folding)", "Post-1"],
    ["all upper case", "POST-1"],
    ["a leading dash", "-post-1"],
    ["a trailing dash", "post-1-"],
    ["a doubled dash", "post--1"],
    ["an underscore", "post_1"],
    ["a space", "post%201"],
    ["a dot", "post.1"],
    ["101 characters", `${"a".repeat(50)}-${"b".repeat(50)}`],
    ["2,000 characters", "a".repeat(2000)],
    ["full-width letters that NFKC folds to the slug", encodeURIComponent("ｐｏｓｔ-１")],
    ["a Unicode minus sign (U+2212) for the dash", encodeURIComponent("post\u22121")],
    ["a non-breaking hyphen (U+2011)", encodeURIComponent("post\u20111")],
    ["a soft hyphen (U+00AD) inside", encodeURIComponent("post-\u00ad1")],
    ["a zero-width space (U+200B)", encodeURIComponent("post-1\u200b")],
    ["a combining accent (NFD é)", encodeURIComponent("poste\u0301-1")],
    ["a precomposed é (NFC)", encodeURIComponent("post\u00e9-1")],
    ["a Cyrillic о that looks Latin", encodeURIComponent("p\u043est-1")],
    ["a dotless ı (upper-cases to I)", encodeURIComponent("\u0131t-1")],
    ["the Kelvin sign (lower-cases to k)", encodeURIComponent("\u212a-1")],
    ["an encoded slash", "post%2F1"],
    ["an encoded NUL", "post-1%00"],
    ["a doubly encoded dash", "post%252D1"],
    ["operator-like text", encodeURIComponent('{"$ne":null}')],
    ["a bidi override", encodeURIComponent("\u202epost-1")],
    ["a lone surrogate's bytes", "%ED%A0%80"],
  ];
  for (const [name, segment] of cases) {
    it(`${name} → 400`, async () => {
      const res = await bySlug(segment, a.key);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys(res.body as object)).toEqual(["message"]);
      expect((res.body as { message: string }).message).toMatch(/slug|URI|decode/i);
    });
  }

  it("a query parameter the operation does not take → 400 naming it", async () => {
    const res = await bySlug("post-1?expand=id", a.key);
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(/expand/);
  });

  it("an unknown name in fields → 400 naming it, as on getBlog", async () => {
    const res = await bySlug("post-1?fields=title,workspaceId", a.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Unknown field(s) in fields: workspaceId." });
  });

  it("the answer depends on the string alone: the same 400 with another workspace's key", async () => {
    const mine = await bySlug("Post-1", a.key);
    const theirs = await bySlug("Post-1", b.key);
    expect(theirs.status).toBe(400);
    expect(theirs.body).toEqual(mine.body);
  });
});

describe('getBlogBySlug checks the key as every consumer route does (openapi.yaml, "Authentication")', () => {
  it("no key, a malformed key or a revoked key → 401 before the slug is looked at", async () => {
    const s = stores(t.db);
    const revoked = await s.keys.mint(a.workspaceId, "to revoke");
    await s.keys.revoke(a.workspaceId, revoked.id);
    for (const headers of [
      {} as Record<string, string>,
      { "x-api-key": "cp_live_nope" },
      { "x-api-key": revoked.key },
      { authorization: `Bearer ${revoked.key}` },
    ]) {
      for (const slug of ["post-1", "Not-A-Slug", "alpha-draft"]) {
        const res = await get(`${server.url}/api/consumer/blogs/by-slug/${slug}`, headers);
        expect(res.status).toBe(401);
        expect(res.body).toEqual(INVALID_KEY);
      }
    }
  });

  it("accepts the key as Authorization: Bearer too", async () => {
    const res = await get(`${server.url}/api/consumer/blogs/by-slug/post-1`, {
      authorization: `Bearer ${a.key}`,
    });
    expect(res.status).toBe(200);
  });
});

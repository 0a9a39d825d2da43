import { beforeAll, describe, expect, it } from "vitest";
import {
  fillReadingTimes,
  READING_TIME_MARKER,
} from "../../server/src/blogs/reading-time-migration.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog, BlogList, PartialBlog } from "../../server/src/platform/http/consumer-types.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, "Presentation and search fields" and "Archives": every Blog carries its page
// head's fields and a reading time; the list narrows to featured blogs and to a release-time
// range (at or after releasedAfter, before releasedBefore), exactly under keyset paging, with a
// cursor and an ETag of each filter's own.

let t: TestDb;
let server: TestServer;
let s: ReturnType<typeof stores>;
let raw: ReturnType<typeof collections>;
/** A workspace of 12 released blogs, one a minute from T0 (blog i at T0 + i minutes). */
let w: SeededWorkspace;
/** w's released blogs, oldest first, i.e. by release minute. */
const byMinute: string[] = [];
/** The featured ones (minutes 1, 4, 7, 10), newest first. */
let featured: string[] = [];
let preview = "";
const T0 = Date.parse("2026-03-01T00:00:00.000Z");
const minute = (i: number) => new Date(T0 + i * 60_000);

const api = (path: string, key = w.key, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer${path}`, { "x-api-key": key, ...headers });
const ids = (body: unknown) => (body as BlogList).data.map((b) => b.id);
const newestFirst = (list: string[]) => [...list].reverse();

/** Every page of `query` with `limit`: the ids in order, and how many pages it took. */
async function walk(query: string, limit: number): Promise<{ seen: string[]; pages: number }> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages < 100; pages++) {
    const at = cursor === null ? "" : `&cursor=${cursor}`;
    const res = await api(`/blogs?limit=${limit}${query}${at}`);
    expect(res.status).toBe(200);
    seen.push(...ids(res.body));
    cursor = (res.body as BlogList).nextCursor;
    if (cursor === null) return { seen, pages };
  }
  throw new Error("walk did not end");
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  s = stores(t.db);
  raw = collections(t.db);
  w = await seedWorkspace(t.db, "Archive", 0);
  for (let i = 0; i < 12; i++) {
    const blog = await s.blogs.create(w.workspaceId, {
      title: `Minute ${i}`,
      bodyMarkdown: `Post of minute ${i}.`,
      tags: i % 3 === 0 ? ["notes"] : ["other"],
      featured: i % 3 === 1,
      release: true,
    });
    // Release times set to whole minutes, so the bounds below fall exactly on them.
    await raw.blogs.updateOne({ _id: blog._id }, { $set: { releasedAt: minute(i) } });
    byMinute.push(blog._id);
  }
  featured = newestFirst(byMinute.filter((_, i) => i % 3 === 1));
  preview = (await s.keys.mint(w.workspaceId, "Preview", null, { kind: "preview" })).key;
});

describe("presentation and search fields (openapi.yaml, Presentation and search fields)", () => {
  it("a blog sends the fields its editors set, the same by id, by slug, in the list and with fields", async () => {
    const made = await s.blogs.create(w.workspaceId, {
      title: "Head <fields> & more",
      bodyMarkdown: "Body.",
      coverImageUrl: "https://images.example.com/c.jpg",
      coverImageAlt: '  A cover with <b>markup</b> & quotes "  ',
      featured: true,
      metaTitle: "Meta <title>",
      metaDescription: "Meta & description",
      canonicalUrl: "https://Example.com/original/../post",
      socialImageUrl: "https://images.example.com/card.png",
      release: true,
    });
    const expected = {
      coverImageAlt: 'A cover with <b>markup</b> & quotes "',
      featured: true,
      metaTitle: "Meta <title>",
      metaDescription: "Meta & description",
      canonicalUrl: "https://example.com/post",
      socialImageUrl: "https://images.example.com/card.png",
      readingTimeMinutes: 1,
    };
    const byId = await api(`/blogs/${made._id}`);
    expect(byId.body).toMatchObject(expected);
    const bySlug = await api(`/blogs/by-slug/${made.slug}`);
    expect(bySlug.body).toEqual(byId.body);
    const listed = (await api("/blogs?limit=100")).body as BlogList;
    expect(listed.data.find((b) => b.id === made._id)).toEqual(byId.body);
    const partial = await api(`/blogs/${made._id}?fields=metaTitle,featured,readingTimeMinutes`);
    expect(partial.body).toEqual({
      id: made._id,
      featured: true,
      metaTitle: "Meta <title>",
      readingTimeMinutes: 1,
    } satisfies PartialBlog);
    await s.blogs.setStatus(w.workspaceId, made._id, "removed");
  });

  it("blank text and empty URLs are stored as null; an unset featured is false", async () => {
    const made = await s.blogs.create(w.workspaceId, {
      title: "Blank head",
      bodyMarkdown: "",
      coverImageAlt: "   ",
      metaTitle: "",
      metaDescription: null,
      canonicalUrl: "",
      socialImageUrl: null,
    });
    expect(made).toMatchObject({
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImageUrl: null,
      readingTimeMinutes: 0,
    });
  });

  it("a canonical or social URL that is not absolute http(s), or carries a password, is refused naming its field", async () => {
    const attempt = (fields: object) =>
      s.blogs.create(w.workspaceId, { title: "Bad URL", bodyMarkdown: "x", ...fields });
    await expect(attempt({ canonicalUrl: "javascript:alert(1)" })).rejects.toThrow(
      "canonicalUrl must be an absolute http(s) URL.",
    );
    await expect(attempt({ canonicalUrl: "/relative" })).rejects.toThrow(
      "canonicalUrl must be an absolute http(s) URL.",
    );
    await expect(
      attempt({ socialImageUrl: "https://user:pw@images.example.com/x.png" }),
    ).rejects.toThrow("socialImageUrl must not carry a user name or password.");
  });

  it("the reading time counts the words of the text, not markup or link addresses, and CJK by character", async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    const cases: [string, number][] = [
      [words(265), 1],
      [words(266), 2],
      [
        `${words(265)} [x](https://example.com/${"a/".repeat(400)}) ![alt text here](https://example.com/i.png)`,
        2,
      ],
      [`<div>${"<span></span>".repeat(500)}</div>`, 0],
      ["漢".repeat(1000), 2],
      ["漢".repeat(500), 1],
      ["", 0],
    ];
    for (const [bodyMarkdown, minutes] of cases) {
      const made = await s.blogs.create(w.workspaceId, { title: "Reading", bodyMarkdown });
      expect({ length: bodyMarkdown.length, minutes: made.readingTimeMinutes }).toEqual({
        length: bodyMarkdown.length,
        minutes,
      });
    }
  });

  it("a blog stored before the fields existed reads them as null, false and its reading time once migrated", async () => {
    const made = await s.blogs.create(w.workspaceId, {
      title: "Older",
      bodyMarkdown: "word ".repeat(600),
      featured: true,
      metaTitle: "Gone",
      release: true,
    });
    const unset = {
      coverImageAlt: 1,
      featured: 1,
      metaTitle: 1,
      metaDescription: 1,
      canonicalUrl: 1,
      socialImageUrl: 1,
      readingTimeMinutes: 1,
    } as const;
    await raw.blogs.updateOne({ _id: made._id }, { $unset: unset });
    const before = (await api(`/blogs/${made._id}`)).body as Blog;
    expect(before).toMatchObject({ featured: false, metaTitle: null, readingTimeMinutes: 0 });
    // It lists with the blogs that are not featured, as a blog whose editors never chose.
    expect(ids((await api("/blogs?featured=false&limit=100")).body)).toContain(made._id);
    await raw.markers.deleteOne({ _id: READING_TIME_MARKER });
    expect(await fillReadingTimes(raw)).toBeGreaterThanOrEqual(1);
    expect(((await api(`/blogs/${made._id}`)).body as Blog).readingTimeMinutes).toBe(3);
    expect(await raw.markers.countDocuments({ _id: READING_TIME_MARKER })).toBe(1);
    expect(await fillReadingTimes(raw)).toBe(0);
    await s.blogs.setStatus(w.workspaceId, made._id, "removed");
  });
});

describe("featured=… (openapi.yaml, listBlogs)", () => {
  it("featured=true lists only the featured blogs, false only the others, each in the list's order", async () => {
    const yes = await api("/blogs?featured=true&limit=100");
    expect(ids(yes.body)).toEqual(featured);
    const no = ids((await api("/blogs?featured=false&limit=100")).body);
    expect(no.filter((id) => byMinute.includes(id))).toEqual(
      newestFirst(byMinute.filter((_, i) => i % 3 !== 1)),
    );
  });

  it("a walk of featured=true in pages of 1 sees each featured blog once", async () => {
    const { seen, pages } = await walk("&featured=true", 1);
    expect(seen).toEqual(featured);
    expect(pages).toBe(featured.length);
  });

  it("featured is exactly true or false: anything else is a 400 naming it", async () => {
    for (const value of ["yes", "1", "TRUE", ""]) {
      const res = await api(`/blogs?featured=${value}`);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain("featured");
    }
  });
});

describe("archives: releasedAfter and releasedBefore (openapi.yaml, Archives)", () => {
  it("releasedAfter is inclusive and releasedBefore exclusive, at the exact millisecond", async () => {
    const res = await api(
      `/blogs?limit=100&releasedAfter=${minute(3).toISOString()}&releasedBefore=${minute(7).toISOString()}`,
    );
    expect(ids(res.body)).toEqual(newestFirst(byMinute.slice(3, 7)));
    const open = await api(`/blogs?limit=100&releasedAfter=${minute(10).toISOString()}`);
    expect(ids(open.body)).toEqual(newestFirst(byMinute.slice(10)));
    const upTo = await api(`/blogs?limit=100&releasedBefore=${minute(2).toISOString()}`);
    expect(ids(upTo.body)).toEqual(newestFirst(byMinute.slice(0, 2)));
  });

  it("an offset is honoured, and a fraction finer than a millisecond moves the bound past it", async () => {
    // 01:03+01:00 is minute 3 UTC.
    const offset = await api(
      `/blogs?limit=100&releasedAfter=2026-03-01T01:03:00%2B01:00&releasedBefore=2026-03-01T00:05:00Z`,
    );
    expect(ids(offset.body)).toEqual(newestFirst(byMinute.slice(3, 5)));
    // Minute 3 itself is before 00:03:00.0000001, so neither bound includes it.
    const fine = "2026-03-01T00:03:00.0000001Z";
    expect(
      ids(
        (await api(`/blogs?limit=100&releasedAfter=${fine}&releasedBefore=2026-03-01T00:05:00Z`))
          .body,
      ),
    ).toEqual([byMinute[4]]);
    expect(ids((await api(`/blogs?limit=100&releasedBefore=${fine}`)).body)).toEqual(
      newestFirst(byMinute.slice(0, 4)),
    );
  });

  it("a range walks exactly once in pages, alone, with a tag and with featured", async () => {
    const range = `&releasedAfter=${minute(2).toISOString()}&releasedBefore=${minute(11).toISOString()}`;
    expect((await walk(range, 2)).seen).toEqual(newestFirst(byMinute.slice(2, 11)));
    const tagged = byMinute.filter((_, i) => i % 3 === 0 && i >= 2 && i < 11);
    expect((await walk(`${range}&tag=notes`, 1)).seen).toEqual(newestFirst(tagged));
    expect((await walk(`${range}&featured=true`, 1)).seen).toEqual(
      featured.filter((id) => byMinute.indexOf(id) >= 2 && byMinute.indexOf(id) < 11),
    );
  });

  it("a time that is not RFC 3339 with an offset, or a range that is empty or reversed, is a 400 naming it", async () => {
    for (const bad of [
      "2026-03-01",
      "2026-03-01T00:00:00",
      "2026-02-30T00:00:00Z",
      "yesterday",
      "2026-03-01T24:00:00Z",
    ]) {
      const res = await api(`/blogs?releasedAfter=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain("releasedAfter");
    }
    // A "+" sent as it is arrives as a space: the 400 says to percent-encode it.
    const plus = await api("/blogs?releasedAfter=2026-03-01T01:03:00+01:00");
    expect(plus.status).toBe(400);
    expect((plus.body as { message: string }).message).toContain("percent-encode it as %2B");
    for (const [after, before] of [
      [minute(5), minute(5)],
      [minute(6), minute(5)],
    ]) {
      const res = await api(
        `/blogs?releasedAfter=${after?.toISOString()}&releasedBefore=${before?.toISOString()}`,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message:
          "Invalid query parameters releasedAfter and releasedBefore: releasedBefore must be later than releasedAfter.",
      });
    }
  });
});

describe("a filter is its own walk and representation (openapi.yaml, Archives)", () => {
  it("a cursor is refused with another featured value or range, and taken with the same ones", async () => {
    const range = `&releasedAfter=${minute(0).toISOString()}`;
    const first = (await api(`/blogs?limit=2&featured=true${range}`)).body as BlogList;
    expect(first.nextCursor).not.toBeNull();
    const cursor = `&cursor=${first.nextCursor}`;
    for (const other of [
      `&featured=true`,
      range,
      `&featured=false${range}`,
      `&featured=true&releasedAfter=${minute(1).toISOString()}`,
    ]) {
      const res = await api(`/blogs?limit=2${other}${cursor}`);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain(
        "same q, tag, author, featured, releasedAfter",
      );
    }
    expect((await api(`/blogs?limit=2${range}&featured=true${cursor}`)).status).toBe(200);
  });

  it("each filter has its own ETag; a 304 answers only an If-None-Match of the same filter", async () => {
    const plain = await api("/blogs?limit=5");
    const yes = await api("/blogs?limit=5&featured=true");
    const ranged = await api(`/blogs?limit=5&releasedAfter=${minute(0).toISOString()}`);
    const etags = [plain, yes, ranged].map((r) => r.headers.get("etag"));
    expect(new Set(etags).size).toBe(3);
    const again = await api("/blogs?limit=5&featured=true", w.key, {
      "if-none-match": etags[1] ?? "",
    });
    expect(again.status).toBe(304);
    const other = await api("/blogs?limit=5&featured=false", w.key, {
      "if-none-match": etags[1] ?? "",
    });
    expect(other.status).toBe(200);
  });

  it("the preview perspective filters blogs as they would be published, pending changes included", async () => {
    const [target] = byMinute;
    if (target === undefined) throw new Error("seeded");
    await s.blogs.update(w.workspaceId, target, { featured: true });
    const live = ids((await api("/blogs?featured=true&limit=100")).body);
    expect(live).not.toContain(target);
    const previewed = await get(`${server.url}/api/preview/blogs?featured=true&limit=100`, {
      "x-api-key": preview,
    });
    expect(previewed.status).toBe(200);
    expect(ids(previewed.body)).toContain(target);
    await s.blogs.discard(w.workspaceId, target);
  });
});

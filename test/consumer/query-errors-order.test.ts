import { beforeAll, describe, expect, it } from "vitest";
import type { BlogList } from "../../server/src/platform/http/consumer-types.js";
import { get, type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// openapi.yaml, listBlogs, getBlog and getBlogBySlug: "Choosing fields" (an unknown name gets a
// 400 naming it), "Tags" (a value not in normal form gets a 400 telling its normal form; a
// nextCursor is bound to its tag set) and the `limit`/`cursor` parameters. A request can break
// several of these rules at once; which 400 it gets is fixed, whichever route reads the query:
// `fields` first, then `tag`, then the spec's own checks, then the cursor.
let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let taggedCursor: string;
const api = (path: string) => get(`${server.url}/api/consumer${path}`, { "x-api-key": a.key });
const garbage = Buffer.from('[1,"x_1"]').toString("base64url");

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha", 3); // tagged "news"
  taggedCursor = ((await api("/blogs?tag=news&limit=1")).body as BlogList).nextCursor ?? "";
});

const TAG_MESSAGE = 'Invalid query parameter tag: tag "News" is not in normal form: use "news".';
const UNCHANGED = "Invalid query parameter cursor: pass a nextCursor unchanged.";
const OTHER_TAGS =
  "Invalid query parameter cursor: pass a nextCursor unchanged, with the same q, tag, author, featured, releasedAfter and releasedBefore values as the request that returned it.";

describe("which 400 a request with several bad parameters gets (openapi.yaml, listBlogs)", () => {
  const cases: [what: string, query: () => string, message: string | RegExp][] = [
    [
      "unknown field, bad tag, bad cursor, limit too high: the field",
      () => `fields=id,foo&tag=News&cursor=${garbage}&limit=1000`,
      "Unknown field(s) in fields: foo.",
    ],
    [
      "bad tag, bad cursor, limit too high: the tag",
      () => `tag=News&cursor=${garbage}&limit=1000`,
      TAG_MESSAGE,
    ],
    [
      "a bracketed tag and an unknown field: the field",
      () => "tag[]=news&fields=foo",
      "Unknown field(s) in fields: foo.",
    ],
    [
      "fields sent twice and a bad tag: the tag",
      () => "fields=id&fields=slug&tag=News",
      TAG_MESSAGE,
    ],
    [
      "eleven tags, one not in normal form: the tag's normal form",
      () => `${Array.from({ length: 10 }, (_, i) => `tag=t${i}`).join("&")}&tag=News`,
      TAG_MESSAGE,
    ],
    ["bad cursor, limit too high: the limit", () => `cursor=${garbage}&limit=1000`, /limit/],
    ["bad cursor, limit in hex: the limit", () => `cursor=${garbage}&limit=0x10`, /limit/],
    [
      "bad cursor, good fields and tag: the cursor",
      () => `tag=news&fields=id&cursor=${garbage}`,
      UNCHANGED,
    ],
    [
      "a tagged cursor with another tag and good fields: the tag set's cursor",
      () => `tag=c&fields=id,title&cursor=${taggedCursor}`,
      OTHER_TAGS,
    ],
    [
      "a tagged cursor without its tag: the tag set's cursor",
      () => `cursor=${taggedCursor}`,
      OTHER_TAGS,
    ],
  ];
  for (const [what, query, message] of cases) {
    it(what, async () => {
      const res = await api(`/blogs?${query()}`);
      expect(res.status, res.text).toBe(400);
      const body = res.body as { message: string };
      if (typeof message === "string") expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
    });
  }

  it("the same request without its faults answers 200 with the tagged, partial page", async () => {
    const res = await api(`/blogs?tag=news&fields=id,title&limit=1&cursor=${taggedCursor}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys((res.body as BlogList).data[0] ?? {})).toEqual(["id", "title"]);
  });
});

describe("which 400 getBlog and getBlogBySlug give (openapi.yaml, Choosing fields)", () => {
  it("an unknown field wins over a blog that does not exist and a malformed slug", async () => {
    for (const path of ["/blogs/b_nope?fields=foo", "/blogs/by-slug/NOT_A_SLUG?fields=foo"]) {
      const res = await api(path);
      expect(res.status, path).toBe(400);
      expect((res.body as { message: string }).message).toBe("Unknown field(s) in fields: foo.");
    }
  });

  it("a tag is not one of their parameters: 400 naming it, even with good fields", async () => {
    const res = await api(`/blogs/${a.released[0]}?fields=id&tag=news`);
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(/tag/);
  });
});

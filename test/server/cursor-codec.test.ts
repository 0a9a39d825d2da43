import { describe, expect, it } from "vitest";
import { auditCursor } from "../../server/src/audit/audit-log.js";
import { editorCursor, listCursor } from "../../server/src/blogs/cursor.js";
import type { EditorListQuery, EditorSort } from "../../server/src/blogs/editor-list.js";
import { parseBlogSearch } from "../../server/src/blogs/search-terms.js";
import { parseTagFilter } from "../../server/src/blogs/tag-filter.js";
import { deliveryCursor } from "../../server/src/webhooks/delivery-log.js";

// The one cursor codec (server/src/platform/cursor.ts) as each keyset list uses it: the consumer
// list (openapi.yaml, listBlogs and "Tags": "A nextCursor is bound to its tag set"), the
// dashboard's list (admin.yaml, listAdminBlogs: "A cursor made for another sort or q is refused
// with 400"), the audit log and a webhook endpoint's delivery log (admin.yaml, listAudit and
// listWebhookDeliveries). Cursors are opaque to clients, but clients hold them: every literal
// below is what the server emitted before the lists shared one codec, and must stay so.

const T = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const AT = new Date(T);
const b64 = (parts: unknown) => Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");

const TAGS = parseTagFilter(["product", "release-notes"]);
const SEARCH = parseBlogSearch("spring notes");
const editor = (sort: EditorSort, search = SEARCH): EditorListQuery => ({
  status: undefined,
  sort,
  search,
});
const NEWEST = editor("newest", null);
const OLDEST = editor("oldest", null);
const TITLE = editor("title", null);
const NEWEST_Q = editor("newest");
const TITLE_Q = editor("title");

const UNCHANGED = "Invalid query parameter cursor: pass a nextCursor unchanged.";
const OTHER_TAGS =
  "Invalid query parameter cursor: pass a nextCursor unchanged, with the same q, tag, author, featured, releasedAfter and releasedBefore values as the request that returned it.";
const OTHER_SORT =
  "Invalid query parameter cursor: it belongs to another sort or q; pass a nextCursor with the same sort and q as the request that returned it.";

describe("cursors clients hold still work (openapi.yaml listBlogs, admin.yaml list operations)", () => {
  it("the scopes cursors are bound to are those the server has always computed", () => {
    expect(TAGS?.scope).toBe("FB0wRH4HD99s5G3P");
    expect(SEARCH?.scope).toBe("KubS1T3kJGyCgpzW");
  });

  // [what, emitted cursor, encode it again, decode it to the same position]
  const pinned: [string, string, () => string, () => unknown, unknown][] = [
    [
      "consumer list",
      "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIl0",
      () => listCursor.encode({ at: AT, id: "b_7KcXw2" }, null),
      () => listCursor.decode("WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIl0", null),
      { at: AT, id: "b_7KcXw2" },
    ],
    [
      "consumer list with tags",
      "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwiRkIwd1JINEhEOTlzNUczUCJd",
      () => listCursor.encode({ at: AT, id: "b_7KcXw2" }, TAGS),
      () => listCursor.decode("WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwiRkIwd1JINEhEOTlzNUczUCJd", TAGS),
      { at: AT, id: "b_7KcXw2" },
    ],
    [
      "dashboard list, newest",
      "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIl0",
      () => editorCursor.encode({ value: AT, id: "b_7KcXw2" }, NEWEST),
      () => editorCursor.decode("WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIl0", NEWEST),
      { value: AT, id: "b_7KcXw2" },
    ],
    [
      "dashboard list, oldest",
      "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwib2xkZXN0Il0",
      () => editorCursor.encode({ value: AT, id: "b_7KcXw2" }, OLDEST),
      () => editorCursor.decode("WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwib2xkZXN0Il0", OLDEST),
      { value: AT, id: "b_7KcXw2" },
    ],
    [
      "dashboard list, title",
      "WyJzcHJpbmcgbm90ZXMiLCJiXzdLY1h3MiIsInRpdGxlIl0",
      () => editorCursor.encode({ value: "spring notes", id: "b_7KcXw2" }, TITLE),
      () => editorCursor.decode("WyJzcHJpbmcgbm90ZXMiLCJiXzdLY1h3MiIsInRpdGxlIl0", TITLE),
      { value: "spring notes", id: "b_7KcXw2" },
    ],
    [
      "dashboard list, newest with q",
      "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwibmV3ZXN0fkt1YlMxVDNrSkd5Q2dwelciXQ",
      () => editorCursor.encode({ value: AT, id: "b_7KcXw2" }, NEWEST_Q),
      () =>
        editorCursor.decode(
          "WzE3NjcyMjU2MDAwMDAsImJfN0tjWHcyIiwibmV3ZXN0fkt1YlMxVDNrSkd5Q2dwelciXQ",
          NEWEST_Q,
        ),
      { value: AT, id: "b_7KcXw2" },
    ],
    [
      "dashboard list, title with q",
      "WyJzcHJpbmcgbm90ZXMiLCJiXzdLY1h3MiIsInRpdGxlfkt1YlMxVDNrSkd5Q2dwelciXQ",
      () => editorCursor.encode({ value: "spring notes", id: "b_7KcXw2" }, TITLE_Q),
      () =>
        editorCursor.decode(
          "WyJzcHJpbmcgbm90ZXMiLCJiXzdLY1h3MiIsInRpdGxlfkt1YlMxVDNrSkd5Q2dwelciXQ",
          TITLE_Q,
        ),
      { value: "spring notes", id: "b_7KcXw2" },
    ],
    [
      "audit log",
      "WzE3NjcyMjU2MDAwMDAsImtfMTpleHBpcmVkIl0",
      () => auditCursor.encode({ value: AT, id: "k_1:expired" }),
      () => auditCursor.decode("WzE3NjcyMjU2MDAwMDAsImtfMTpleHBpcmVkIl0"),
      { value: AT, id: "k_1:expired" },
    ],
    [
      "delivery log",
      "WzE3NjcyMjU2MDAwMDAsImRsdl83S2MiXQ",
      () => deliveryCursor.encode({ value: AT, id: "dlv_7Kc" }),
      () => deliveryCursor.decode("WzE3NjcyMjU2MDAwMDAsImRsdl83S2MiXQ"),
      { value: AT, id: "dlv_7Kc" },
    ],
  ];

  for (const [what, emitted, encode, decode, position] of pinned) {
    it(`${what}: a new cursor is byte for byte the one emitted before, and reads back`, () => {
      expect(encode()).toBe(emitted);
      expect(decode()).toEqual(position);
    });
  }
});

type Verdict = "ok" | "unchanged" | "tags" | "sort";
const LISTS = [
  ["audit log", (c: string) => auditCursor.decode(c)],
  ["delivery log", (c: string) => deliveryCursor.decode(c)],
  ["consumer list", (c: string) => listCursor.decode(c, null)],
  ["consumer list with tags", (c: string) => listCursor.decode(c, TAGS)],
  ["dashboard, newest", (c: string) => editorCursor.decode(c, NEWEST)],
  ["dashboard, oldest", (c: string) => editorCursor.decode(c, OLDEST)],
  ["dashboard, title", (c: string) => editorCursor.decode(c, TITLE)],
  ["dashboard, newest with q", (c: string) => editorCursor.decode(c, NEWEST_Q)],
  ["dashboard, title with q", (c: string) => editorCursor.decode(c, TITLE_Q)],
] as const;

const verdictOf = (decode: (cursor: string) => unknown, cursor: string): Verdict => {
  try {
    decode(cursor);
    return "ok";
  } catch (err) {
    const message = (err as Error).message;
    if (message === UNCHANGED) return "unchanged";
    if (message === OTHER_TAGS) return "tags";
    if (message === OTHER_SORT) return "sort";
    throw err;
  }
};

const [ok, un, tg, so] = ["ok", "unchanged", "tags", "sort"] as const;
const tagScope = TAGS?.scope ?? "";
const newestQ = `newest~${SEARCH?.scope}`;
const titleQ = `title~${SEARCH?.scope}`;
const B = "b_7KcXw2";

// Each list's verdict, in the order of LISTS. Which 400 wins when a cursor is wrong twice is
// part of the rule: the consumer list judges the time before the scope (one kind of value), the
// dashboard's list the scope first (a cursor of another sort carries another kind of value).
const TABLE: [string, string, Verdict[]][] = [
  ["[time, blog id]", b64([T, B]), [ok, un, ok, tg, ok, so, so, so, so]],
  ["[time, delivery id]", b64([T, "dlv_7Kc"]), [ok, ok, un, un, un, un, un, un, un]],
  ["[time, audit id]", b64([T, "k_1:expired"]), [ok, un, un, un, un, un, un, un, un]],
  ["padded with =", `${b64([T, B])}=`, [ok, un, un, un, ok, so, so, so, so]],
  [
    "a dot inside",
    `${b64([T, B]).slice(0, 8)}.${b64([T, B]).slice(8)}`,
    [ok, un, un, un, ok, so, so, so, so],
  ],
  ["tag scope", b64([T, B, tagScope]), [un, un, tg, ok, so, so, so, so, so]],
  ["tag scope, negative time", b64([-1, B, tagScope]), [un, un, un, un, so, so, so, so, so]],
  ["another tag scope", b64([T, B, "AAAAAAAAAAAAAAAA"]), [un, un, tg, tg, so, so, so, so, so]],
  [
    "another scope, fraction",
    b64([1.5, B, "AAAAAAAAAAAAAAAA"]),
    [un, un, un, un, so, so, so, so, so],
  ],
  ["null scope", b64([T, B, null]), [un, un, un, un, un, un, un, un, un]],
  ["number scope", b64([T, B, 7]), [un, un, un, un, un, un, un, un, un]],
  ["four elements", b64([T, B, "oldest", "x"]), [un, un, un, un, un, un, un, un, un]],
  ["one element", b64([T]), [un, un, un, un, un, un, un, un, un]],
  ["an object", b64({ at: T, id: B }), [un, un, un, un, un, un, un, un, un]],
  ["not JSON", "bm90IGpzb24", [un, un, un, un, un, un, un, un, un]],
  ["empty", "", [un, un, un, un, un, un, un, un, un]],
  ["negative time", b64([-1, B]), [un, un, un, un, un, so, so, so, so]],
  ["fractional time", b64([1.5, B]), [un, un, un, un, un, so, so, so, so]],
  ["unsafe time", b64([2 ** 53, B]), [un, un, un, un, un, so, so, so, so]],
  ["time as a string", b64([String(T), B]), [un, un, un, un, un, so, so, so, so]],
  ["blog id of 65", b64([T, `b_${"a".repeat(65)}`]), [ok, un, un, un, un, un, un, un, un]],
  ["blog id of 64", b64([T, `b_${"a".repeat(64)}`]), [ok, un, ok, tg, ok, so, so, so, so]],
  ["oldest", b64([T, B, "oldest"]), [un, un, tg, tg, so, ok, so, so, so]],
  ["oldest, a title", b64(["spring", B, "oldest"]), [un, un, un, un, so, un, so, so, so]],
  ["title", b64(["spring notes", B, "title"]), [un, un, un, un, so, so, ok, so, so]],
  ["title, a time", b64([T, B, "title"]), [un, un, tg, tg, so, so, un, so, so]],
  ["title of 1000", b64(["x".repeat(1000), B, "title"]), [un, un, un, un, so, so, ok, so, so]],
  ["title of 1001", b64(["x".repeat(1001), B, "title"]), [un, un, un, un, so, so, un, so, so]],
  ["newest with q", b64([T, B, newestQ]), [un, un, tg, tg, so, so, so, ok, so]],
  ["title with q", b64(["spring notes", B, titleQ]), [un, un, un, un, so, so, so, so, ok]],
];

describe("a cursor is refused unless this list made it for this query (platform/cursor.ts)", () => {
  for (const [what, cursor, verdicts] of TABLE) {
    it(`${what}: ${verdicts.join(", ")}`, () => {
      expect(LISTS.map(([, decode]) => verdictOf(decode, cursor))).toEqual(verdicts);
    });
  }
});

import { describe, expect, it } from "vitest";
import { draftOf } from "../../dashboard/src/features/blogs/blog-draft.js";
import {
  type BodyRow,
  bodyRows,
  conflictOf,
  copyTextOf,
} from "../../dashboard/src/features/blogs/conflict.js";
import type { components } from "../../openapi/generated/admin.js";

// What the editor's conflict dialog compares and what its choices keep (dashboard/README.md,
// "The editor": a write refused with 412 is never lost, and never overwrites in silence).

type AdminBlog = components["schemas"]["AdminBlog"];

const base: AdminBlog = {
  id: "b_1",
  version: "v1",
  pendingChanges: false,
  schedule: { publishAt: null, unreleaseAt: null },
  status: "draft",
  slug: "hello",
  title: "Hello",
  excerpt: "Derived.",
  bodyMarkdown: "one\ntwo\nthree\n",
  bodyHtml: "",
  tags: ["news"],
  authorName: "Ada",
  authors: [],
  coverImageUrl: null,
  coverImageAlt: null,
  featured: false,
  metaTitle: null,
  metaDescription: null,
  canonicalUrl: null,
  socialImageUrl: null,
  readingTimeMinutes: 1,
  createdAt: "2025-06-01T12:00:00.000Z",
  updatedAt: "2025-06-01T12:00:00.000Z",
  releasedAt: null,
};

describe("a conflict keeps each writer's own changes", () => {
  it("“Keep mine” keeps the fields only they changed, and mine where I changed them", () => {
    const theirs = {
      ...base,
      version: "v2",
      title: "Their title",
      bodyMarkdown: "one\n2\nthree\n",
    };
    const typed = { ...draftOf(base), excerpt: "My excerpt", bodyMarkdown: "one\ndeux\nthree\n" };
    const found = conflictOf(base, typed, theirs);
    expect(found.mine).toMatchObject({
      title: "Their title",
      excerpt: "My excerpt",
      bodyMarkdown: "one\ndeux\nthree\n",
    });
    expect(found.differing).toEqual(["excerpt", "bodyMarkdown"]);
    expect(found.theirsOnly).toEqual(["title"]);
  });

  it("the same change made by both differs in nothing", () => {
    const theirs = { ...base, version: "v2", tags: ["news", "notes"] };
    const typed = { ...draftOf(base), tags: "news, notes" };
    expect(conflictOf(base, typed, theirs).differing).toEqual([]);
  });

  it("a field they changed and I did not is theirs in my version, whatever the form held", () => {
    const theirs = { ...base, version: "v2", slug: "their-slug" };
    const found = conflictOf(base, { ...draftOf(base), title: "Mine" }, theirs);
    expect(found.mine.slug).toBe("their-slug");
    expect(found.differing).toEqual(["title"]);
    expect(found.theirsOnly).toEqual(["slug"]);
  });
});

describe("the body diff: theirs left, mine right", () => {
  const changed = (t: string | null, m: string | null): BodyRow => ({
    kind: "changed",
    theirs: t,
    mine: m,
  });

  it("pairs a replaced line with its replacement, and shows lines only one side has", () => {
    expect(bodyRows("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: "same", text: "a" },
      changed("b", "B"),
      { kind: "same", text: "c" },
      changed(null, "d"),
    ]);
    expect(bodyRows("a\nb\n", "a\n")).toEqual([{ kind: "same", text: "a" }, changed("b", null)]);
  });

  it("cuts long unchanged runs to two lines of context around each change", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const mine = lines.map((l) => (l === "line 10" ? "line ten" : l));
    expect(bodyRows(`${lines.join("\n")}\n`, `${mine.join("\n")}\n`)).toEqual([
      { kind: "skipped", lines: 8 },
      { kind: "same", text: "line 8" },
      { kind: "same", text: "line 9" },
      changed("line 10", "line ten"),
      { kind: "same", text: "line 11" },
      { kind: "same", text: "line 12" },
      { kind: "skipped", lines: 7 },
    ]);
  });

  it("a missing final newline is no line of its own", () => {
    expect(bodyRows("a\nb", "a\nc\n")).toEqual([{ kind: "same", text: "a" }, changed("b", "c")]);
  });

  it("bodies too different to diff are shown whole, theirs against mine", () => {
    // Every other line differs: a real diff keeps the common lines as "same" rows; past the
    // edit bound (conflict.ts MAX_EDITS) both bodies are shown whole, line i beside line i,
    // common lines too.
    const interleaved = (n: number, other: string) =>
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? `c${i}` : `${other}${i}`)).join("\n");
    const small = bodyRows(interleaved(30, "t"), interleaved(30, "m"));
    expect(small.some((row) => row.kind === "same")).toBe(true);
    const rows = bodyRows(interleaved(3000, "t"), interleaved(3000, "m"));
    expect(rows).toHaveLength(3000);
    expect(rows.every((row) => row.kind === "changed")).toBe(true);
    expect(rows[0]).toEqual(changed("c0", "c0"));
    expect(rows[1]).toEqual(changed("t1", "m1"));
  });
});

describe("“Copy mine”", () => {
  it("copies the body alone when only the body differs, else each differing field, body last", () => {
    const theirs = { ...base, version: "v2", bodyMarkdown: "theirs\n" };
    const onlyBody = conflictOf(base, { ...draftOf(base), bodyMarkdown: "mine\n" }, theirs);
    expect(copyTextOf(onlyBody)).toBe("mine\n");
    const more = conflictOf(
      base,
      { ...draftOf(base), title: "My title", bodyMarkdown: "mine\n" },
      theirs,
    );
    expect(copyTextOf(more)).toBe("Title: My title\n\nmine\n");
  });
});

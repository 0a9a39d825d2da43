import { readFileSync } from "node:fs";
import { normaliseTag, normaliseTags, REFUSED_CLASS } from "@pressroom/tag-rule";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { components } from "../../openapi/generated/admin.js";
import { normaliseStoredTags } from "../../server/src/blogs/tag-migration.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type AdminBlog = components["schemas"]["AdminBlog"];
type Me = components["schemas"]["Me"];

// admin.yaml, BlogInput.tags, and openapi.yaml, "Tags": the normal form tags are stored in.
let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

const normal = (raw: string) => {
  const result = normaliseTag(raw);
  return result.ok ? result.tag : `refused: ${result.problem}`;
};

describe("the normal form of a tag (openapi.yaml, Tags)", () => {
  it("NFKC, locale-independent lower case, trimmed, white space runs as one dash", () => {
    expect(normal("  Release  Notes ")).toBe("release-notes");
    expect(normal("ＡＢＣ")).toBe("abc");
    expect(normal("ﬁx")).toBe("fix");
    expect(normal("cafe\u0301")).toBe("café");
    expect(normal("CAFÉ")).toBe("café");
    expect(normal("İstanbul")).toBe("i\u0307stanbul");
    expect(normal("Ärger\u3000im\u00a0Büro")).toBe("ärger-im-büro");
    expect(normal("㍻")).toBe("平成");
  });

  it("punctuation and symbols stay: c++, node.js, c#, r&d", () => {
    for (const tag of ["c++", "node.js", "c#", "r&d", "C++"]) {
      expect(normal(tag)).toBe(tag.toLowerCase());
    }
  });

  it("controls, invisible format characters and lone surrogates are refused, named by code point", () => {
    for (const [raw, point] of [
      ["ne\u200bws", "U+200B"],
      ["ne\u200dws", "U+200D"],
      ["ne\u00adws", "U+00AD"],
      ["\ufeffnews", "U+FEFF"],
      ["news\u0000", "U+0000"],
      ["a\u202eb", "U+202E"],
      ["a\ud800b", "U+D800"],
    ] as const) {
      expect(normal(raw)).toContain(point);
    }
    // Characters outside the Basic Multilingual Plane are letters and symbols like any other.
    expect(normal("🚀 Launch")).toBe("🚀-launch");
  });

  it("the specs' patterns for a tag refuse exactly the rule's characters", () => {
    const spec = parse(readFileSync("openapi/admin.yaml", "utf8")) as {
      components: {
        schemas: Record<string, { properties: { tags: { items: { pattern: string } } } }>;
      };
    };
    for (const schema of ["BlogInput", "BlogPatch"]) {
      expect(spec.components.schemas[schema]?.properties.tags.items.pattern).toBe(
        `^[^${REFUSED_CLASS}]*$`,
      );
    }
    // …and openapi.yaml's for a tag filter value.
    const consumer = parse(readFileSync("openapi/openapi.yaml", "utf8")) as {
      components: { parameters: { Tag: { schema: { items: { pattern: string } } } } };
    };
    expect(consumer.components.parameters.Tag.schema.items.pattern).toBe(`^[^${REFUSED_CLASS}]*$`);
  });

  it("at most 40 code points in normal form (NFKC may lengthen a tag)", () => {
    expect(normal("é".repeat(40))).toBe("é".repeat(40));
    expect(normal("㍻".repeat(21))).toMatch(/longer than 40 characters in normal form \(42\)/);
  });

  it("a normal form is its own normal form (any string)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (raw) => {
        const once = normaliseTag(raw);
        if (!once.ok || once.tag === "") return;
        expect(normaliseTag(once.tag)).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });

  it("a blog's tags: blanks dropped, repeats in normal form dropped, the first kept, order kept", () => {
    expect(normaliseTags(["Go", " ", "rust", "GO", "go ", "Rust"])).toEqual({
      ok: true,
      tags: ["go", "rust"],
    });
  });
});

describe("the admin API stores tags in normal form (admin.yaml, BlogInput.tags)", () => {
  it("create and update store the normal form, and return it", async () => {
    const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title: "Tagged",
      bodyMarkdown: "x",
      tags: ["Release Notes", "release-notes", "C++", "ｎｅｗｓ", "  "],
    });
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual(["release-notes", "c++", "news"]);
    const updated = await owner.patch<AdminBlog>(
      `/workspaces/${ws}/blogs/${created.body.id}`,
      { tags: ["Node.JS", "cafe\u0301", "café"] },
      ANY_VERSION,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.tags).toEqual(["node.js", "café"]);
    const stored = await stores(t.db).blogs.get(ws, created.body.id);
    expect(stored.tags).toEqual(["node.js", "café"]);
  });

  it("a tag that cannot be normalised is a 400 naming it, and nothing is saved", async () => {
    const created = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
      title: "Kept",
      bodyMarkdown: "x",
      tags: ["kept"],
    });
    for (const [tags, message] of [
      // Refused by admin.yaml's pattern (the rule's characters), naming the tag's place.
      [["ok", "zero\u200bwidth"], /tags\/1 must match pattern/],
      [["soft\u00adhyphen"], /tags\/0 must match pattern/],
      // Refused by the rule: too long in normal form.
      [["㍻".repeat(21)], /longer than 40 characters in normal form/],
    ] as const) {
      const res = await owner.patch(
        `/workspaces/${ws}/blogs/${created.body.id}`,
        { tags },
        ANY_VERSION,
      );
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toMatch(message);
      const create = await owner.post(`/workspaces/${ws}/blogs`, {
        title: "Never",
        bodyMarkdown: "x",
        tags,
      });
      expect(create.status).toBe(400);
    }
    expect((await stores(t.db).blogs.get(ws, created.body.id)).tags).toEqual(["kept"]);
  });
});

describe("stored tags from before the normal form are rewritten once at start-up", () => {
  it("each blog's tags are normalised (unusable ones dropped) with a new revision; a second run changes nothing", async () => {
    const s = stores(t.db);
    const c = collections(t.db);
    const old = await s.blogs.create(ws, { title: "Old", bodyMarkdown: "x", release: true });
    const fine = await s.blogs.create(ws, { title: "Fine", bodyMarkdown: "x", tags: ["ok"] });
    // As a blog saved before the rule might hold them: written directly.
    await c.blogs.updateOne(
      { _id: old._id },
      { $set: { tags: ["Release Notes", "release-notes", "zero\u200bwidth", "C#"] } },
    );
    await c.markers.deleteOne({ _id: "tags-normal-form-1" });
    const before = await s.blogs.get(ws, old._id);
    expect(await normaliseStoredTags(c)).toBe(1);
    const after = await s.blogs.get(ws, old._id);
    expect(after.tags).toEqual(["release-notes", "c#"]);
    expect(after.revision).not.toBe(before.revision);
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    expect((await s.blogs.get(ws, fine._id)).revision).toBe(fine.revision);
    expect(await c.markers.countDocuments({ _id: "tags-normal-form-1" })).toBe(1);
    // Done once: the marker stops later starts from reading every blog again.
    await c.blogs.updateOne({ _id: old._id }, { $set: { tags: ["Again"] } });
    expect(await normaliseStoredTags(c)).toBe(0);
    await c.markers.deleteOne({ _id: "tags-normal-form-1" });
    expect(await normaliseStoredTags(c)).toBe(1);
    expect(await normaliseStoredTags(c)).toBe(0);
  });
});

// The import engine without transactions (server/src/transfer/import-apply.ts, README "Operator
// CLI": import): concurrent runs of one import create each blog once; a run that fails midway
// leaves a marker, and running it again completes it.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inlineRenderer } from "../../server/src/blogs/render-pool.js";
import { type Collections, collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { applyImport, unfinishedImport } from "../../server/src/transfer/import-apply.js";
import { importBlogId } from "../../server/src/transfer/import-identity.js";
import { planCounts, planImport } from "../../server/src/transfer/import-plan.js";
import type { ImportSet } from "../../server/src/transfer/import-set.js";
import { readPressroomExport } from "../../server/src/transfer/pressroom-format.js";
import { runCli } from "../support/cli.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
let c: Collections;
let set: ImportSet;
let file: string;

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

beforeAll(async () => {
  t = await useTestDb();
  c = collections(t.db);
  const blogs = Array.from({ length: 12 }, (_, i) => ({
    id: `b_source${i}`,
    slug: `post-${i}`,
    title: `Post ${i}`,
    status: i % 2 === 0 ? "released" : "draft",
    bodyMarkdown: `Body ${i}.`,
    excerpt: null,
    tags: ["news"],
    authorName: "Ada",
    coverImageUrl: null,
    createdAt: at(i),
    updatedAt: at(i),
    releasedAt: i % 2 === 0 ? at(i) : null,
    removedAt: null,
  }));
  const dir = await mkdtemp(path.join(tmpdir(), "pressroom-apply-"));
  file = path.join(dir, "ws.json");
  await writeFile(
    file,
    JSON.stringify({ format: "pressroom.workspace-export", version: 1, blogs, keys: [] }),
  );
  set = await readPressroomExport(file, {});
});

const newWorkspace = async (name: string) => (await createStores(t.db).workspaces.create(name))._id;

describe("happy: an import's blog ids are derived from the workspace and the entry", () => {
  it("two runs of one import at once create each blog once, and the loser writes nothing more", async () => {
    const ws = await newWorkspace("Concurrent");
    const [a, b] = await Promise.all([
      planImport(c, inlineRenderer, ws, set),
      planImport(c, inlineRenderer, ws, set),
    ]);
    const results = await Promise.all([
      applyImport(c, a, { source: "a", now: new Date() }),
      applyImport(c, b, { source: "b", now: new Date() }),
    ]);
    const stored = await c.blogs.find({ workspaceId: ws }).toArray();
    expect(stored.map((d) => d._id).sort()).toEqual(
      set.blogs.map((blog) => importBlogId(ws, blog.sourceKey)).sort(),
    );
    const sum = (k: "created" | "unchanged" | "updated") => results.reduce((n, r) => n + r[k], 0);
    expect([sum("created"), sum("unchanged"), sum("updated")]).toEqual([12, 12, 0]);
    expect(stored.every((d) => d.importKey?.startsWith("pressroom:b_source"))).toBe(true);
    expect(await unfinishedImport(c, ws)).toBeNull();
  });
});

describe("happy: the source wins over an edited blog, but not over a removal", () => {
  it("a changed entry is updated (new revision, a blog.updated event for a released blog); a blog removed in Pressroom is a conflict, left as it is", async () => {
    const ws = await newWorkspace("Edited");
    await applyImport(c, await planImport(c, inlineRenderer, ws, set), {
      source: "s",
      now: new Date(),
    });
    const [first, second] = set.blogs;
    if (first === undefined || second === undefined) throw new Error("seed");
    const id = importBlogId(ws, first.sourceKey);
    const before = await c.blogs.findOne({ _id: id });
    await createStores(t.db).blogs.setStatus(ws, importBlogId(ws, second.sourceKey), "removed");
    const changed: ImportSet = {
      ...set,
      blogs: set.blogs.map((b, i) =>
        i === 0 || i === 1 ? { ...b, title: `${b.title} (edited at the source)` } : b,
      ),
    };
    const plan = await planImport(c, inlineRenderer, ws, changed);
    expect(planCounts(plan)).toMatchObject({ update: 1, conflict: 1, unchanged: 10 });
    const result = await applyImport(c, plan, { source: "s", now: new Date() });
    expect(result).toEqual({ created: 0, updated: 1, unchanged: 10, conflicts: 1 });
    const after = await c.blogs.findOne({ _id: id });
    expect(after?.title).toBe("Post 0 (edited at the source)");
    expect(after?.revision).not.toBe(before?.revision);
    expect(after?.updatedAt).toEqual(first.updatedAt);
    expect(after?.webhookOutbox?.map((e) => e.type)).toContain("blog.updated");
    const removed = await c.blogs.findOne({ _id: importBlogId(ws, second.sourceKey) });
    expect([removed?.status, removed?.title]).toEqual(["removed", "Post 1"]);
  });
});

describe('an import over pending changes (admin.yaml, "Staged changes")', () => {
  it("replaces them: the imported content is the blog's, and the version an editor held is stale", async () => {
    const ws = await newWorkspace("Pending");
    await applyImport(c, await planImport(c, inlineRenderer, ws, set), {
      source: "s",
      now: new Date(),
    });
    const [first] = set.blogs; // released
    if (first === undefined) throw new Error("seed");
    const id = importBlogId(ws, first.sourceKey);
    const s = createStores(t.db);
    const staged = await s.blogs.update(ws, id, { title: "Pending, never published" });
    expect(staged.pending?.title).toBe("Pending, never published");
    const changed: ImportSet = {
      ...set,
      blogs: set.blogs.map((b, i) => (i === 0 ? { ...b, title: "Imported again" } : b)),
    };
    const result = await applyImport(c, await planImport(c, inlineRenderer, ws, changed), {
      source: "s",
      now: new Date(),
    });
    expect(result.updated).toBe(1);
    const after = await c.blogs.findOne({ _id: id });
    expect(after?.title).toBe("Imported again");
    expect(after?.staged).toBeUndefined();
    // The pending changes' content went with them (blogs/blog-staging.ts).
    expect(await c.blogStaged.countDocuments({ blogId: id })).toBe(0);
    // A publish made on the pending version the editor held changes nothing now.
    await expect(s.blogs.publish(ws, id, [staged.staged?.revision ?? ""])).rejects.toMatchObject({
      code: "stale",
    });
    expect((await c.blogs.findOne({ _id: id }))?.title).toBe("Imported again");
  });
});

describe("error: a run that fails midway (no transactions)", () => {
  it("leaves the blogs written so far and a marker; running it again completes it and clears the marker", async () => {
    const ws = await newWorkspace("Interrupted");
    const plan = await planImport(c, inlineRenderer, ws, set);
    // The database connection is lost after the first two documents of the insert.
    const failing = new Proxy(c.blogs, {
      get(target, prop, receiver) {
        if (prop !== "insertMany") return Reflect.get(target, prop, receiver);
        return async (docs: Parameters<typeof target.insertMany>[0]) => {
          await target.insertMany(docs.slice(0, 2));
          throw new Error("connection lost");
        };
      },
    });
    await expect(
      applyImport({ ...c, blogs: failing }, plan, { source: `pressroom ${file}`, now: new Date() }),
    ).rejects.toThrow("connection lost");
    expect(await c.blogs.countDocuments({ workspaceId: ws })).toBe(2);
    expect(await unfinishedImport(c, ws)).toMatchObject({ source: `pressroom ${file}` });

    const rerun = await runCli(["import", "--workspace", ws, "--json", file], {
      MONGODB_URI: t.uri,
      MONGODB_DB: t.name,
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("did not finish; running it again completes it");
    expect(JSON.parse(rerun.stdout).counts).toMatchObject({ create: 10, unchanged: 2 });
    expect(await c.blogs.countDocuments({ workspaceId: ws })).toBe(12);
    expect(await unfinishedImport(c, ws)).toBeNull();
    expect(planCounts(await planImport(c, inlineRenderer, ws, set))).toMatchObject({
      unchanged: 12,
    });
  });
});

describe("error: a run that crashed after its last write (no transactions)", () => {
  it("leaves its marker; running it again writes nothing (all unchanged) and still clears the marker", async () => {
    const ws = await newWorkspace("Crashed at the end");
    const source = `pressroom ${file}`;
    // Every blog is written, then the connection is lost before the marker is deleted.
    const failing = new Proxy(c.markers, {
      get(target, prop, receiver) {
        if (prop !== "deleteMany") return Reflect.get(target, prop, receiver);
        return async () => {
          throw new Error("connection lost");
        };
      },
    });
    const plan = await planImport(c, inlineRenderer, ws, set);
    await expect(
      applyImport({ ...c, markers: failing }, plan, { source, now: new Date() }),
    ).rejects.toThrow("connection lost");
    expect(await c.blogs.countDocuments({ workspaceId: ws })).toBe(12);
    expect(await unfinishedImport(c, ws)).toMatchObject({ source });

    const again = await planImport(c, inlineRenderer, ws, set);
    expect(planCounts(again)).toMatchObject({ create: 0, update: 0, unchanged: 12 });
    const result = await applyImport(c, again, { source, now: new Date() });
    expect(result).toEqual({ created: 0, updated: 0, unchanged: 12, conflicts: 0 });
    expect(await unfinishedImport(c, ws)).toBeNull();
  });
});

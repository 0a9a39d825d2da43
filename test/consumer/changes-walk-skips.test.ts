// A sync's first walk leaves to the entries after it the blogs those entries bring
// (server/src/changes/walk-skips.ts; README, "How the changes feed stays exact without
// transactions"): after many releases still to record, each blog comes once, and a blog whose
// entry another instance made before the walk began, and whose mark it is still clearing, still
// comes.
import { beforeAll, describe, expect, it } from "vitest";
import { changeLog } from "../../server/src/changes/change-log.js";
import { MAX_RECORDED_PER_CALL } from "../../server/src/changes/change-recorder.js";
import type { FeedPage } from "../../server/src/changes/changes-feed.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { importReleased } from "../support/import-released.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

/** Applies pages from `page` on until `hasMore` is false; returns the upserts per blog. */
async function drain(
  next: (token: string | undefined) => Promise<FeedPage>,
  first?: FeedPage,
): Promise<{ mirror: Set<string>; sent: Map<string, number> }> {
  const mirror = new Set<string>();
  const sent = new Map<string, number>();
  let page = first ?? (await next(undefined));
  for (let calls = 0; ; calls++) {
    for (const change of page.changes) {
      if (change.type === "upsert") {
        mirror.add(change.blog._id);
        sent.set(change.blog._id, (sent.get(change.blog._id) ?? 0) + 1);
      } else mirror.delete(change.id);
    }
    if (!page.hasMore) return { mirror, sent };
    if (calls > 200) throw new Error("the feed still had more after 200 pages");
    page = await next(page.nextToken);
  }
}

const names = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`);

/** One call's share of released blogs, marked, all released before the late one. */
const importOneCallsShare = (workspaceId: string, base: number) =>
  importReleased(
    t.db,
    workspaceId,
    names("a", MAX_RECORDED_PER_CALL).map((name, i) => ({
      name,
      releasedAt: new Date(base + i * 60_000),
    })),
  );

/** The workspace's released blogs' IDs, sorted: what a mirror ends equal to. */
async function releasedIds(workspaceId: string): Promise<string[]> {
  const docs = await collections(t.db)
    .blogs.find({ workspaceId, status: "released" }, { projection: { _id: 1 } })
    .toArray();
  return docs.map((doc) => doc._id).sort();
}

describe('a sync\'s first walk and the entries after it (openapi.yaml, "Syncing a mirror")', () => {
  it("a sync begun while more releases wait to be recorded than one call records sends each blog once, and ends equal to the released set", async () => {
    const s = createStores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("walk skips");
    const n = MAX_RECORDED_PER_CALL + 150;
    const base = Date.UTC(2026, 0, 1);
    await importReleased(
      t.db,
      workspaceId,
      names("w", n).map((name, i) => ({ name, releasedAt: new Date(base + i * 60_000) })),
    );
    const released = await releasedIds(workspaceId);
    expect(released).toHaveLength(n);
    const { mirror, sent } = await drain((token) => s.changes.page(workspaceId, token, 100));
    expect([...mirror].sort()).toEqual(released);
    // Before the walk left them to their entries, the 150 recorded after it began came twice.
    expect([...sent.values()].filter((times) => times > 1)).toEqual([]);
    expect(await collections(t.db).blogs.countDocuments({ workspaceId, feedPending: true })).toBe(
      0,
    );
  });

  it("a blog whose entry another instance made before the walk began, and whose mark it clears only after the walk read it, is sent by the walk", async () => {
    // Neither instance records ahead: A's recording of the rest would race B's clear of the
    // late blog's mark, and could bring that blog by an entry of its own.
    const a = createStores(t.db, { recordFeedAhead: false });
    const { _id: workspaceId } = await a.workspaces.create("walk race");
    const base = Date.UTC(2026, 0, 1);
    // The newest release, so the walk's first page holds it; the largest ID, so a recording of
    // one call's share of the others does not list it.
    const late = { id: "b_zzzz", releasedAt: new Date(base + 86_400_000) };
    await importReleased(t.db, workspaceId, [{ name: "late", releasedAt: late.releasedAt }]);
    // The import names blogs itself: the blog takes the ID the test needs, marked as it was.
    const blogs = collections(t.db).blogs;
    const imported = await blogs.findOne({ workspaceId });
    if (imported === null) throw new Error("the import stored no blog");
    await blogs.deleteOne({ _id: imported._id });
    await blogs.insertOne({ ...imported, _id: late.id });
    let firstPage: FeedPage | undefined;
    // Instance B records the blog and is held between its entry and the clearing of its mark,
    // while an import marks more blogs than one call records and instance A's sync begins.
    const b = createStores(t.db, {
      recordFeedAhead: false,
      afterFeedAppend: async (blogId) => {
        if (blogId !== late.id || firstPage !== undefined) return;
        await importOneCallsShare(workspaceId, base);
        firstPage = await a.changes.page(workspaceId, undefined, 100);
      },
    });
    await b.changes.page(workspaceId, undefined, 100);
    expect(firstPage).toBeDefined();
    // B has cleared the mark: nothing but B's entry, numbered before A's walk began, names it.
    expect((await blogs.findOne({ _id: late.id }))?.feedPending).toBe(false);
    const { mirror } = await drain((token) => a.changes.page(workspaceId, token, 100), firstPage);
    expect(mirror.has(late.id)).toBe(true);
    expect([...mirror].sort()).toEqual(await releasedIds(workspaceId));
    expect(mirror.size).toBe(MAX_RECORDED_PER_CALL + 1);
  });

  it("an entry without a revision (an older instance's, mid-upgrade) counts as one for the revision now: the walk sends its marked blog", async () => {
    const a = createStores(t.db);
    const { _id: workspaceId } = await a.workspaces.create("walk upgrade");
    const base = Date.UTC(2026, 0, 1);
    await importReleased(t.db, workspaceId, [
      { name: "late", releasedAt: new Date(base + 86_400_000) },
    ]);
    const blogs = collections(t.db).blogs;
    const imported = await blogs.findOne({ workspaceId });
    if (imported === null) throw new Error("the import stored no blog");
    await blogs.deleteOne({ _id: imported._id });
    await blogs.insertOne({ ...imported, _id: "b_zzzy" });
    // An older instance's recording: its entry keeps no revision; its clear comes after A's walk
    // read the blog, still marked.
    await changeLog(collections(t.db)).appendMany(workspaceId, [{ blogId: "b_zzzy" }]);
    await importOneCallsShare(workspaceId, base);
    const firstPage = await a.changes.page(workspaceId, undefined, 100);
    await blogs.updateOne({ _id: "b_zzzy" }, { $set: { feedPending: false } });
    const { mirror } = await drain((token) => a.changes.page(workspaceId, token, 100), firstPage);
    expect(mirror.has("b_zzzy")).toBe(true);
    expect([...mirror].sort()).toEqual(await releasedIds(workspaceId));
  });
});

// A recording that leaves marks records the rest ahead, while the sync pages through what is
// recorded (server/src/changes/change-recorder.ts; README, "How the changes feed stays exact
// without transactions"): a consumer call waits for one call's share of the recording, never for
// a whole import's, and the calls that follow neither repeat a token nor wait for what is
// already recorded.
import { beforeAll, describe, expect, it } from "vitest";
import { changeLog } from "../../server/src/changes/change-log.js";
import {
  MAX_RECORDED_PER_CALL,
  MAX_WORKSPACES_AHEAD,
} from "../../server/src/changes/change-recorder.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { importReleased } from "../support/import-released.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gate the recording waits at: closed until `open`, and `held` once something waits. */
function gate() {
  let open = () => {};
  let reached = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const held = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return { opened, held, open, reached };
}

/** `n` released blogs imported into the workspace, marked and not recorded; returns their IDs. */
async function importMarked(workspaceId: string, n: number): Promise<string[]> {
  const base = Date.UTC(2026, 0, 1);
  await importReleased(
    t.db,
    workspaceId,
    Array.from({ length: n }, (_, i) => ({
      name: `${workspaceId.slice(3, 9).toLowerCase()}-${i}`,
      releasedAt: new Date(base + i * 60_000),
    })),
  );
  // The import names the blogs itself.
  const blogs = await collections(t.db)
    .blogs.find({ workspaceId }, { projection: { _id: 1 } })
    .toArray();
  return blogs.map((blog) => blog._id);
}

/** Stores whose recording waits at `gate` from the first blog of its second batch on. */
function storesHeldAtSecondBatch(at: ReturnType<typeof gate>) {
  let appended = 0;
  return createStores(t.db, {
    afterFeedAppend: async () => {
      appended += 1;
      if (appended !== MAX_RECORDED_PER_CALL + 1) return;
      at.reached();
      await at.opened;
    },
  });
}

/** Waits (up to 30 s) until `done` holds. */
async function eventually(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600 && !(await done()); i++) await sleep(50);
}

/** The workspace's log holds one entry per blog: no mark was recorded twice. */
async function expectOneEntryEach(workspaceId: string, blogs: number): Promise<void> {
  const log = changeLog(collections(t.db));
  const entries = await log.read(workspaceId, 0, await log.last(workspaceId), blogs + 10);
  expect(entries).toHaveLength(blogs);
  expect(new Set(entries.map((entry) => entry.blogId)).size).toBe(blogs);
}

describe('recording ahead (openapi.yaml, "Syncing a mirror")', () => {
  it("a call that leaves marks records one batch itself, and every other mark is recorded ahead without another call, once each", async () => {
    const imported = 3 * MAX_RECORDED_PER_CALL + 100;
    // Held at the first blog of its second batch, after that batch's entries and before its
    // clears: the first batch is the call's own, the second the first ahead.
    const second = gate();
    const s = storesHeldAtSecondBatch(second);
    const { _id: workspaceId } = await s.workspaces.create("record ahead");
    expect(await importMarked(workspaceId, imported)).toHaveLength(imported);
    const pending = () =>
      collections(t.db).blogs.countDocuments({ workspaceId, feedPending: true });
    const log = changeLog(collections(t.db));

    const first = await s.feedRecorder.record(workspaceId);
    expect(first).toMatchObject({ complete: false, recorded: MAX_RECORDED_PER_CALL });
    await second.held;
    // The call cleared its own batch only; the batch ahead has its entries and no clears yet.
    expect(await pending()).toBe(imported - MAX_RECORDED_PER_CALL);
    const ahead = await log.last(workspaceId);
    expect(ahead).toBe(first.last + MAX_RECORDED_PER_CALL);

    // A caller behind the log's end is answered at once, held batch or not.
    expect(await s.feedRecorder.record(workspaceId, { after: first.last })).toEqual({
      last: ahead,
      complete: false,
      recorded: 0,
    });
    // A caller at the log's end waits until the number moves past it: after the held batch
    // ends, the next one's entries (never the same number, which would repeat its token).
    const caughtUp = s.feedRecorder.record(workspaceId, { after: ahead });
    // `/tags`' version check records a batch of its own all the same (its turn comes right after
    // the held batch), so the number it answers with covers every write before it.
    const own = s.feedRecorder.record(workspaceId, { bound: 100, own: true });
    second.open();
    const moved = await caughtUp;
    expect(moved.last).toBeGreaterThan(ahead);
    expect(moved.complete).toBe(false);
    expect(await own).toMatchObject({ last: ahead + 100, complete: false, recorded: 100 });

    // No other call: the rest is recorded ahead.
    await eventually(async () => (await pending()) === 0);
    expect(await pending()).toBe(0);
    // A batch of its own (taking its turn after the last batch ahead) finds nothing left.
    const done = await s.feedRecorder.record(workspaceId, { own: true });
    expect(done).toMatchObject({ complete: true, recorded: 0 });
    await expectOneEntryEach(workspaceId, imported);
  }, 120_000);

  it("two processes never both record a workspace ahead: the other's calls record the first marks while the holder records the last, each blog once", async () => {
    const imported = 4 * MAX_RECORDED_PER_CALL + 50;
    const held = gate();
    const a = storesHeldAtSecondBatch(held);
    const b = createStores(t.db);
    const { _id: workspaceId } = await a.workspaces.create("one recording ahead");
    await importMarked(workspaceId, imported);
    const c = collections(t.db);
    const lease = () => c.markers.findOne({ _id: `record-ahead/${workspaceId}` });

    // A records a batch and goes on ahead, holding the lease; its first batch ahead (the last
    // marks by ID) is held before its clears.
    expect(await a.feedRecorder.record(workspaceId)).toMatchObject({
      complete: false,
      recorded: MAX_RECORDED_PER_CALL,
    });
    await held.held;
    expect((await lease())?.value).toBeDefined();
    // B's calls leave marks too, and cannot take the lease: each records a batch of its own (a
    // recording ahead of B's would be joined instead, recording 0), from the first marks.
    for (let call = 0; call < 2; call++) {
      expect(await b.feedRecorder.record(workspaceId)).toMatchObject({
        complete: false,
        recorded: MAX_RECORDED_PER_CALL,
      });
    }
    held.open();
    const pending = () => c.blogs.countDocuments({ workspaceId, feedPending: true });
    await eventually(async () => (await pending()) === 0 && (await lease()) === null);
    expect(await pending()).toBe(0);
    expect(await lease()).toBeNull(); // given back
    await expectOneEntryEach(workspaceId, imported);
  }, 120_000);

  it(`a process records at most ${MAX_WORKSPACES_AHEAD} workspaces ahead at once; another workspace's calls record as before`, async () => {
    const held = gate();
    const appended = new Map<string, number>();
    const workspaceOf = new Map<string, string>();
    const workspaces: string[] = [];
    // Holds the recordings ahead of the first workspaces: their appends after their first
    // call's batch (the last workspace's blogs are never held).
    const s = createStores(t.db, {
      afterFeedAppend: async (blogId) => {
        const workspaceId = workspaceOf.get(blogId) ?? "";
        const n = (appended.get(workspaceId) ?? 0) + 1;
        appended.set(workspaceId, n);
        const first = workspaces.indexOf(workspaceId) < MAX_WORKSPACES_AHEAD;
        if (first && n > MAX_RECORDED_PER_CALL) await held.opened;
      },
    });
    const c = collections(t.db);
    for (let w = 0; w <= MAX_WORKSPACES_AHEAD; w++) {
      const { _id: workspaceId } = await s.workspaces.create(`cap ${w}`);
      workspaces.push(workspaceId);
      for (const id of await importMarked(workspaceId, 3 * MAX_RECORDED_PER_CALL)) {
        workspaceOf.set(id, workspaceId);
      }
    }
    const last = workspaces.at(-1) ?? "";
    for (const workspaceId of workspaces.slice(0, -1)) {
      expect((await s.feedRecorder.record(workspaceId)).recorded).toBe(MAX_RECORDED_PER_CALL);
    }
    // Both recordings ahead are held: the last workspace gets none, so each of its calls records
    // a batch of its own (joining a recording ahead would record 0).
    for (let call = 0; call < 2; call++) {
      expect((await s.feedRecorder.record(last)).recorded).toBe(MAX_RECORDED_PER_CALL);
    }
    held.open();
    const pending = () =>
      c.blogs.countDocuments({ workspaceId: { $in: workspaces }, feedPending: true });
    await eventually(async () => (await pending()) === MAX_RECORDED_PER_CALL);
    // The first two are recorded ahead to the end; the last keeps what its calls left.
    expect(await pending()).toBe(MAX_RECORDED_PER_CALL);
    expect(await c.blogs.countDocuments({ workspaceId: last, feedPending: true })).toBe(
      MAX_RECORDED_PER_CALL,
    );
  }, 120_000);

  it("a sync begun while an import waits to be recorded ends equal to the released set, sending each blog once", async () => {
    const s = createStores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("sync while ahead");
    const n = 4 * MAX_RECORDED_PER_CALL + 30;
    const ids = await importMarked(workspaceId, n);
    const sent = new Map<string, number>();
    const tokens = new Set<string>();
    let page = await s.changes.page(workspaceId, undefined, 100);
    for (let calls = 0; ; calls++) {
      for (const change of page.changes) {
        if (change.type === "upsert") {
          sent.set(change.blog._id, (sent.get(change.blog._id) ?? 0) + 1);
        }
      }
      if (!page.hasMore) break;
      expect(tokens.has(page.nextToken)).toBe(false);
      tokens.add(page.nextToken);
      if (calls > 300) throw new Error("the feed still had more after 300 pages");
      page = await s.changes.page(workspaceId, page.nextToken, 100);
    }
    expect([...sent.keys()].sort()).toEqual(ids.sort());
    expect([...sent.values()].filter((times) => times > 1)).toEqual([]);
  }, 120_000);
});

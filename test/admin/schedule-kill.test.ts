// Schedules across instances that die (admin.yaml, "Schedules"; README, "Staged changes"): two
// `pressroom start` processes on one database, hundreds of releases due at one instant, and one
// process killed with SIGKILL in the middle of its due run. Every blog is still released, and
// released exactly once: one release in its state, one webhook event (`eventSeq`, pushed in the
// same update as the release), one changes-feed mark's worth. The audit entry and the history
// revision are inserted after that update, so a kill between the two can lose them — never
// double them: at most one each, and the test reports how many a kill cost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { onFileEnd } from "../support/cleanup.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { waitFor } from "../support/webhook-receiver.js";

const BLOGS = 240;

let t: TestDb;
const running: ServerProcess[] = [];

beforeAll(async () => {
  t = await useTestDb();
});
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

async function instance(): Promise<ServerProcess> {
  const p = await startServerProcess({
    MONGODB_URI: t.uri,
    MONGODB_DB: t.name,
    LOG_FORMAT: "json",
    RENDER_THREADS: "1",
  });
  running.push(p);
  onFileEnd(() => {
    if (p.child.exitCode === null) p.child.kill("SIGKILL");
  });
  return p;
}

describe("two instances, one killed with SIGKILL during a due run", () => {
  it(`${BLOGS} releases due at one instant are each done exactly once`, async () => {
    const s = stores(t.db);
    const { _id: workspaceId } = await s.workspaces.create("kill -9");
    const ids: string[] = [];
    for (let i = 0; i < BLOGS; i++) {
      ids.push((await s.blogs.create(workspaceId, { title: `Due ${i}`, bodyMarkdown: "x" }))._id);
    }
    const [a, b] = await Promise.all([instance(), instance()]);
    // One instant for all, far enough ahead for 240 schedules on a loaded machine.
    const at = new Date(Date.now() + 8000);
    for (let i = 0; i < ids.length; i += 20) {
      await Promise.all(
        ids.slice(i, i + 20).map((id) => s.blogs.schedule(workspaceId, id, { publishAt: at })),
      );
    }
    expect(Date.now()).toBeLessThan(at.getTime());

    const blogs = collections(t.db).blogs;
    const releasedCount = () => blogs.countDocuments({ workspaceId, status: "released" });
    // The due run is under way (both instances poll every 5 s and take blogs by compare-and-set):
    // kill one of them in the middle of it.
    await waitFor(
      "the due run under way",
      async () => (await releasedCount()) >= BLOGS / 4,
      30_000,
    );
    a.child.kill("SIGKILL");
    await a.exit;
    const atKill = await releasedCount();
    expect(atKill).toBeLessThan(BLOGS);
    await waitFor("every blog released", async () => (await releasedCount()) === BLOGS, 30_000);
    // The survivor polls again: nothing is done twice.
    await new Promise((resolve) => setTimeout(resolve, 5500));

    const docs = await blogs.find({ workspaceId }).toArray();
    for (const doc of docs) {
      expect([doc._id, doc.status, doc.eventSeq, doc.schedule]).toEqual([
        doc._id,
        "released",
        1,
        undefined,
      ]);
    }
    const audit = await collections(t.db)
      .audit.aggregate<{ _id: string; n: number }>([
        { $match: { workspaceId, action: "blog.released" } },
        { $group: { _id: "$details.blogId", n: { $sum: 1 } } },
      ])
      .toArray();
    const revisions = await collections(t.db)
      .blogRevisions.aggregate<{ _id: string; n: number }>([
        { $match: { workspaceId, action: "released" } },
        { $group: { _id: "$blogId", n: { $sum: 1 } } },
      ])
      .toArray();
    expect(audit.every((g) => g.n === 1)).toBe(true);
    expect(revisions.every((g) => g.n === 1)).toBe(true);
    console.log(
      `kill -9 during a due run: ${atKill}/${BLOGS} released when killed; all ${BLOGS} released once; ` +
        `audit entries ${audit.length}/${BLOGS}, revisions ${revisions.length}/${BLOGS} ` +
        "(a kill between a release and its records loses those, never doubles them)",
    );
    // The killed instance had at most 4 releases in flight (blog-scheduler.ts, CONCURRENCY).
    expect(audit.length).toBeGreaterThanOrEqual(BLOGS - 4);
    expect(revisions.length).toBeGreaterThanOrEqual(BLOGS - 4);
    await b.child.kill("SIGTERM");
    await b.exit;
  }, 120_000);
});

// Creating a blog (admin.yaml, createBlog; README, "History"): the rules of a create hold while
// its writer waits for as few database round trips as they allow — a new blog's one revision is
// within any bound (BLOG_REVISIONS_KEPT is at least 1), so nothing is counted or pruned; whether
// the workspace exists is read while the body renders, and still decides before anything is
// stored.
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER, versionOf } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;

beforeAll(async () => {
  t = await useTestDb();
  // The smallest bound: one revision per blog.
  server = await startTestServer(t.db, { BLOG_REVISIONS_KEPT: "1" });
  owner = new AdminClient(server.url);
  ws =
    (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]?.id ??
    "";
});

/** The commands on `blogRevisions` that `act` sent. */
async function historyCommands(act: () => Promise<unknown>): Promise<string[]> {
  const from = t.commands.length;
  await act();
  return t.commands
    .slice(from)
    .filter((c) => c.collection === "blogRevisions")
    .map((c) => c.name);
}

describe("a new blog's history", () => {
  it("is its one revision, kept under the smallest bound: the create counts and prunes none", async () => {
    let blog = { id: "", version: "" };
    const onCreate = await historyCommands(async () => {
      const res = await owner.post<{ id: string; version: string }>(`/workspaces/${ws}/blogs`, {
        title: "First",
        bodyMarkdown: "Words.",
      });
      expect(res.status).toBe(201);
      blog = res.body;
    });
    expect(onCreate).toEqual(["insert"]);
    const stored = () => t.db.collection("blogRevisions").countDocuments({ blogId: blog.id });
    expect(await stored()).toBe(1);

    // The next revision is over the bound: that write counts and prunes, as every later one does.
    const onEdit = await historyCommands(async () => {
      const res = await owner.patch(
        `/workspaces/${ws}/blogs/${blog.id}`,
        { bodyMarkdown: "Other words." },
        versionOf(blog),
      );
      expect(res.status).toBe(200);
    });
    expect(onEdit).toEqual(["insert", "aggregate", "find", "delete"]);
    expect(await stored()).toBe(1);
  });
});

describe("a create in a workspace that does not exist", () => {
  it("is refused as not found and stores nothing", async () => {
    const s = stores(t.db);
    await expect(
      s.blogs.create("ws_doesNotExist00", { title: "Lost", bodyMarkdown: "**Rendered.**" }),
    ).rejects.toMatchObject({ code: "not_found", message: "Workspace not found." });
    expect(
      await t.db.collection("blogs").countDocuments({ workspaceId: "ws_doesNotExist00" }),
    ).toBe(0);
    expect(
      await t.db.collection("blogRevisions").countDocuments({ workspaceId: "ws_doesNotExist00" }),
    ).toBe(0);
  });

  it("hears of an unknown author first, as when the checks ran one after the other", async () => {
    const s = stores(t.db);
    await expect(
      s.blogs.create("ws_doesNotExist00", {
        title: "Lost",
        bodyMarkdown: "x",
        authorIds: ["au_nobody000000000"],
      }),
    ).rejects.toMatchObject({ code: "invalid" });
    expect(
      await t.db.collection("blogs").countDocuments({ workspaceId: "ws_doesNotExist00" }),
    ).toBe(0);
  });
});

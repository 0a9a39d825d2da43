// A workspace's name follows one rule wherever it is set — created by the dashboard, by first-run
// setup or by the operator's CLI, or renamed: trimmed, 1 to 100 characters (admin.yaml,
// `WorkspaceInput`: "Trimmed; must not be blank"). The API's validator refuses such names before
// the store sees them; the store's rule (server/src/workspaces/workspace-rules.ts) is what holds
// for every other caller.
import { beforeAll, describe, expect, it } from "vitest";
import { createStores, type Stores } from "../../server/src/stores.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
let s: Stores;

beforeAll(async () => {
  t = await useTestDb();
  s = createStores(t.db);
});

const INVALID = { code: "invalid", message: "A workspace needs a name of 1 to 100 characters." };

describe("workspace names: one rule for create and rename", () => {
  it("a blank name is refused on create and on rename alike", async () => {
    await expect(s.workspaces.create("   ")).rejects.toMatchObject(INVALID);
    const ws = await s.workspaces.create("Newsroom");
    await expect(s.workspaces.rename(ws._id, " \t ")).rejects.toMatchObject(INVALID);
    expect((await s.workspaces.list()).find((w) => w._id === ws._id)?.name).toBe("Newsroom");
  });

  it("a name over 100 characters is refused on create and on rename alike", async () => {
    const long = "x".repeat(101);
    await expect(s.workspaces.create(long)).rejects.toMatchObject(INVALID);
    const ws = await s.workspaces.create("x".repeat(100));
    await expect(s.workspaces.rename(ws._id, long)).rejects.toMatchObject(INVALID);
  });

  it("a name is stored trimmed, on create and on rename", async () => {
    const ws = await s.workspaces.create("  Spaced out  ");
    expect(ws.name).toBe("Spaced out");
    expect((await s.workspaces.rename(ws._id, "  Renamed  ")).name).toBe("Renamed");
  });

  it("renaming a workspace that does not exist is 'not found'", async () => {
    await expect(s.workspaces.rename("ws_doesnotexist", "Name")).rejects.toMatchObject({
      code: "not_found",
      message: "Workspace not found.",
    });
  });
});

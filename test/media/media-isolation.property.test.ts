// A library image belongs to its workspace alone (admin.yaml, "Media": "another workspace's
// image, or one deleted, is 404"): whatever images two workspaces upload, including the same
// bytes to both, no image ID of one is ever read, changed, deleted or listed through the other's
// admin paths, and each workspace's list is exactly its own images. The same bytes in two
// workspaces are two images.
import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Media = components["schemas"]["Media"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
const spaces: string[] = [];

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  const first = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body
    .workspaces[0]?.id as string;
  spaces.push(first, (await owner.post<{ id: string }>("/workspaces", { name: "Other" })).body.id);
});

const png = (shade: number) =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: { r: shade, g: 0, b: 0 } } })
    .png()
    .toBuffer();

async function upload(ws: string, bytes: Buffer): Promise<Media> {
  const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/media?name=p.png`, {
    method: "POST",
    headers: { "content-type": "image/png", cookie: owner.cookie ?? "", origin: server.url },
    body: new Uint8Array(bytes),
  });
  expect([200, 201]).toContain(res.status);
  return (await res.json()) as Media;
}

async function listed(ws: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${cursor}`;
    const page = await owner.get<{ data: Media[]; nextCursor: string | null }>(
      `/workspaces/${ws}/media?limit=100${query}`,
    );
    ids.push(...page.body.data.map((m) => m.id));
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return ids.sort();
}

describe("a media ID of one workspace never serves through another's admin API", () => {
  it("uploads to either workspace, then every cross-workspace read, change and delete is 404", async () => {
    const mine = new Map<string, Set<string>>(spaces.map((ws) => [ws, new Set()]));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ to: fc.constantFrom(0, 1), shade: fc.integer({ min: 0, max: 7 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (uploads) => {
          for (const { to, shade } of uploads) {
            const ws = spaces[to] as string;
            const image = await upload(ws, await png(shade));
            mine.get(ws)?.add(image.id);
          }
          for (const [index, ws] of spaces.entries()) {
            const other = spaces[1 - index] as string;
            expect(await listed(ws)).toEqual([...(mine.get(ws) ?? [])].sort());
            for (const id of mine.get(other) ?? []) {
              const path = `/workspaces/${ws}/media/${id}`;
              expect((await owner.get(path)).status).toBe(404);
              expect((await owner.patch(path, { alt: "taken over" })).status).toBe(404);
              expect((await owner.delete(path)).status).toBe(404);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
    // Nothing the other workspace's paths tried changed an image.
    const alts = await t.db.collection("media").distinct("alt");
    expect(alts).toEqual([""]);
  });
});

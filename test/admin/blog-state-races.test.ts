// State changes fired in parallel never break the blog state machine (admin.yaml, AdminBlog.status):
// draft ⇄ released; draft or released → removed, which is final (every later write: 404). Fired
// at one server process, and at `pressroom start --workers 2` on the same database, where the
// racing requests reach two processes (README, "Workers").
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startWorkersServer } from "../support/workers-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type MintedKey = components["schemas"]["MintedKey"];

let t: TestDb;
let server: TestServer;
let admin: AdminClient;
let ws: string;
let key: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  key = (await admin.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "races" })).body.secret;
});

type Op = "release" | "unrelease" | "remove" | "update";
const OPS: readonly Op[] = ["release", "unrelease", "remove", "update"];

/** Where the requests go: this file's server, or two workers on its database. */
const TARGETS = [
  { name: "one server process", start: async () => ({ url: server.url, admin }) },
  {
    name: 'two workers on one database (README, "Workers")',
    start: async () => {
      const workers = await startWorkersServer("2", { MONGODB_URI: t.uri, MONGODB_DB: t.name });
      const client = new AdminClient(workers.url);
      client.cookie = admin.cookie;
      return { url: workers.url, admin: client };
    },
  },
];
let target: { url: string; admin: AdminClient };
let propertyBlogs = 0;

/** One write, applying to whichever version is current (`If-Match: *`): racers, not stale editors. */
const fire = (blogId: string, op: Op, i: number) => {
  const admin = target.admin;
  const path = `/workspaces/${ws}/blogs/${blogId}`;
  switch (op) {
    case "release":
      return admin.post<AdminBlog>(`${path}/release`, undefined, ANY_VERSION);
    case "unrelease":
      return admin.post<AdminBlog>(`${path}/unrelease`, undefined, ANY_VERSION);
    case "remove":
      return admin.delete(path, ANY_VERSION);
    case "update":
      return admin.patch<AdminBlog>(path, { title: `Edit ${i}` }, ANY_VERSION);
  }
};

const storedStatus = async (blogId: string) =>
  (await t.db.collection("blogs").findOne({ _id: blogId as never }))?.status as string | undefined;

describe.each(TARGETS)("blog state under concurrent writes, $name", ({ start }) => {
  beforeAll(async () => {
    target = await start();
  });

  it("a removal racing releases is final: the blog stays removed and invisible to consumers", async () => {
    for (let round = 0; round < 12; round++) {
      const created = await target.admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
        title: `Race ${round}`,
      });
      const id = created.body.id;
      const results = await Promise.all([
        fire(id, "release", 0),
        fire(id, "release", 1),
        fire(id, "remove", 2),
        fire(id, "release", 3),
        fire(id, "release", 4),
      ]);
      expect(results[2]?.status).toBe(204);
      expect(await storedStatus(id)).toBe("removed");
      const consumer = await get(`${target.url}/api/consumer/blogs/${id}`, { "x-api-key": key });
      expect(consumer.status).toBe(404);
    }
  }, 60_000);

  it("any mix of release, unrelease, remove and edit fired at once ends in a state the machine allows", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<"draft" | "released">("draft", "released"),
        fc.array(fc.constantFrom(...OPS), { minLength: 2, maxLength: 6 }),
        async (start, ops) => {
          const created = await target.admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
            // A title of its own: slugs are unique per workspace, and both targets share one.
            title: `Property ${++propertyBlogs}`,
          });
          const id = created.body.id;
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          if (start === "released") await fire(id, "release", -1);
          const results = await Promise.all(ops.map((op, i) => fire(id, op, i)));
          const final = await storedStatus(id);

          // Every answer is one the spec allows for that operation; never a 500.
          results.forEach((res, i) => {
            const op = ops[i];
            if (op === "remove") expect([204, 404]).toContain(res.status);
            else expect([200, 404, 409]).toContain(res.status);
          });
          const removals = results.filter((res, i) => ops[i] === "remove" && res.status === 204);
          // Exactly one removal succeeds when any is asked for; it is final, whatever raced it.
          expect(removals.length).toBe(ops.includes("remove") ? 1 : 0);
          if (ops.includes("remove")) {
            expect(final).toBe("removed");
            for (const op of OPS) expect([404]).toContain((await fire(id, op, 99)).status);
          } else {
            expect(["draft", "released"]).toContain(final);
            // A successful answer reports the state it wrote, not one that was overwritten first.
            results.forEach((res, i) => {
              if (res.status !== 200) return;
              const status = (res.body as AdminBlog).status;
              if (ops[i] === "release") expect(status).toBe("released");
              if (ops[i] === "unrelease") expect(status).toBe("draft");
            });
          }
          // Consumers see the blog exactly when it is stored as released.
          const consumer = await get(`${target.url}/api/consumer/blogs/${id}`, {
            "x-api-key": key,
          });
          expect(consumer.status).toBe(final === "released" ? 200 : 404);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

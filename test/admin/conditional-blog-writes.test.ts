// Conditional writes of a blog (admin.yaml, "Conditional writes", `IfMatch`, `StaleVersion`,
// `PreconditionRequired`): every read and write of a blog names its version (`version`, and in
// quotes the `ETag`); every write must send one back in `If-Match` (428 otherwise), applies to
// that version only, and otherwise changes nothing and answers 412 with the blog as it is now.
// Run at one server process and at `pressroom start --workers 2` on the same database, where
// racing writers reach two processes.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, type AdminResponse, OWNER } from "../support/admin-client.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { startWorkersServer } from "../support/workers-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type StaleBlog = components["schemas"]["StaleBlog"];
type AdminBlogList = { data: AdminBlog[]; nextCursor: string | null };

let t: TestDb;
let server: TestServer;
let admin: AdminClient;
let ws: string;
let titles = 0;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  admin = new AdminClient(server.url);
  ws = (await admin.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
});

const blogPath = (id: string) => `/workspaces/${ws}/blogs/${id}`;
const ifMatch = (value: string) => ({ "if-match": value });
const tagOf = (blog: AdminBlog) => `"${blog.version}"`;

type Write = "edit" | "release" | "unrelease" | "remove";

/** One write of the blog, on the version `condition` names (default: any; null: no If-Match). */
function write(
  client: AdminClient,
  id: string,
  op: Write,
  condition: string | null = "*",
): Promise<AdminResponse<AdminBlog | StaleBlog>> {
  const headers = condition === null ? {} : ifMatch(condition);
  switch (op) {
    case "edit":
      return client.call("PATCH", blogPath(id), { title: `Edit ${++titles}` }, headers);
    case "release":
      return client.call("POST", `${blogPath(id)}/release`, undefined, headers);
    case "unrelease":
      return client.call("POST", `${blogPath(id)}/unrelease`, undefined, headers);
    case "remove":
      return client.call("DELETE", blogPath(id), undefined, headers);
  }
}

/** A new blog, released when `released`; returns it as last written. */
async function newBlog(released = false): Promise<AdminBlog> {
  const created = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title: `Conditional ${++titles}`,
    bodyMarkdown: "The first words.",
  });
  expect(created.status).toBe(201);
  if (!released) return created.body;
  const done = await admin.post<AdminBlog>(`${blogPath(created.body.id)}/release`, undefined, {
    "if-match": tagOf(created.body),
  });
  expect(done.status).toBe(200);
  return done.body;
}

const stored = async (id: string) => (await admin.get<AdminBlog>(blogPath(id))).body;

describe("a blog's version", () => {
  it("every read and write of a blog names its version, in the body and as the ETag, new on every write", async () => {
    const created = await admin.post<AdminBlog>(`/workspaces/${ws}/blogs`, { title: "Versions" });
    expect(created.status).toBe(201);
    expect(created.body.version).toMatch(/^[A-Za-z0-9]+$/);
    expect(created.headers.get("etag")).toBe(tagOf(created.body));
    const id = created.body.id;

    const read = await admin.get<AdminBlog>(blogPath(id));
    expect([read.body.version, read.headers.get("etag")]).toEqual([
      created.body.version,
      tagOf(created.body),
    ]);
    const listed = await admin.get<AdminBlogList>(`/workspaces/${ws}/blogs`);
    expect(listed.body.data.find((blog) => blog.id === id)?.version).toBe(created.body.version);

    const seen = new Set([created.body.version]);
    for (const op of ["edit", "release", "edit", "unrelease"] as const) {
      const res = await write(admin, id, op);
      expect(res.status, op).toBe(200);
      const blog = res.body as AdminBlog;
      expect(res.headers.get("etag"), op).toBe(tagOf(blog));
      expect(seen.has(blog.version), `${op} made a new version`).toBe(false);
      seen.add(blog.version);
      expect((await stored(id)).version).toBe(blog.version);
    }
  });

  it("a blog stored before revisions existed is named by its time, and a conditional write on it works", async () => {
    const blog = await newBlog();
    await t.db
      .collection("blogs")
      .updateOne({ _id: blog.id as never }, { $unset: { revision: "" } });
    const old = await stored(blog.id);
    expect(old.version).toBe(`t${Date.parse(old.updatedAt)}`);
    const edited = await write(admin, blog.id, "edit", tagOf(old));
    expect(edited.status).toBe(200);
    expect((edited.body as AdminBlog).version).toMatch(/^[A-Za-z0-9]{12}$/);
  });
});

describe("a write that names a version", () => {
  const ops: readonly { op: Write; released: boolean; ok: number }[] = [
    { op: "edit", released: false, ok: 200 },
    { op: "release", released: false, ok: 200 },
    { op: "unrelease", released: true, ok: 200 },
    { op: "remove", released: true, ok: 204 },
  ];

  it.each(ops)(
    "$op with a stale version changes nothing and answers 412 with the blog as it is now; with the current one it applies",
    async ({ op, released, ok }) => {
      const mine = await newBlog(released);
      // Someone else edits it after this writer read it.
      const theirs = (await write(admin, mine.id, "edit", tagOf(mine))).body as AdminBlog;
      expect(theirs.version).not.toBe(mine.version);

      const refused = await write(admin, mine.id, op, tagOf(mine));
      expect(refused.status).toBe(412);
      const body = refused.body as StaleBlog;
      expect(body.message).toMatch(/changed this blog since you opened it/);
      expect(body.current).toEqual(theirs);
      expect(refused.headers.get("etag")).toBe(tagOf(theirs));
      expect(await stored(mine.id)).toEqual(theirs);

      const applied = await write(admin, mine.id, op, tagOf(theirs));
      expect(applied.status).toBe(ok);
    },
  );

  it("If-Match is read as RFC 9110 says: `*` is any version, a list matches any of its tags, a weak or malformed tag never matches", async () => {
    const blog = await newBlog();
    const current = async () => tagOf(await stored(blog.id));
    expect((await write(admin, blog.id, "edit", "*")).status).toBe(200);
    expect((await write(admin, blog.id, "edit", `"nope", ${await current()}`)).status).toBe(200);
    expect((await write(admin, blog.id, "edit", `${await current()} ,"nope"`)).status).toBe(200);
    const version = (await stored(blog.id)).version;
    for (const bad of [`W/"${version}"`, version, `"${version}`, `"nope"`, `"${version} "`]) {
      const res = await write(admin, blog.id, "edit", bad);
      expect([bad, res.status]).toEqual([bad, 412]);
    }
    expect((await stored(blog.id)).version).toBe(version);
  });

  it("bad input is a 400 whatever version it names, and changes nothing", async () => {
    const blog = await newBlog();
    await write(admin, blog.id, "edit");
    const now = await stored(blog.id);
    // A host the URL parser refuses, though the spec's pattern admits it (found by schemathesis).
    for (const condition of [tagOf(blog), tagOf(now)]) {
      const res = await admin.call(
        "PATCH",
        blogPath(blog.id),
        { coverImageUrl: "https://\u{F0D30}\u{26519}" },
        ifMatch(condition),
      );
      expect([condition, res.status]).toEqual([condition, 400]);
    }
    expect(await stored(blog.id)).toEqual(now);
  });

  it.each(["edit", "release", "unrelease", "remove"] as const)(
    "%s without If-Match is refused with 428 and changes nothing, but only once the writer is known to be a member",
    async (op) => {
      const blog = await newBlog(op === "unrelease" || op === "remove");
      const refused = await write(admin, blog.id, op, null);
      expect(refused.status).toBe(428);
      expect(refused.body).toEqual({
        message:
          "This write needs If-Match: the ETag of the version it was made on (or * for whichever is current).",
      });
      expect(await stored(blog.id)).toEqual(blog);
      // A stranger learns nothing from it: no session is a 401, another workspace a 404.
      const stranger = new AdminClient(server.url);
      expect((await write(stranger, blog.id, op, null)).status).toBe(401);
      const path = `/workspaces/ws_none/blogs/${blog.id}`;
      const elsewhere = await (op === "edit"
        ? admin.call("PATCH", path, { title: "Elsewhere" })
        : op === "remove"
          ? admin.call("DELETE", path)
          : admin.call("POST", `${path}/${op}`));
      expect(elsewhere.status).toBe(404);
    },
  );

  it("a removed blog answers 404 to any write, whatever version it names", async () => {
    const blog = await newBlog();
    expect((await write(admin, blog.id, "remove", tagOf(blog))).status).toBe(204);
    for (const op of ["edit", "release", "unrelease", "remove"] as const) {
      expect((await write(admin, blog.id, op, tagOf(blog))).status, op).toBe(404);
    }
  });

  it("a release of a version that is no longer current is refused even when the blog is released already", async () => {
    const draft = await newBlog();
    const released = (await write(admin, draft.id, "release")).body as AdminBlog;
    const res = await write(admin, draft.id, "release", tagOf(draft));
    expect(res.status).toBe(412);
    expect((res.body as StaleBlog).current).toEqual(released);
  });
});

/** Where racing writers go: this file's server, or two workers on its database. */
const TARGETS = [
  { name: "one server process", start: async () => admin },
  {
    name: 'two workers on one database (README, "Workers")',
    start: async () => {
      const workers = await startWorkersServer("2", { MONGODB_URI: t.uri, MONGODB_DB: t.name });
      const client = new AdminClient(workers.url);
      client.cookie = admin.cookie;
      return client;
    },
  },
];

describe.each(TARGETS)("writers racing on one version, $name", ({ start }) => {
  let client: AdminClient;
  beforeAll(async () => {
    client = await start();
  }, 60_000);

  it("exactly one write of a version wins; every other gets 412 naming the winner's version, and nothing is lost silently", async () => {
    for (let round = 0; round < 6; round++) {
      const blog = await newBlog(round % 2 === 1);
      const ops: Write[] = [
        "edit",
        "edit",
        "edit",
        "edit",
        round % 2 === 1 ? "unrelease" : "release",
      ];
      const results = await Promise.all(ops.map((op) => write(client, blog.id, op, tagOf(blog))));
      const winners = results.filter((res) => res.status === 200);
      expect(
        results.map((res) => res.status).sort(),
        JSON.stringify(results.map((r) => r.body)),
      ).toEqual([200, 412, 412, 412, 412]);
      const winner = winners[0]?.body as AdminBlog;
      for (const res of results) {
        if (res.status === 412) expect((res.body as StaleBlog).current).toEqual(winner);
      }
      expect(await stored(blog.id)).toEqual(winner);
    }
  }, 60_000);
});

// A workspace's authors in the admin API (admin.yaml, tag Authors: listAuthors, createAuthor,
// updateAuthor, removeAuthor): the spec's shapes, slugs made from names and unique in the
// workspace, plain-text bios, public URLs only, the cap of 200, any member may manage them,
// another workspace's authors do not exist, and each change is an audit entry naming the author.
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import type { AuthorDoc } from "../../server/src/platform/db/collections.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { stores } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Author = components["schemas"]["Author"];
type AuditEntry = components["schemas"]["AuditEntry"];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let member: AdminClient;
let ws: string;
let otherWs: string;

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
  otherWs = (await owner.post<{ id: string }>("/workspaces", { name: "Elsewhere" })).body.id;
  await stores(t.db).users.create({
    email: "mia@example.com",
    name: "Mia Member",
    password: "mia's long password",
  });
  await owner.post(`/workspaces/${ws}/members`, { email: "mia@example.com" });
  member = new AdminClient(server.url);
  await member.post("/session", { email: "mia@example.com", password: "mia's long password" });
});

const base = (workspace = ws) => `/workspaces/${workspace}/authors`;
const create = (body: Record<string, unknown>, client = owner, workspace = ws) =>
  client.post<Author & { message?: string }>(base(workspace), body);
const list = async (workspace = ws) =>
  (await owner.get<{ data: Author[] }>(base(workspace))).body.data;
const auditOf = async (authorId: string) =>
  (await owner.get<{ data: AuditEntry[] }>(`/workspaces/${ws}/audit`)).body.data.filter(
    (e) => e.details.authorId === authorId,
  );

describe("authors (admin.yaml, createAuthor, listAuthors)", () => {
  it("an author is added with the spec's shape and a slug made from the name", async () => {
    const res = await create({
      name: "  Ada Lovelace ",
      bio: "Writes about engines.\r\nAnd numbers.",
      avatarUrl: "HTTPS://Example.com/ada.png",
      websiteUrl: "https://example.com/ada",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      id: expect.stringMatching(/^au_[A-Za-z0-9]+$/),
      name: "Ada Lovelace",
      slug: "ada-lovelace",
      bio: "Writes about engines.\nAnd numbers.",
      avatarUrl: "https://example.com/ada.png",
      websiteUrl: "https://example.com/ada",
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    });
    const entries = await auditOf(res.body.id);
    expect(entries.map((e) => [e.action, e.details.authorName])).toEqual([
      ["author.created", "Ada Lovelace"],
    ]);
  });

  it("a name's slug that is taken gets -2; a slug chosen that is taken is 409", async () => {
    const second = await create({ name: "Ada Lovelace" });
    expect(second.status).toBe(201);
    expect(second.body.slug).toBe("ada-lovelace-2");
    const chosen = await create({ name: "Someone Else", slug: "ada-lovelace" });
    expect(chosen.status).toBe(409);
    expect(chosen.body).toEqual({
      message: 'Slug "ada-lovelace" is already used by another author of this workspace.',
    });
  });

  it("a long name's slug (80 characters) taken gets -2 beyond 80, and the answer says so", async () => {
    const fresh = (await owner.post<{ id: string }>("/workspaces", { name: "Long" })).body.id;
    const name = "0".repeat(100);
    expect((await create({ name }, owner, fresh)).body.slug).toBe("0".repeat(80));
    const second = await create({ name }, owner, fresh);
    expect(second.status).toBe(201);
    expect(second.body.slug).toBe(`${"0".repeat(80)}-2`);
  });

  it("a 1,000-character website outside ASCII is stored percent-encoded, longer, and answered", async () => {
    const url = `https://example.com/${"é".repeat(980)}`;
    const fresh = (await owner.post<{ id: string }>("/workspaces", { name: "Site" })).body.id;
    const res = await create({ name: "Long Site", websiteUrl: url }, owner, fresh);
    expect(res.status).toBe(201);
    expect(res.body.websiteUrl?.length).toBeGreaterThan(5000);
    expect((await list(fresh)).some((a) => a.id === res.body.id)).toBe(true);
  });

  it("a name with no Latin letter or digit gets the slug author; accents are folded", async () => {
    expect((await create({ name: "李白" })).body.slug).toBe("author");
    expect((await create({ name: "Émile Zola" })).body.slug).toBe("emile-zola");
  });

  it("the list is in name order, case and accents ignored, then by slug", async () => {
    await create({ name: "zoe" });
    await create({ name: "Bob" });
    const names = (await list()).map((a) => `${a.name}/${a.slug}`);
    expect(names).toEqual([
      "Ada Lovelace/ada-lovelace",
      "Ada Lovelace/ada-lovelace-2",
      "Bob/bob",
      "Émile Zola/emile-zola",
      "zoe/zoe",
      "李白/author",
    ]);
  });

  it("any member, not only the owner, adds authors", async () => {
    const res = await create({ name: "By Mia" }, member);
    expect(res.status).toBe(201);
    expect((await auditOf(res.body.id))[0]?.actor?.name).toBe("Mia Member");
  });

  it("another workspace's authors are its own: its slugs are free here, its authors not listed", async () => {
    const there = await create({ name: "Ada Lovelace" }, owner, otherWs);
    expect(there.body.slug).toBe("ada-lovelace");
    expect((await list()).some((a) => a.id === there.body.id)).toBe(false);
    const patch = await owner.patch(`${base()}/${there.body.id}`, { name: "Stolen" });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ message: "Author not found." });
    expect((await owner.delete(`${base()}/${there.body.id}`)).status).toBe(404);
    expect((await list(otherWs)).map((a) => a.name)).toEqual(["Ada Lovelace"]);
  });
});

describe("bad input (admin.yaml, AuthorInput): a 400 naming the rule, nothing stored", () => {
  it.each([
    ["a blank name", { name: "   " }],
    ["a name with a control character", { name: "Ada\u0007" }],
    ["a name of 101 characters", { name: "a".repeat(101) }],
    ["a slug outside the rule", { name: "Ada", slug: "Ada Lovelace" }],
    ["a bio with a tab", { name: "Ada", bio: "a\tb" }],
    ["a bio with a bidi override", { name: "Ada", bio: "a\u202eb" }],
    ["a bio of 501 characters", { name: "Ada", bio: "a".repeat(501) }],
    [
      "a website of 1,001 characters",
      { name: "Ada", websiteUrl: `https://example.com/${"a".repeat(981)}` },
    ],
    ["an avatar that is not http(s)", { name: "Ada", avatarUrl: "javascript:alert(1)" }],
    ["a website with a password", { name: "Ada", websiteUrl: "https://u:p@example.com/" }],
    ["an unknown field", { name: "Ada", email: "ada@example.com" }],
  ])("%s", async (_, body) => {
    const before = (await list()).length;
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe("string");
    expect((await list()).length).toBe(before);
  });
});

describe("changes (admin.yaml, updateAuthor, removeAuthor)", () => {
  it("a change keeps the fields not given, clears with null or an empty string, and is audited", async () => {
    const { body: grace } = await create({
      name: "Grace Hopper",
      bio: "Compilers.",
      websiteUrl: "https://example.com/grace",
    });
    const res = await owner.patch<Author>(`${base()}/${grace.id}`, {
      name: "Rear Admiral Grace Hopper",
      bio: "",
      websiteUrl: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Rear Admiral Grace Hopper",
      slug: "grace-hopper",
      bio: null,
      websiteUrl: null,
      avatarUrl: null,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(grace.updatedAt));
    expect((await auditOf(grace.id)).map((e) => [e.action, e.details.authorName])).toEqual([
      ["author.updated", "Rear Admiral Grace Hopper"],
      ["author.created", "Grace Hopper"],
    ]);
  });

  it("a change to the same values changes nothing and writes no audit entry", async () => {
    const { body: alan } = await create({ name: "Alan Turing", bio: "Machines." });
    const res = await owner.patch<Author>(`${base()}/${alan.id}`, {
      name: " Alan Turing ",
      bio: "Machines.",
    });
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBe(alan.updatedAt);
    expect((await auditOf(alan.id)).map((e) => e.action)).toEqual(["author.created"]);
  });

  it("a slug another author has is 409, and the author keeps theirs", async () => {
    const { body: a } = await create({ name: "Slug Holder" });
    const { body: b } = await create({ name: "Slug Wanter" });
    const res = await owner.patch<{ message: string }>(`${base()}/${b.id}`, { slug: a.slug });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Slug "slug-holder" is already used by another author of this workspace.',
    );
    expect((await list()).find((x) => x.id === b.id)?.slug).toBe("slug-wanter");
  });

  it("an empty change is a 400", async () => {
    const { body: a } = await create({ name: "Nobody Changes" });
    expect((await owner.patch(`${base()}/${a.id}`, {})).status).toBe(400);
  });

  it("a removed author is gone: 204, then 404, off the list, and audited", async () => {
    const { body: a } = await create({ name: "Leaving Soon" });
    const res = await owner.delete(`${base()}/${a.id}`);
    expect(res.status).toBe(204);
    expect((await owner.delete(`${base()}/${a.id}`)).status).toBe(404);
    expect((await list()).some((x) => x.id === a.id)).toBe(false);
    expect((await auditOf(a.id)).map((e) => e.action)).toEqual([
      "author.removed",
      "author.created",
    ]);
  });
});

describe("limits (admin.yaml, createAuthor: at most 200 authors per workspace)", () => {
  it("the 201st author is a 409; removing one makes room", async () => {
    const workspace = (await owner.post<{ id: string }>("/workspaces", { name: "Crowded" })).body
      .id;
    const now = new Date();
    const docs: AuthorDoc[] = Array.from({ length: 200 }, (_, i) => ({
      _id: `au_seed${i}`,
      workspaceId: workspace,
      name: `Writer ${i}`,
      nameKey: `writer ${i}`,
      slug: `writer-${i}`,
      bio: null,
      avatarUrl: null,
      websiteUrl: null,
      createdAt: now,
      updatedAt: now,
    }));
    await t.db.collection<AuthorDoc>("authors").insertMany(docs);
    expect((await list(workspace)).length).toBe(200);
    const refused = await create({ name: "One Too Many" }, owner, workspace);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: "A workspace has at most 200 authors." });
    expect((await owner.delete(`${base(workspace)}/au_seed7`)).status).toBe(204);
    expect((await create({ name: "One Too Many" }, owner, workspace)).status).toBe(201);
  });
});

describe("access (admin.yaml: blogs:read lists, blogs:write changes; members only)", () => {
  it("a stranger's workspace answers 404; a token with blogs:read lists but cannot add", async () => {
    const stranger = new AdminClient(server.url);
    await stores(t.db).users.create({
      email: "sam@example.com",
      name: "Sam Stranger",
      password: "sam's long password",
    });
    await stranger.post("/session", { email: "sam@example.com", password: "sam's long password" });
    expect((await stranger.get(base())).status).toBe(404);
    expect((await create({ name: "Intruder" }, stranger)).status).toBe(404);

    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const minted = await owner.post<{ secret: string }>("/me/tokens", {
      name: "site build",
      scopes: ["blogs:read"],
      expiresAt,
    });
    const asToken = (method: string, body?: unknown) =>
      fetch(`${server.url}/api/admin${base()}`, {
        method,
        headers: {
          authorization: `Bearer ${minted.body.secret}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect(minted.status).toBe(201);
    expect((await asToken("GET")).status).toBe(200);
    const refused = await asToken("POST", { name: "By a token" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: "This access token does not have the scope blogs:write.",
    });
  });
});

type AdminBlog = components["schemas"]["AdminBlog"];
type Revisions = { data: components["schemas"]["BlogRevisionSummary"][] };
type Revision = components["schemas"]["BlogRevision"];

describe("blogs name authors (admin.yaml, BlogInput.authors, AdminBlog.authors)", () => {
  let first: Author;
  let second: Author;
  beforeAll(async () => {
    first = (await create({ name: "First Writer", slug: "first-writer" })).body;
    second = (await create({ name: "Second Writer", slug: "second-writer" })).body;
  });
  const blogsOf = (workspace = ws) => `/workspaces/${workspace}/blogs`;

  it("a blog names authors in order; the answer has them whole, and the byline as written", async () => {
    const res = await owner.post<AdminBlog>(blogsOf(), {
      title: "Two writers",
      authorName: "The Desk",
      authors: [second.id, first.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.authorName).toBe("The Desk");
    expect(res.body.authors).toEqual([second, first]);
  });

  it.each([
    ["an author no workspace has", () => ["au_nobody"], 400],
    ["twice the same author", () => [first.id, first.id], 400],
    ["eleven authors", () => Array.from({ length: 11 }, (_, i) => `au_x${i}`), 400],
  ])("%s is a 400, and no blog is made", async (_, authors, status) => {
    const before = (await owner.get<{ data: unknown[] }>(`${blogsOf()}?limit=100`)).body.data
      .length;
    const res = await owner.post<{ message: string }>(blogsOf(), {
      title: "Refused",
      authors: authors(),
    });
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe("string");
    expect((await owner.get<{ data: unknown[] }>(`${blogsOf()}?limit=100`)).body.data.length).toBe(
      before,
    );
  });

  it("another workspace's author is a 400 naming the ID", async () => {
    const theirs = await create({ name: "Not Yours" }, owner, otherWs);
    const res = await owner.post<{ message: string }>(blogsOf(), {
      title: "Borrowed",
      authors: [theirs.body.id],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: `authors: the workspace has no author ${theirs.body.id}.`,
    });
  });

  it("a change of the authors is in the history; a restore leaves out an author removed since", async () => {
    const leaving = (await create({ name: "Leaving Writer" })).body;
    const made = await owner.post<AdminBlog>(blogsOf(), {
      title: "History",
      authors: [leaving.id, first.id],
    });
    const blog = made.body;
    const changed = await owner.patch<AdminBlog>(
      `${blogsOf()}/${blog.id}`,
      { authors: [first.id] },
      { "if-match": `"${blog.version}"` },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.authors.map((a) => a.id)).toEqual([first.id]);
    const revisions = (await owner.get<Revisions>(`${blogsOf()}/${blog.id}/revisions`)).body.data;
    expect(revisions[0]?.changed).toEqual(["authors"]);
    const oldest = revisions.at(-1);
    if (oldest === undefined) throw new Error("no revision");
    const kept = await owner.get<Revision>(`${blogsOf()}/${blog.id}/revisions/${oldest.id}`);
    expect(kept.body.content.authors).toEqual([leaving.id, first.id]);

    expect((await owner.delete(`${base()}/${leaving.id}`)).status).toBe(204);
    const restored = await owner.post<AdminBlog>(
      `${blogsOf()}/${blog.id}/revisions/${oldest.id}/restore`,
      undefined,
      { "if-match": `"${changed.body.version}"` },
    );
    expect(restored.status).toBe(200);
    expect(restored.body.authors.map((a) => a.id)).toEqual([first.id]);
  });

  it("a released blog's new authors are pending changes until published", async () => {
    const draft = await owner.post<AdminBlog>(blogsOf(), {
      title: "Released with one",
      authors: [first.id],
    });
    const made = await owner.post<AdminBlog>(`${blogsOf()}/${draft.body.id}/release`, undefined, {
      "if-match": `"${draft.body.version}"`,
    });
    expect(made.status).toBe(200);
    const staged = await owner.patch<AdminBlog>(
      `${blogsOf()}/${made.body.id}`,
      { authors: [second.id, first.id] },
      { "if-match": `"${made.body.version}"` },
    );
    expect(staged.body.pendingChanges).toBe(true);
    expect(staged.body.authors.map((a) => a.id)).toEqual([second.id, first.id]);
    const stored = await t.db.collection("blogs").findOne({ _id: made.body.id as never });
    expect(stored?.authorIds).toEqual([first.id]);
    const published = await owner.post<AdminBlog>(
      `${blogsOf()}/${made.body.id}/publish`,
      undefined,
      { "if-match": `"${staged.body.version}"` },
    );
    expect(published.body.pendingChanges).toBe(false);
    const live = await t.db.collection("blogs").findOne({ _id: made.body.id as never });
    expect(live?.authorIds).toEqual([second.id, first.id]);
  });
});

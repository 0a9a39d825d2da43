// Ghost and Markdown imports end to end (README, "Import and export"):
// `pressroom import` of a real Ghost 6.65 export and of a folder of Markdown files lands each
// entry released or draft as mapped, visible to consumers only when released, listed for
// editors in every state, and a second run changes nothing.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { createStores } from "../../server/src/stores.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type CliResult, runCli } from "../support/cli.js";
import { get } from "../support/fixtures.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const GHOST = fileURLToPath(new URL("../fixtures/ghost-6.65-export.json", import.meta.url));
/** The export's posts of type "post" (its README): published → released, the rest drafts. */
const GHOST_RELEASED = [
  "a-long-read",
  "coming-soon",
  "hello-world",
  "images-and-quotes",
  "release-notes-1-2",
  "same-title",
  "same-title-2",
  "unicode-cafe-ri-ben-yu-emoji",
];
const GHOST_DRAFTS = [
  "draft-roadmap", // draft
  "old-draft-never-published", // draft
  "published-then-pulled", // published, then back to draft
  "scheduled-launch", // scheduled: a draft whose release is scheduled
];

interface ImportResult {
  dryRun: boolean;
  counts: { create: number; update: number; unchanged: number; conflict: number; skipped: number };
  skipped: { origin: string; reason: string }[];
}

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws: string;
let key: string;
const env = () => ({ MONGODB_URI: t.uri, MONGODB_DB: t.name });

async function importJson(args: string[]): Promise<ImportResult> {
  const r: CliResult = await runCli(["import", "--workspace", ws, "--json", ...args], env());
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ImportResult;
}

/** Every blog a consumer of the workspace sees, by slug (all pages of the list). */
async function consumerSlugs(): Promise<string[]> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await get(`${server.url}/api/consumer/blogs?limit=5${query}`, {
      "x-api-key": key,
    });
    expect(page.status).toBe(200);
    const body = page.body as { data: { slug: string }[]; nextCursor: string | null };
    slugs.push(...body.data.map((b) => b.slug));
    cursor = body.nextCursor;
  } while (cursor !== null);
  return slugs.sort();
}

/** Every blog editors see on the dashboard (the admin API it reads), slug → status. */
async function editorView(): Promise<Record<string, string>> {
  const res = await owner.get<{ data: { slug: string; status: string }[] }>(
    `/workspaces/${ws}/blogs?limit=100`,
  );
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.data.map((b) => [b.slug, b.status]));
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  ws = setup.body.workspaces[0]?.id ?? "";
  key = (await createStores(t.db).keys.mint(ws, "Importer test")).key;
});

describe("happy: a Ghost 6.65 export lands as mapped", () => {
  it("posts become blogs: published ones released for consumers, drafts, scheduled and pulled-back posts drafts; pages and the user are skipped", async () => {
    const dry = await importJson(["--dry-run", GHOST]);
    expect(dry.dryRun).toBe(true);
    expect(dry.counts).toMatchObject({ create: 12, update: 0, unchanged: 0, conflict: 0 });
    expect(await consumerSlugs()).toEqual([]); // the dry run wrote nothing

    const done = await importJson([GHOST]);
    expect(done.counts).toMatchObject({ create: 12, update: 0, unchanged: 0, conflict: 0 });
    const skipped = done.skipped.map((s) => s.origin).join("\n");
    expect(skipped).toMatch(/about/); // the two pages
    expect(skipped).toMatch(/users/i); // the user: never an account

    expect(await consumerSlugs()).toEqual(GHOST_RELEASED);
    for (const slug of GHOST_DRAFTS) {
      const res = await get(`${server.url}/api/consumer/blogs/by-slug/${slug}`, {
        "x-api-key": key,
      });
      expect(res.status, slug).toBe(404);
    }
    const editors = await editorView();
    for (const slug of GHOST_RELEASED) expect(editors[slug], slug).toBe("released");
    for (const slug of GHOST_DRAFTS) expect(editors[slug], slug).toBe("draft");
    expect(Object.keys(editors)).not.toContain("about");
    // Its release keeps its Ghost time while that is to come (the fixture's 2027-01-15; after
    // it, a draft with nothing scheduled: test/transfer/ghost-reader.test.ts has both).
    const launch = await t.db
      .collection<{ _id: string; slug: string; schedule?: { publishAt?: Date } }>("blogs")
      .findOne({ slug: "scheduled-launch" });
    const ghostTime = new Date("2027-01-15T09:00:00.000Z");
    expect(launch?.schedule?.publishAt ?? null).toEqual(
      Date.now() < ghostTime.getTime() ? ghostTime : null,
    );
  });

  it("a released post keeps its unicode title, and its code block its language", async () => {
    const id = (await get(`${server.url}/api/consumer/blogs/by-slug/unicode-cafe-ri-ben-yu-emoji`, {
      "x-api-key": key,
    })) as { status: number; body: { title: string } };
    expect(id.status).toBe(200);
    expect(id.body.title).toBe("Unicode — café, 日本語, emoji 🎉");
    const list = await get(`${server.url}/api/consumer/blogs?limit=50`, {
      "x-api-key": key,
    });
    const text = JSON.stringify(list.body);
    expect(text).toContain('class=\\"language-js\\"');
  });

  it("importing the same export again changes nothing", async () => {
    const before = await t.db
      .collection("blogs")
      .find({ workspaceId: ws })
      .sort({ _id: 1 })
      .toArray();
    const again = await importJson([GHOST]);
    expect(again.counts).toMatchObject({ create: 0, update: 0, unchanged: 12, conflict: 0 });
    const after = await t.db
      .collection("blogs")
      .find({ workspaceId: ws })
      .sort({ _id: 1 })
      .toArray();
    expect(
      after.map(({ webhookOutbox: _o, webhookPending: _p, feedPending: _f, ...b }) => b),
    ).toEqual(before.map(({ webhookOutbox: _o, webhookPending: _p, feedPending: _f, ...b }) => b));
  });
});

describe("happy: a folder of Markdown files lands as its front matter says", () => {
  it("draft: true is a draft, anything else released; a second run changes nothing", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "pressroom-md-import-"));
    await mkdir(path.join(root, "2024"), { recursive: true });
    await writeFile(
      path.join(root, "2024", "launch.md"),
      "---\ntitle: Launch day\ntags: [News]\ndate: 2024-03-01\n---\nWe *launched*.\n",
    );
    await writeFile(
      path.join(root, "ideas.md"),
      "---\ntitle: Ideas\nslug: md-ideas\ndraft: true\n---\nNot yet.\n",
    );
    const first = await importJson([root]);
    expect(first.counts).toMatchObject({ create: 2, update: 0, unchanged: 0, conflict: 0 });
    expect(await consumerSlugs()).toEqual([...GHOST_RELEASED, "launch"].sort());
    const editors = await editorView();
    expect(editors).toMatchObject({ launch: "released", "md-ideas": "draft" });
    const launch = await get(`${server.url}/api/consumer/blogs/by-slug/launch`, {
      "x-api-key": key,
    });
    expect(launch.body).toMatchObject({
      title: "Launch day",
      tags: ["news"],
      releasedAt: "2024-03-01T00:00:00.000Z",
    });
    const again = await importJson([root]);
    expect(again.counts).toMatchObject({ create: 0, update: 0, unchanged: 2 });
  });
});

describe("happy: the import records its changes for the feed before it exits (README, 'How the changes feed stays exact without transactions')", () => {
  interface FeedPage {
    changes: { type: string; blog?: { slug: string } }[];
    nextToken: string;
    hasMore: boolean;
  }
  const feed = async (since?: string): Promise<FeedPage> => {
    const query = since === undefined ? "" : `&since=${encodeURIComponent(since)}`;
    const res = await get(`${server.url}/api/consumer/changes?limit=100${query}`, {
      "x-api-key": key,
    });
    expect(res.status).toBe(200);
    return res.body as FeedPage;
  };

  it("no imported blog is left marked, the log already holds an entry for each released one, and a mirror synced before the import gets exactly those next", async () => {
    // A mirror that is caught up before the import.
    let page = await feed();
    while (page.hasMore) page = await feed(page.nextToken);
    const caughtUp = page.nextToken;
    const entries = () => t.db.collection("changes").countDocuments({ workspaceId: ws });
    const entriesBefore = await entries();

    const root = await mkdtemp(path.join(tmpdir(), "pressroom-md-feed-"));
    for (const n of [1, 2, 3]) {
      await writeFile(path.join(root, `feed-${n}.md`), `---\ntitle: Feed ${n}\n---\nBody ${n}.\n`);
    }
    await writeFile(
      path.join(root, "feed-draft.md"),
      "---\ntitle: Feed draft\ndraft: true\n---\nNo.\n",
    );
    const done = await importJson([root]);
    expect(done.counts).toMatchObject({ create: 4, conflict: 0 });

    // Read before any consumer call, which would record them itself.
    expect(
      await t.db.collection("blogs").countDocuments({ workspaceId: ws, feedPending: true }),
    ).toBe(0);
    expect((await entries()) - entriesBefore).toBe(3);

    const next = await feed(caughtUp);
    expect(next.hasMore).toBe(false);
    expect(next.changes.map((c) => `${c.type} ${c.blog?.slug}`).sort()).toEqual([
      "upsert feed-1",
      "upsert feed-2",
      "upsert feed-3",
    ]);
  });
});

describe("error: a bad Markdown folder imports nothing", () => {
  it("one bad file among good ones: exit 1, its path and line named, no blog written", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "pressroom-md-bad-"));
    await writeFile(path.join(root, "good.md"), "---\ntitle: Good one\n---\nFine.\n");
    await writeFile(path.join(root, "bad.md"), "---\ntitle: Bad\ndate: 2024-02-30\n---\nNo.\n");
    const count = () => t.db.collection("blogs").countDocuments({ workspaceId: ws });
    const before = await count();
    const r = await runCli(["import", "--workspace", ws, root], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.md:3/);
    expect(await count()).toBe(before);
  });
});

describe("security: names from the source reach the terminal escaped (README, 'Operator CLI')", () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  /** A file name with an escape sequence (red text) and a right-to-left override in it. */
  const HOSTILE = "\u001b[31mred\u202eevil";
  const SHOWN = "\\x1b[31mred\\u202eevil";

  it("a Markdown file named with an escape sequence and a bidi override is printed escaped, never raw: dry run, --json, and a bad file's error", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "pressroom-md-names-"));
    await writeFile(path.join(root, `${HOSTILE}.md`), "---\ntitle: Red\n---\nRed.\n");

    const text = await runCli(["import", "--workspace", ws, "--dry-run", root], env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${SHOWN}.md`);
    expect(`${text.stdout}${text.stderr}`).not.toMatch(RAW);

    const json = await runCli(["import", "--workspace", ws, "--dry-run", "--json", root], env());
    expect(json.code, json.stderr).toBe(0);
    expect(`${json.stdout}${json.stderr}`).not.toMatch(RAW);
    // The same JSON value: the name as it is, escaped as JSON.
    expect(json.stdout).toContain("\\u001b[31mred\\u202eevil.md");
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain("\\u001b[31mred\u202eevil.md");

    await writeFile(path.join(root, `${HOSTILE}.md`), "---\ntitle: Red\ndate: 2024-02-30\n---\n");
    const bad = await runCli(["import", "--workspace", ws, root], env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${SHOWN}.md:3`);
    expect(`${bad.stdout}${bad.stderr}`).not.toMatch(RAW);
  });
});

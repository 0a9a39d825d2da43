import { spawn } from "node:child_process";
import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BlogData, type PressroomLoaderOptions, pressroomLoader } from "@pressroom/astro";
import { type Blog, type BlogWith, createClient } from "@pressroom/sdk";
import type { DataStore, LoaderContext } from "astro/loaders";
import type { z } from "astro/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { assertBuiltSdk } from "../support/sdk-build.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type AdminBlog = components["schemas"]["AdminBlog"];
type Me = components["schemas"]["Me"];
type MintedKey = components["schemas"]["MintedKey"];
type Workspace = components["schemas"]["Workspace"];

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = path.join(ROOT, "examples/astro-blog");
const ASTRO_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve("astro/package.json")),
  "bin/astro.mjs",
);

// Compile-time (`npm run typecheck`): entries are typed from the loader's schema, narrowed by
// `fields` to the SDK's `BlogWith` (packages/astro/README.md, "Options").
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const narrowed = pressroomLoader({ apiKey: "cp_live_x", baseUrl: "http://x", fields: ["slug"] });
const typedNarrow: Same<z.infer<typeof narrowed.schema>, BlogWith<"slug">> = true;
const typedWhole: Same<BlogData, Blog> = true;
void [typedNarrow, typedWhole];

let t: TestDb;
let server: TestServer;
let owner: AdminClient;
let ws = "";
let key = "";
let rss = "";
let scratch = "";
let grace = "";
const blogs: Record<string, AdminBlog> = {};

interface Build {
  readonly output: string;
  readonly ms: number;
  /** The server's request log lines for the consumer API during the build. */
  readonly requests: { method: string; path: string; status: number }[];
}

/** `astro build` of the example, as a CI job runs it: a child process, its own environment. */
async function build(): Promise<Build> {
  const logFrom = server.logLines.length;
  const started = performance.now();
  const child = spawn(process.execPath, [ASTRO_BIN, "build", "--root", EXAMPLE], {
    cwd: EXAMPLE,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ASTRO_TELEMETRY_DISABLED: "1",
      PRESSROOM_API_KEY: key,
      PRESSROOM_BASE_URL: server.url,
      PRESSROOM_FEED_URL: rss,
      ASTRO_OUT_DIR: path.join(scratch, "dist"),
      ASTRO_CACHE_DIR: path.join(scratch, "cache"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`astro build exited with ${code}:\n${output}`);
  const requests = server.logLines
    .slice(logFrom)
    .map(
      (line) => JSON.parse(line) as { msg: string; method: string; path: string; status: number },
    )
    .filter((entry) => entry.msg === "request" && entry.path.startsWith("/api/consumer/"))
    .map(({ method, path, status }) => ({ method, path, status }));
  return { output, ms: Math.round(performance.now() - started), requests };
}

const page = (route: string) => readFile(path.join(scratch, "dist", route, "index.html"), "utf8");
const exists = (route: string) =>
  access(path.join(scratch, "dist", route, "index.html")).then(
    () => true,
    () => false,
  );

async function write(
  title: string,
  tags: string[],
  release: boolean,
  authors: string[] = [],
): Promise<AdminBlog> {
  const made = await owner.post<AdminBlog>(`/workspaces/${ws}/blogs`, {
    title,
    bodyMarkdown: `The body of *${title}*.`,
    tags,
    authorName: "Ada Lovelace",
    authors,
  });
  expect(made.status).toBe(201);
  if (!release) return made.body;
  const done = await owner.post<AdminBlog>(
    `/workspaces/${ws}/blogs/${made.body.id}/release`,
    {},
    ANY_VERSION,
  );
  expect(done.status).toBe(200);
  return done.body;
}

beforeAll(async () => {
  await assertBuiltSdk();
  await access(path.join(ROOT, "packages/astro/dist/index.js")).catch(() => {
    throw new Error("packages/astro/dist is missing: run `npm run build` first");
  });
  t = await useTestDb();
  server = await startTestServer(t.db);
  owner = new AdminClient(server.url);
  ws = (await owner.post<Me>("/setup", OWNER)).body.workspaces[0]?.id ?? "";
  key = (await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Astro site" })).body.secret;
  const feeds = await owner.call<Workspace>("PUT", `/workspaces/${ws}/public-feeds`, {
    linkTemplate: "https://blog.example.com/blog/{slug}/",
  });
  rss = feeds.body.publicFeeds?.urls.rss ?? "";
  const author = async (name: string, bio: string) =>
    (await owner.post<{ id: string }>(`/workspaces/${ws}/authors`, { name, bio })).body.id;
  grace = await author("Grace Hopper", "Compilers.");
  // "Launch day" names no author: its byline, Ada Lovelace, makes the author page.
  blogs.launch = await write("Launch day", ["news"], true);
  blogs.guide = await write("A field guide", ["guides", "news"], true, [grace]);
  blogs.notes = await write("Spring notes", ["guides"], true);
  blogs.draft = await write("Secret plans", ["news"], false);
  scratch = await mkdtemp(path.join(os.tmpdir(), "pressroom-astro-"));
});

afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

describe("examples/astro-blog built with @pressroom/astro (packages/astro/README.md)", () => {
  it("the first build loads every released blog and no draft: index, posts by slug, tag and author pages, the RSS link", async () => {
    const first = await build();
    console.log(`first astro build: ${first.ms} ms, ${first.requests.length} API requests`);
    expect(first.requests.every((r) => r.path === "/api/consumer/changes")).toBe(true);
    const index = await page("");
    for (const title of ["Launch day", "A field guide", "Spring notes"])
      expect(index).toContain(title);
    expect(index).not.toContain("Secret plans");
    expect(index).toContain(
      `<link rel="alternate" type="application/rss+xml" title="RSS" href="${rss}">`,
    );
    expect(await exists(`blog/${blogs.launch?.slug}`)).toBe(true);
    expect(await exists(`blog/${blogs.draft?.slug}`)).toBe(false);
    const post = await page(`blog/${blogs.guide?.slug}`);
    expect(post).toContain("<h1>A field guide</h1>");
    expect(post).toContain("<p>The body of <em>A field guide</em>.</p>");
    const guides = await page("tags/guides");
    expect(guides).toContain("A field guide");
    expect(guides).toContain("Spring notes");
    expect(guides).not.toContain("Launch day");
    const news = await page("tags/news");
    expect(news).not.toContain("Secret plans");
    expect(await page("authors/ada-lovelace")).toContain("Launch day");
    const gracePage = await page("authors/grace-hopper");
    expect(gracePage).toContain("A field guide");
    expect(gracePage).toContain("Compilers.");
    expect(gracePage).not.toContain("Launch day");
    // The feed the page links to is the server's own, holding the same released blogs.
    const feed = await (await fetch(rss)).text();
    expect(feed).toContain("https://blog.example.com/blog/launch-day/");
    expect(feed).not.toContain("Secret plans");
  }, 180_000);

  it("getCollection's entries are typed from the loader's schema, narrowed by fields: the example type-checks", async () => {
    // The first build wrote .astro/types.d.ts, whose entry data is the loader's schema inferred;
    // the example's fields leave bodyMarkdown out, and its code compiles without it.
    const tsc = path.join(
      path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
      "bin/tsc",
    );
    const child = spawn(process.execPath, [tsc, "-p", EXAMPLE, "--noEmit"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(output).toBe("");
    expect(code).toBe(0);
    const types = await readFile(path.join(EXAMPLE, ".astro/content.d.ts"), "utf8");
    expect(types).toContain('data: InferLoaderSchema<"blog">');
  }, 60_000);

  it("after an edit and an unrelease, the second build asks the changes feed only (≤ 3 requests) and the pages move with it", async () => {
    const id = (name: string) => blogs[name]?.id ?? "";
    const edited = await owner.patch(
      `/workspaces/${ws}/blogs/${id("launch")}`,
      { title: "Launch day, revisited" },
      ANY_VERSION,
    );
    expect(edited.status).toBe(200);
    await owner.post(`/workspaces/${ws}/blogs/${id("launch")}/publish`, undefined, ANY_VERSION);
    const unreleased = await owner.post(
      `/workspaces/${ws}/blogs/${id("notes")}/unrelease`,
      undefined,
      ANY_VERSION,
    );
    expect(unreleased.status).toBe(200);
    // An author's edit changes the blogs that name them: the feed lists those again.
    const bio = await owner.patch(`/workspaces/${ws}/authors/${grace}`, { bio: "Wrote COBOL." });
    expect(bio.status).toBe(200);

    const second = await build();
    console.log(`second astro build: ${second.ms} ms, ${second.requests.length} API requests`);
    expect(second.requests.length).toBeGreaterThan(0);
    expect(second.requests.length).toBeLessThanOrEqual(3);
    expect(second.requests.every((r) => r.path === "/api/consumer/changes")).toBe(true);
    // From the first build's token: the edited blog and the one naming Grace (listed at once
    // and again when its mark is recorded), one delete; not the released set again.
    expect(second.output).toMatch(/changes since the last build: [23] upserts, 1 deletes/);
    const index = await page("");
    expect(index).toContain("Launch day, revisited");
    expect(index).not.toContain("Spring notes");
    // The slug stays the one it was released under; its page shows the new title.
    expect(await page(`blog/${blogs.launch?.slug}`)).toContain("<h1>Launch day, revisited</h1>");
    expect(await exists(`blog/${blogs.notes?.slug}`)).toBe(false);
    const guides = await page("tags/guides");
    expect(guides).toContain("A field guide");
    expect(guides).not.toContain("Spring notes");
    expect(await page("authors/grace-hopper")).toContain("Wrote COBOL.");
  }, 180_000);
});

type DataEntry = ReturnType<DataStore["values"]>[number];

/** The parts of Astro's LoaderContext the loader uses, in memory; `schema` validates as Astro does. */
function memoryContext() {
  const entries = new Map<string, DataEntry>();
  const metaMap = new Map<string, string>();
  const messages: string[] = [];
  const state: { schema: z.ZodType | undefined } = { schema: undefined };
  const context: Partial<LoaderContext> = {
    collection: "blog",
    store: {
      get: ((id: string) => entries.get(id)) as DataStore["get"],
      entries: () => [...entries],
      values: () => [...entries.values()],
      keys: () => [...entries.keys()],
      set: (entry) => {
        entries.set(entry.id, entry as DataEntry);
        return true;
      },
      delete: (id) => void entries.delete(id),
      clear: () => entries.clear(),
      has: (id) => entries.has(id),
      addModuleImport: () => {},
    },
    meta: {
      get: (k) => metaMap.get(k),
      set: (k, v) => void metaMap.set(k, v),
      has: (k) => metaMap.has(k),
      delete: (k) => void metaMap.delete(k),
    },
    parseData: async <T extends Record<string, unknown>>({ data }: { data: T }) =>
      (state.schema === undefined ? data : state.schema.parse(data)) as T,
    generateDigest: (data) => JSON.stringify(data),
  };
  const logger: Pick<LoaderContext["logger"], "info" | "warn"> = {
    info: (m) => void messages.push(m),
    warn: (m) => void messages.push(m),
  };
  // Only the members above exist; the loader uses no others (renderMarkdown, config, watcher…).
  const whole = { ...context, logger } as unknown as LoaderContext;
  return { context: whole, state, entries, messages };
}

describe('the loader\'s options (packages/astro/README.md, "Options")', () => {
  /** One build's load: the collection's schema is the loader's, as in content.config.ts. */
  const load = (
    options: Omit<PressroomLoaderOptions, "apiKey" | "baseUrl" | "client">,
    ctx: ReturnType<typeof memoryContext>,
  ) => {
    const loader = pressroomLoader({ apiKey: key, baseUrl: server.url, ...options });
    ctx.state.schema = loader.schema;
    return loader.load(ctx.context);
  };

  it("tag keeps only blogs carrying it, and a blog that loses the tag leaves at the next load; fields narrow what is stored", async () => {
    const options = { tag: "loader-only", fields: ["slug", "tags"] as const };
    const ctx = memoryContext();
    const tagged = await write("Tagged for the loader", ["loader-only", "news"], true);
    await write("Not tagged for the loader", ["news"], true);
    await load(options, ctx);
    expect([...ctx.entries.keys()]).toEqual([tagged.id]);
    const entry = ctx.entries.get(tagged.id);
    expect(entry?.data).toEqual({
      id: tagged.id,
      slug: tagged.slug,
      tags: ["loader-only", "news"],
    });
    expect(entry?.rendered).toBeUndefined();

    await owner.patch(`/workspaces/${ws}/blogs/${tagged.id}`, { tags: ["news"] }, ANY_VERSION);
    await owner.post(`/workspaces/${ws}/blogs/${tagged.id}/publish`, undefined, ANY_VERSION);
    await load(options, ctx);
    expect(ctx.entries.size).toBe(0);
    expect(ctx.messages.at(-1)).toContain("changes since the last build: 1 upserts, 0 deletes");
  });

  it("changed options load everything again; bodyHtml among the fields makes render(entry) work", async () => {
    const ctx = memoryContext();
    await load({ fields: ["slug"] }, ctx);
    await load({}, ctx);
    expect(ctx.messages.at(-1)).toMatch(/^every released blog: /);
    const guide = ctx.entries.get(blogs.guide?.id ?? "");
    expect(guide?.data.bodyHtml).toBe("<p>The body of <em>A field guide</em>.</p>");
    expect(guide?.rendered?.html).toBe(guide?.data.bodyHtml);
  });

  it("a preview key is refused unless preview: true, so drafts never reach a public build", async () => {
    const ctx = memoryContext();
    const previewKey = "cp_preview_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const byKey = pressroomLoader({ apiKey: previewKey, baseUrl: server.url });
    await expect(byKey.load(ctx.context)).rejects.toThrow(/preview: true/);
    const client = createClient({ apiKey: previewKey, baseUrl: server.url });
    await expect(pressroomLoader({ client }).load(ctx.context)).rejects.toThrow(
      "a preview key reads drafts",
    );
    expect(ctx.entries.size).toBe(0);
  });
});

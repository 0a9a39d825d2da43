import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { assertBuiltSdk, SDK_DIR } from "../support/sdk-build.js";
import { consumerProject, packSdk, run } from "../support/sdk-consumer.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/**
 * The SDK as a consumer gets it: `npm pack` of sdk/ (dist/ as `npm run build` left it),
 * installed from the tarball into a fresh project outside this repository, compiled with tsc
 * under strict and non-strict settings, and run against a real Pressroom server — a consumer
 * file, and the repository's example examples/sync.ts.
 */

const CONSUMER = `
import {
  AuthenticationError,
  type Blog,
  type BlogPage,
  createClient,
  type FromResponseOptions,
  NotFoundError,
  PressroomError,
  type RetryOptions,
  type Slug,
} from "@pressroom/sdk";

const baseUrl = process.env.PRESSROOM_BASE_URL ?? "";
const apiKey = process.env.PRESSROOM_API_KEY ?? "";
const retry: RetryOptions = { maxAttempts: 2 };
const client = createClient({ apiKey, baseUrl, retry });

const first: BlogPage = await client.blogs.list({ limit: 2 });
const all: Blog[] = [];
for await (const blog of client.blogs.listAll({ limit: 2 })) all.push(blog);
const one: Blog = await client.blogs.get(all[0]?.id ?? "");
const slug: Slug = one.slug;
const bySlug: Blog = await client.blogs.getBySlug(slug);
const title: string = one.title;
const cover: string | null = one.coverImageUrl;
const again = await client.blogs.list({ limit: 2 });
const slim = await client.blogs.list({ limit: 1, fields: ["slug"] });
const slimSlug: string = slim.data[0]?.slug ?? "";

let notFound = "";
try {
  await client.blogs.get("b_doesNotExist0000");
} catch (error) {
  if (error instanceof NotFoundError) notFound = [error.name, error.status, error.attempts].join(" ");
}
let auth = "";
try {
  await createClient({ apiKey: "cp_live_wrong", baseUrl }).blogs.list();
} catch (error) {
  if (error instanceof AuthenticationError && error instanceof PressroomError) {
    auth = [error.name, error.status, error.attempts, typeof error.requestId].join(" ");
  }
}

const options: FromResponseOptions = { attempts: 2 };
const built: PressroomError = PressroomError.fromResponse(
  new Response(null, { status: 404, headers: { "x-request-id": "req-1" } }),
  { message: "Blog not found." },
  options,
);
const fromResponse = [built instanceof NotFoundError, built.message].join(" ");

// Never called: compile-time proof that the types are real, not any.
export function typeErrors(blog: Blog): void {
  // @ts-expect-error a Blog has no such field
  blog.notAField;
  // @ts-expect-error a blog ID is a string
  void client.blogs.get(42);
  // @ts-expect-error a slug is a string
  void client.blogs.getBySlug(42);
  // @ts-expect-error retry takes options or false
  createClient({ apiKey, baseUrl, retry: true });
  // @ts-expect-error a blog fetched with fields: ["slug"] has no title
  void slim.data[0]?.title;
  // @ts-expect-error fields takes Blog properties only
  void client.blogs.list({ fields: ["workspaceId"] });
}

console.log(JSON.stringify({
  firstIds: first.data.map((b) => b.id),
  firstHasNext: typeof first.nextCursor,
  allIds: all.map((b) => b.id),
  got: one.id,
  bySlug: bySlug.id,
  title,
  cover,
  notModified: again.notModified,
  notFound,
  auth,
  fromResponse,
  slimKeys: Object.keys(slim.data[0] ?? {}),
  slimSlug: slimSlug.length > 0,
}));
`;

const STRICT = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    types: ["node"],
    skipLibCheck: false,
    outDir: "out-strict",
  },
  files: ["consumer.ts"],
};

const LOOSE = {
  compilerOptions: {
    strict: false,
    module: "NodeNext",
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    types: ["node"],
    skipLibCheck: false,
    outDir: "out-loose",
  },
  files: ["consumer.ts"],
};

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let work: string;
let project: string;

beforeAll(async () => {
  await assertBuiltSdk();
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Consumer", 3);
  work = await mkdtemp(path.join(tmpdir(), "pressroom-sdk-consumer-"));
  project = path.join(work, "app");
});

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe("the packed SDK in a consumer project", () => {
  let tarball: string;

  it("npm pack ships dist/, package.json, README, CHANGELOG and LICENSE — no sources, tests or examples", async () => {
    const packed = await packSdk(work);
    tarball = packed.tarball;
    const { files } = packed;
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("dist/generated/consumer.d.ts");
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "package.json",
    ]);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  }, 60_000);

  it("is publishable: not private, Apache-2.0 with the licence text, ESM exports with types", async () => {
    const manifest = JSON.parse(await readFile(path.join(SDK_DIR, "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest).toMatchObject({
      name: "@pressroom/sdk",
      license: "Apache-2.0",
      type: "module",
      sideEffects: false,
      types: "./dist/index.d.ts",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
      repository: { type: "git", directory: "sdk" },
      publishConfig: { access: "public" },
    });
    expect(manifest.engines.node).toMatch(/^>=\d/);
    const licence = await readFile(path.join(SDK_DIR, "LICENSE"), "utf8");
    expect(licence).toContain(
      "Apache License\n                           Version 2.0, January 2004",
    );
    expect(licence).toContain("END OF TERMS AND CONDITIONS");
    const changelog = await readFile(path.join(SDK_DIR, "CHANGELOG.md"), "utf8");
    expect(changelog).toContain(`## ${manifest.version}`);
  });

  it("installs from the tarball, compiles strict and non-strict, and works against a real server", async () => {
    expect(tarball).toBeDefined();
    await consumerProject(project, tarball, ["typescript@5.9.3", "@types/node@20.19.43"]);
    const installed = await readdir(path.join(project, "node_modules/@pressroom/sdk"));
    expect(installed.sort()).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "dist",
      "package.json",
    ]);

    await writeFile(path.join(project, "consumer.ts"), CONSUMER);
    await writeFile(path.join(project, "tsconfig.strict.json"), JSON.stringify(STRICT));
    await writeFile(path.join(project, "tsconfig.loose.json"), JSON.stringify(LOOSE));
    const tsc = path.join(project, "node_modules/typescript/bin/tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.strict.json"], project);
    await run(process.execPath, [tsc, "-p", "tsconfig.loose.json"], project);

    const env = { PRESSROOM_BASE_URL: server.url, PRESSROOM_API_KEY: a.key };
    for (const out of ["out-strict", "out-loose"]) {
      const { stdout } = await run(process.execPath, [`${out}/consumer.js`], project, env);
      expect(JSON.parse(stdout)).toEqual({
        firstIds: a.released.slice(0, 2),
        firstHasNext: "string",
        allIds: a.released,
        got: a.released[0],
        bySlug: a.released[0],
        title: "Post 2",
        cover: null,
        notModified: true,
        notFound: "NotFoundError 404 1",
        auth: "AuthenticationError 401 1 string",
        fromResponse: "true Blog not found. (HTTP 404, request id req-1, 2 attempts)",
        slimKeys: ["id", "slug"],
        slimSlug: true,
      });
    }
  }, 240_000);

  it("the repository's example (examples/sync.ts) compiles strict against the package and runs", async () => {
    await copyFile(path.join(SDK_DIR, "examples/sync.ts"), path.join(project, "sync.ts"));
    const config = {
      compilerOptions: { ...STRICT.compilerOptions, outDir: "out-example" },
      files: ["sync.ts"],
    };
    await writeFile(path.join(project, "tsconfig.example.json"), JSON.stringify(config));
    const tsc = path.join(project, "node_modules/typescript/bin/tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.example.json"], project);

    const mirror = path.join(work, "mirror");
    const env = { PRESSROOM_BASE_URL: server.url, PRESSROOM_API_KEY: a.key };
    const sync = () => run(process.execPath, ["out-example/sync.js", mirror], project, env);
    expect((await sync()).stdout.trim()).toBe(
      `synced ${mirror}: written 3, deleted 0, unchanged 0; pages 1, requests 1`,
    );
    expect((await sync()).stdout.trim()).toBe(
      `synced ${mirror}: written 0, deleted 0, unchanged 0; pages 1, requests 1`,
    );
    const files = (await readdir(mirror)).filter((n) => !n.startsWith(".")).sort();
    expect(files).toEqual(a.released.map((id) => `${id}.json`).sort());
  }, 120_000);
});

import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededWorkspace, seedWorkspace } from "./support/fixtures.js";
import { assertBuiltSdk, SDK_DIR } from "./support/sdk-build.js";
import { type TestDb, useTestDb } from "./support/test-db.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * The SDK as a consumer gets it: `npm pack` of sdk/ (dist/ as `npm run build` left it),
 * installed from the tarball into a fresh project outside this repository, compiled with tsc
 * under strict and non-strict settings, and run against a real Pressroom server.
 */

interface Run {
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

const CONSUMER = `
import {
  AuthenticationError,
  type Blog,
  type BlogPage,
  createClient,
  NotFoundError,
  PressroomError,
  type RetryOptions,
} from "@pressroom/sdk";

const baseUrl = process.env.PRESSROOM_BASE_URL ?? "";
const apiKey = process.env.PRESSROOM_API_KEY ?? "";
const retry: RetryOptions = { maxAttempts: 2 };
const client = createClient({ apiKey, baseUrl, retry });

const first: BlogPage = await client.blogs.list({ limit: 2 });
const all: Blog[] = [];
for await (const blog of client.blogs.listAll({ limit: 2 })) all.push(blog);
const one: Blog = await client.blogs.get(all[0]?.id ?? "");
const title: string = one.title;
const cover: string | null = one.coverImageUrl;
const again = await client.blogs.list({ limit: 2 });

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

// Never called: compile-time proof that the types are real, not any.
export function typeErrors(blog: Blog): void {
  // @ts-expect-error a Blog has no such field
  blog.notAField;
  // @ts-expect-error a blog ID is a string
  void client.blogs.get(42);
  // @ts-expect-error retry takes options or false
  createClient({ apiKey, baseUrl, retry: true });
}

console.log(JSON.stringify({
  firstIds: first.data.map((b) => b.id),
  firstHasNext: typeof first.nextCursor,
  allIds: all.map((b) => b.id),
  got: one.id,
  title,
  cover,
  notModified: again.notModified,
  notFound,
  auth,
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

  it("npm pack ships dist/, package.json and the README — no sources, tests or examples", async () => {
    const packed = await run("npm", ["pack", "--json", "--pack-destination", work], SDK_DIR);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    expect(info).toBeDefined();
    tarball = path.join(work, info?.filename ?? "");
    const files = (info?.files ?? []).map((f) => f.path).sort();
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("dist/generated/consumer.d.ts");
    expect(files).toContain("README.md");
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual(["README.md", "package.json"]);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  }, 60_000);

  it("installs from the tarball, compiles strict and non-strict, and works against a real server", async () => {
    expect(tarball).toBeDefined();
    await mkdir(project);
    await run("npm", ["init", "-y"], project);
    await run("npm", ["pkg", "set", "type=module"], project);
    await run(
      "npm",
      [
        "install",
        tarball,
        "typescript@5.9.3",
        "@types/node@20.19.43",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
      ],
      project,
    );
    const installed = await readdir(path.join(project, "node_modules/@pressroom/sdk"));
    expect(installed.sort()).toEqual(["README.md", "dist", "package.json"]);

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
        title: "Post 2",
        cover: null,
        notModified: true,
        notFound: "NotFoundError 404 1",
        auth: "AuthenticationError 401 1 string",
      });
    }
  }, 240_000);
});

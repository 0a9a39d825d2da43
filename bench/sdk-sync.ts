/**
 * The SDK's sync example (`sdk/examples/sync.ts`) run against Pressroom through a byte-counting
 * TCP proxy, for the report's "SDK sync" table: requests, bytes each way, and the blog documents
 * (and bodies) the server read for it (counted by its db-counter).
 */
import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import type { Child } from "./measure.js";
import type { SyncRun } from "./report.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface CountingProxy {
  url: string;
  bytes: { toServer: number; toClient: number };
  close(): void;
}

/** A loopback proxy to `target` that counts the bytes each way. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const bytes = { toServer: 0, toClient: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    client.on("data", (chunk) => {
      bytes.toServer += chunk.length;
    });
    upstream.on("data", (chunk) => {
      bytes.toClient += chunk.length;
    });
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, bytes, close: () => server.close() };
}

/** One sync into `dir` through `proxy` (the same one each time: the SDK's cache is keyed by URL). */
export async function runSync(
  server: Child,
  proxy: CountingProxy,
  key: string,
  dir: string,
): Promise<SyncRun> {
  proxy.bytes.toClient = 0;
  proxy.bytes.toServer = 0;
  const before = await server.stats();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "sdk/examples/sync.ts", dir], {
      cwd: ROOT,
      env: { ...process.env, PRESSROOM_API_KEY: key, PRESSROOM_BASE_URL: proxy.url },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`sync exited ${code}: ${out}`)),
    );
  });
  const after = await server.stats();
  const requests = Number(/requests (\d+)/.exec(output)?.[1] ?? Number.NaN);
  return {
    summary: output,
    requests,
    bytesToClient: proxy.bytes.toClient,
    bytesToServer: proxy.bytes.toServer,
    blogDocsRead: after.counters.blogDocs - before.counters.blogDocs,
    blogBodiesRead: after.counters.blogDocsWithBody - before.counters.blogDocsWithBody,
  };
}

/** The sync twice over the workspace of `key`: into an empty folder, then unchanged. */
export async function syncTwice(
  server: Child,
  key: string,
  dir: string,
  log: (line: string) => void,
): Promise<SyncRun[]> {
  log("SDK sync example, twice over the workspace…");
  const proxy = await countingProxy(server.url);
  try {
    const syncs = [await runSync(server, proxy, key, dir), await runSync(server, proxy, key, dir)];
    for (const s of syncs) {
      log(
        `  ${s.summary} — ${s.bytesToClient} bytes to client, ${s.blogBodiesRead} blog bodies read`,
      );
    }
    return syncs;
  } finally {
    proxy.close();
  }
}

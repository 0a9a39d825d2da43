/**
 * `npm run bench:webhooks` (`npx tsx bench/webhooks.ts [--releases N] [--rounds R]`; `--help`
 * lists them): what webhooks cost a release, and how late deliveries arrive (README, "Webhooks").
 *
 * Builds server/dist and bench/dist, starts a throwaway embedded database and one Pressroom
 * server on it as production runs it (bench/pressroom-server.ts, with WEBHOOK_ALLOW_HTTP_LOOPBACK
 * so the receivers can be plain http on 127.0.0.1), and two workspaces: A with no webhook
 * endpoint, B with 10, each a receiver (`node:http`, answering 204) in this process. In R rounds
 * it releases N/R drafts of A, then N/R drafts of B, one request at a time (the drafts are made
 * before, untimed), and waits for B's deliveries to drain before the next round, so A is
 * measured without delivery work and B with its own ("blocks"); then N/R releases alternating
 * A, B, A, B… ("alternating": both under the same delivery work, so the ratio is what having
 * endpoints costs the release itself). Prints the release latency p50/p99 of A and B and their
 * ratio for each, and the delivery lag (the event's `occurredAt`, when the release was
 * written, to its arrival at a receiver) p50/p99 over all of B's deliveries. No assertions.
 */

import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { startEmbeddedDb } from "../server/src/platform/embedded-db/launcher.js";
import { createStores } from "../server/src/stores.js";
import { ANY_VERSION } from "./admin-client.js";
import type { Child } from "./measure.js";
import { optionsOrExit } from "./options.js";
import { compile, startServer } from "./servers.js";

const options = optionsOrExit({
  usage: "npm run bench:webhooks -- [options]  (npx tsx bench/webhooks.ts [options])",
  summary:
    "Release latency with 0 and with 10 webhook endpoints, and delivery lag from the change\n" +
    "to its receipt, in one run.",
  options: {
    releases: {
      kind: "number",
      arg: "N",
      min: 10,
      integer: true,
      help: "releases per workspace (300)",
    },
    rounds: { kind: "number", arg: "R", min: 1, integer: true, help: "alternating rounds (3)" },
  },
});
const releases = options.releases ?? 300;
const rounds = options.rounds ?? 3;
const ENDPOINTS = 10;
const log = (line: string) => process.stderr.write(`${line}\n`);

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The admin API as the dashboard calls it: a session cookie, and Origin on writes. */
function adminApi(base: string) {
  let cookie = "";
  return async <T>(
    method: string,
    route: string,
    body?: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<T> => {
    const res = await fetch(`${base}/api/admin${route}`, {
      method,
      headers: {
        origin: base,
        ...(cookie === "" ? {} : { cookie }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get("set-cookie");
    if (set !== null) cookie = set.split(";")[0] ?? "";
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };
}

/** A receiver answering 204, recording each first arrival's lag behind the event's time. */
async function receiver(
  lags: number[],
  seen: Set<string>,
  index: number,
): Promise<http.Server & { url: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { occurredAt: string };
      const key = `${String(req.headers["webhook-id"])}@${index}`;
      if (!seen.has(key)) {
        seen.add(key);
        lags.push(at - Date.parse(event.occurredAt));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(server, { url: `http://127.0.0.1:${port}/hook` });
}

async function main() {
  compile("server", log);
  compile("bench", log);
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-webhooks-"));
  const db = await startEmbeddedDb({ dataDir, onProgress: log });
  const client = await MongoClient.connect(db.uri);
  const name = "bench_webhooks";
  let server: Child | undefined;
  const lags: number[] = [];
  const seen = new Set<string>();
  const receivers = await Promise.all(
    Array.from({ length: ENDPOINTS }, (_, i) => receiver(lags, seen, i)),
  );
  try {
    server = await startServer("pressroom", "pressroom-server.js", db.uri, db.pid, {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      MONGODB_DB: name,
      WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
    });
    const call = adminApi(server.url);
    type Me = { workspaces: { id: string }[] };
    const me = await call<Me>("POST", "/setup", {
      name: "Bench Owner",
      email: "bench@example.com",
      password: "bench password 123",
      workspaceName: "A, no endpoints",
    });
    const a = me.workspaces[0]?.id ?? "";
    const b = (await call<{ id: string }>("POST", "/workspaces", { name: "B, 10 endpoints" })).id;
    const endpoints = createStores(client.db(name), {
      webhookUrlPolicy: { allowHttpLoopback: true },
    }).webhookEndpoints;
    for (const r of receivers) {
      await endpoints.create(b, { url: r.url, events: ["blog.released"] }, null);
    }
    const drafts = async (ws: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const blog = await call<{ id: string }>("POST", `/workspaces/${ws}/blogs`, {
          title: `Bench ${ws} ${i}`,
          bodyMarkdown: "Some *text*.\n\n".repeat(20),
        });
        ids.push(blog.id);
      }
      return ids;
    };
    const release = async (ws: string, ids: readonly string[], into: number[]) => {
      for (const id of ids) {
        const started = performance.now();
        await call("POST", `/workspaces/${ws}/blogs/${id}/release`, undefined, ANY_VERSION);
        into.push(performance.now() - started);
      }
    };
    // Warm-up: a few releases of each, and their deliveries.
    await release(a, await drafts(a, 10), []);
    await release(b, await drafts(b, 10), []);
    const drain = async (expected: number) => {
      const until = Date.now() + 120_000;
      while (seen.size < expected && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      if (seen.size < expected) log(`warning: ${expected - seen.size} deliveries never arrived`);
    };
    await drain(10 * ENDPOINTS);
    lags.length = 0;
    seen.clear();

    const latency = { a: [] as number[], b: [] as number[] };
    const alternating = { a: [] as number[], b: [] as number[] };
    const perRound = Math.ceil(releases / rounds);
    for (let round = 0; round < rounds; round++) {
      log(`round ${round + 1}/${rounds}: ${perRound} releases of A, then of B…`);
      const [da, db2] = [await drafts(a, perRound), await drafts(b, perRound)];
      await release(a, da, latency.a);
      await release(b, db2, latency.b);
      const [xa, xb] = [await drafts(a, perRound), await drafts(b, perRound)];
      for (let i = 0; i < perRound; i++) {
        await release(a, xa.slice(i, i + 1), alternating.a);
        await release(b, xb.slice(i, i + 1), alternating.b);
      }
      await drain((round + 1) * 2 * perRound * ENDPOINTS);
    }
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    const sl = sorted(lags);
    const table = (title: string, la: number[], lb: number[]) => {
      const [sa, sb] = [sorted(la), sorted(lb)];
      return [
        `Release latency, ${title} (admin POST …/release, one at a time, ${sa.length} per workspace, ${rounds} rounds):`,
        "| workspace | p50 | p99 |",
        "|---|---:|---:|",
        `| A, no endpoints | ${ms(percentile(sa, 50))} | ${ms(percentile(sa, 99))} |`,
        `| B, ${ENDPOINTS} endpoints | ${ms(percentile(sb, 50))} | ${ms(percentile(sb, 99))} |`,
        `| B / A | ${(percentile(sb, 50) / percentile(sa, 50)).toFixed(2)} | ${(percentile(sb, 99) / percentile(sa, 99)).toFixed(2)} |`,
        "",
      ];
    };
    const lines = [
      ...table("blocks (A idle, B while its own deliveries run)", latency.a, latency.b),
      ...table(
        "alternating A, B (both under the same delivery work)",
        alternating.a,
        alternating.b,
      ),
      `Delivery lag, change (event occurredAt) → receipt, over ${sl.length} deliveries to ${ENDPOINTS} endpoints: p50 ${ms(percentile(sl, 50))}, p99 ${ms(percentile(sl, 99))}, max ${ms(sl.at(-1) ?? Number.NaN)}.`,
    ];
    console.log(lines.join("\n"));
  } finally {
    server?.kill();
    for (const r of receivers) r.close();
    await client.close();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

import { type ChildProcess, spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { reserveOf } from "../../server/src/limits/rate-limit-policy.js";
import { onFileEnd } from "../support/cleanup.js";
import { CLI_PATH } from "../support/cli.js";
import { seedWorkspace } from "../support/fixtures.js";
import { setKeyRateLimit } from "../support/rate-limits.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";

/**
 * Several server instances on one database share each key's count (README, "Rate limits"): a
 * window admits at most `requests + (n - 1) * reserve` requests with n instances, reserve =
 * max(1, ceil(requests / 20)). Instances here: a `pressroom start` process of its own (as
 * operators run it, with MONGODB_URI and MONGODB_DB naming this file's database) and servers
 * in this test process (each app its own limiter, with its own random instance id).
 */
let t: TestDb;
const urls: string[] = [];

async function startProcess(env: Record<string, string>): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [CLI_PATH, "start"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onFileEnd(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  const output: string[] = [];
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listen line:\n${output.join("")}`)),
      60_000,
    );
    let listening = false;
    const onData = (chunk: Buffer) => {
      if (listening) return; // the access log: read, and dropped
      output.push(chunk.toString("utf8"));
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output.join(""));
      if (match?.[1] !== undefined) {
        listening = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited ${code}:\n${output.join("")}`)));
  });
}

beforeAll(async () => {
  t = await useTestDb();
  urls.push(
    await startProcess({ MONGODB_URI: t.uri, MONGODB_DB: t.name, LOG_LEVEL: "info" }),
    (await startTestServer(t.db)).url,
    (await startTestServer(t.db)).url,
  );
}, 90_000);

/** Fires `total` requests with `key`, `parallel` at a time, spread round-robin over `targets`. */
async function flood(targets: string[], key: string, total: number, parallel: number) {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const target = targets[i % targets.length] ?? "";
      const res = await fetch(`${target}/api/consumer/blogs?limit=1`, {
        headers: { "x-api-key": key },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

describe('rate limits across instances (README, "Rate limits")', () => {
  for (const [instances, requests] of [
    [2, 60],
    [3, 60],
    [2, 5],
  ] as const) {
    it(`${instances} instances, limit ${requests}: N ≫ limit requests spread over them admit at most limit + ${instances - 1} × reserve`, async () => {
      const w = await seedWorkspace(t.db, `Shared ${instances} ${requests}`, 1);
      await setKeyRateLimit(t.db, w.keyId, { requests, windowSeconds: 86_400 });
      const statuses = await flood(urls.slice(0, instances), w.key, requests * 6, 16);
      const admitted = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      const bound = requests + (instances - 1) * reserveOf(requests);
      console.log(
        `${instances} instances, limit ${requests}: ${admitted} admitted, ${refused} refused of ${statuses.length} (bound ${bound})`,
      );
      expect(admitted + refused).toBe(statuses.length);
      expect(admitted).toBeLessThanOrEqual(bound);
      // Refused attempts count too, so a race near the top may admit a little under the limit.
      expect(admitted).toBeGreaterThanOrEqual(requests - 16);
    }, 60_000);
  }
});

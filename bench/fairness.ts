/**
 * `npm run bench:fairness` (`npx tsx bench/fairness.ts [--seconds S] [--connections N]
 * [--no-build] [--no-write]`; `--help` lists them): does a tenant, or a client with no account,
 * abusing a shared resource slow down another tenant? README, "Fair sharing between tenants".
 *
 * Builds server/dist (`tsc -p server`, unless --no-build), starts a throwaway embedded database
 * and Pressroom on it as `npm start` runs it (compiled, NODE_ENV=production, with
 * WEBHOOK_ALLOW_HTTP_LOOPBACK so that endpoints may live on this machine), makes tenant A (a key,
 * released blogs, a webhook endpoint that answers) and tenant B (its own account and workspace,
 * five endpoints that never answer) through the admin API, then measures tenant A
 * (bench/fairness/tenant-a.ts: its consumers' list p50/p99, its saves' success and p99, its
 * webhook deliveries' lag) in windows of S seconds: alone, then beside each abuser in turn
 * (bench/fairness/abusers.ts). Prints each window, the ratios to alone and the targets met or
 * missed, and writes them into BENCHMARKS.md's "fairness" section (unless --no-write).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedDb } from "../server/src/db/embedded.js";
import { FAIRNESS, readOrEmpty, withSection } from "./benchmarks-section.js";
import {
  type Abuse,
  noAccountBodies,
  tenantBRenders,
  tenantBWebhooks,
} from "./fairness/abusers.js";
import { freePort, startReceiver } from "./fairness/http.js";
import { fairnessReport } from "./fairness/report.js";
import { measureTenantA, type WindowFigures } from "./fairness/tenant-a.js";
import { makeTenants } from "./fairness/tenants.js";
import { optionsOrExit } from "./options.js";
import { NODE_FLAGS } from "./start-flags.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const options = optionsOrExit({
  usage: "npm run bench:fairness -- [options]  (npx tsx bench/fairness.ts [options])",
  summary:
    "Tenant A's consumer latency, save success and latency, and webhook lag, alone and beside\n" +
    "each abuser of a shared resource (no-account bodies, B's renders, B's webhooks), in one run.",
  options: {
    seconds: { kind: "number", arg: "S", min: 2, help: "length of each window (15)" },
    connections: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "tenant A's closed-loop consumer connections (4)",
    },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
    "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
    abusers: {
      kind: "words",
      arg: "NAME,…",
      choices: ["bodies", "renders", "webhooks"],
      help: "just these abusers (all three); with fewer, nothing is written",
    },
  },
});
const seconds = options.seconds ?? 15;
const connections = options.connections ?? 4;
const ALL: Record<string, Abuse> = {
  bodies: noAccountBodies,
  renders: tenantBRenders,
  webhooks: tenantBWebhooks,
};
const chosen = options.abusers ?? Object.keys(ALL);
const ABUSES = chosen.flatMap((name) => ALL[name] ?? []);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  if (!options["no-build"]) {
    log("tsc -p server…");
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: "inherit" });
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-bench-fairness-"));
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
        LOG_LEVEL: "error",
        PORT: String(port),
        MONGODB_URI: db.uri,
        MONGODB_DB: "bench_fairness",
        WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
        // A's consumers send far more than the default limit allows: measured are the
        // requests served, not fast 429s.
        CONSUMER_RATE_LIMIT: "off",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver();
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
      if (i > 300) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    log("making tenants A and B…");
    const tenants = await makeTenants(base, receiver);
    const measure = () => measureTenantA(base, tenants, receiver, seconds, connections);
    log("warm-up window…");
    await measureTenantA(base, tenants, receiver, Math.min(5, seconds), connections);
    log(`tenant A alone, ${seconds} s…`);
    const alone = await measure();
    const beside: { abuse: Abuse; figures: WindowFigures; answered: string }[] = [];
    for (const abuse of ABUSES) {
      log(`tenant A beside ${abuse.name}, ${seconds} s…`);
      const abuser = abuse.start(base, tenants);
      const figures = await measure();
      beside.push({ abuse, figures, answered: await abuser.stop() });
    }
    const report = fairnessReport({
      alone,
      beside,
      seconds,
      connections,
      machine: `${availableParallelism()} cores, Node ${process.version}`,
    });
    console.log(report);
    if (!options["no-write"] && chosen.length === Object.keys(ALL).length) {
      const file = path.join(ROOT, "BENCHMARKS.md");
      await writeFile(file, withSection(await readOrEmpty(file), FAIRNESS, report));
      log("BENCHMARKS.md: fairness section written");
    }
    await tenants.close();
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await receiver.close();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

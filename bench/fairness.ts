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
 * (bench/fairness/abusers.ts), each run in a child process of its own
 * (bench/fairness/abuser-process.ts) so that its loops never delay the measuring event loop. Prints each window, the ratios to alone and the targets met or
 * missed, and writes them into BENCHMARKS.md's "fairness" section (unless --no-write).
 */
import { writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FAIRNESS, readOrEmpty, withSection } from "./benchmarks-section.js";
import { startAbuserProcess } from "./fairness/abuser-process.js";
import { type Abuse, ABUSES as ALL } from "./fairness/abusers.js";
import { startReceiver } from "./fairness/http.js";
import { fairnessReport } from "./fairness/report.js";
import { measureTenantA, type WindowFigures } from "./fairness/tenant-a.js";
import { makeTenants } from "./fairness/tenants.js";
import { startHttpServerChild } from "./http-server-child.js";
import { optionsOrExit } from "./options.js";

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
const chosen = options.abusers ?? Object.keys(ALL);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  const server = await startHttpServerChild({
    name: "fairness",
    env: {
      LOG_LEVEL: "error",
      // Endpoints on this machine (the receiver, the silent ones) are plain http on loopback.
      WEBHOOK_ALLOW_HTTP_LOOPBACK: "true",
      // A's consumers send far more than the default limit allows: measured are the requests
      // served, not fast 429s.
      CONSUMER_RATE_LIMIT: "off",
    },
    build: !options["no-build"],
    log,
  });
  const { base } = server;
  const receiver = await startReceiver();
  try {
    log("making tenants A and B…");
    const tenants = await makeTenants(base, receiver);
    const measure = () => measureTenantA(base, tenants, receiver, seconds, connections);
    log("warm-up window…");
    await measureTenantA(base, tenants, receiver, Math.min(5, seconds), connections);
    log(`tenant A alone, ${seconds} s…`);
    const alone = await measure();
    const beside: { abuse: Abuse; figures: WindowFigures; answered: string }[] = [];
    for (const name of chosen) {
      const abuse = ALL[name];
      if (abuse === undefined) continue;
      log(`tenant A beside ${abuse.name}, ${seconds} s…`);
      const abuser = await startAbuserProcess(name, base, tenants.b);
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
    await server.stop();
    await receiver.close();
  }
}

await main();

import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** What the senders' process says when it ends: how many answers, by status ("error": none). */
export interface HostileReport {
  readonly answered: number;
  readonly statuses: Record<string, number>;
}

export interface HostileSenders {
  /** Resolves once `underwayAfter` hostile requests have been answered. */
  readonly underway: Promise<void>;
  /** Lets the requests in flight finish, ends the process, and reports. */
  stop(): Promise<HostileReport>;
}

/**
 * The senders, in a process of their own (as an attacker is), so that the event loop measured
 * is the server's alone. Each of `senders` loops over the requests in order, one at a time,
 * at most `maxEach` of them, until its stdin closes.
 */
const CHILD = `
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
const { url, senders, maxEach, underwayAfter, nestedBytes, oversizeBytes } = JSON.parse(process.env.HOSTILE);
const nested = "[".repeat(1_400_000) + "]".repeat(1_400_000);
const requests = [
  ["/session", gzipSync(nested, { level: 9 }), { "content-encoding": "gzip" }],
  ["/setup", gzipSync(nested, { level: 9 }), { "content-encoding": "gzip" }],
  ["/invitations/lookup", deflateSync(nested), { "content-encoding": "deflate" }],
  ["/invitations/accept", brotliCompressSync(nested), { "content-encoding": "br" }],
  ["/invitations/accept", "[".repeat(nestedBytes), {}],
  ["/session", JSON.stringify({ email: "a@b.example", password: "[".repeat(oversizeBytes) }), {}],
];
let stop = false;
let answered = 0;
const statuses = {};
process.stdin.on("end", () => { stop = true; });
process.stdin.resume();
async function sender(offset) {
  for (let i = offset; !stop && i < offset + maxEach; i++) {
    const [path, body, headers] = requests[i % requests.length];
    let status = "error";
    try {
      const res = await fetch(url + "/api/admin" + path, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url, ...headers },
        body,
        signal: AbortSignal.timeout(20000),
      });
      await res.arrayBuffer();
      status = String(res.status);
    } catch {}
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (++answered === underwayAfter) process.stdout.write("underway\\n");
  }
}
await Promise.all(Array.from({ length: senders }, (_, i) => sender(i)));
process.stdout.write(JSON.stringify({ answered, statuses }) + "\\n");
`;

/**
 * Starts hostile senders against the admin API's open operations at `url` (loopback): gzip,
 * deflate and brotli bombs of 1.4 million nested arrays (`[[[…]]]`, 2.8 MB; 2,751 bytes gzipped),
 * `nestedBytes` of `[` uncompressed, and a sign-in of `oversizeBytes` (its password too long).
 */
export function startHostileSenders(options: {
  url: string;
  senders: number;
  maxEach: number;
  underwayAfter: number;
  nestedBytes: number;
  oversizeBytes: number;
}): HostileSenders {
  const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD], {
    env: { ...process.env, HOSTILE: JSON.stringify(options) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  let onUnderway: () => void = () => {};
  const underway = new Promise<void>((resolve) => {
    onUnderway = resolve;
  });
  let report: HostileReport = { answered: 0, statuses: { "no report": 1 } };
  lines.on("line", (line) => {
    if (line === "underway") onUnderway();
    else report = JSON.parse(line) as HostileReport;
  });
  // After its output is read. A child that ends early (all sent, or failed) counts as under way.
  const closed = once(child, "close");
  void closed.then(() => onUnderway());
  return {
    underway,
    stop: async () => {
      child.stdin.end();
      await closed;
      return report;
    },
  };
}

// The limits of a contract-test run (test/support/schemathesis.ts, contract-schemathesis.test.ts):
// a run is cut when it stops making progress, not after fixed seconds, so that a busy machine
// that makes a healthy run slow (test/README.md, "Under load") does not fail it, while a stuck
// run still ends. Progress is output, or growth of the run's event file.
import { appendFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exec } from "../support/schemathesis.js";

// Longer than any stall of a live child on a loaded machine, short enough to test.
const IDLE_MS = 8_000;
// Each working child runs for longer than IDLE_MS in all, so a total or a misread limit cuts it.
const WORK_MS = 14_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-exec-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A Node child running `body`, with WORK_MS in scope. */
const node = (body: string, progressFile?: string) =>
  exec(process.execPath, ["-e", `const WORK_MS = ${WORK_MS};\n${body}`], {
    timeoutMs: 120_000,
    idleTimeoutMs: IDLE_MS,
    ...(progressFile === undefined ? {} : { progressFile }),
  });

describe.concurrent("a run is cut when it stops making progress, not when it is slow", () => {
  it("a child that keeps printing runs past the idle limit to its end", async () => {
    const started = Date.now();
    const r = await node(
      "const end = Date.now() + WORK_MS; const t = setInterval(() => { process.stdout.write('.'); if (Date.now() > end) { clearInterval(t); console.log('done'); } }, 200);",
    );
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/done\n$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WORK_MS);
  }, 60_000);

  it("a silent child whose progress file grows runs to its end", async () => {
    const file = path.join(dir, "events.ndjson");
    const r = await node(
      `const fs = require("node:fs"); const end = Date.now() + WORK_MS; const t = setInterval(() => { fs.appendFileSync(${JSON.stringify(file)}, "{}\\n"); if (Date.now() > end) clearInterval(t); }, 200);`,
      file,
    );
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  }, 60_000);

  it("a child silent for the idle limit is killed, and reported as timed out", async () => {
    const file = path.join(dir, "still.ndjson");
    appendFileSync(file, "{}\n"); // exists, but never grows
    const started = Date.now();
    const r = await node("console.log('started'); setTimeout(() => {}, 100_000);", file);
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe("SIGKILL");
    expect(r.stdout).toBe("started\n");
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(IDLE_MS);
    expect(took).toBeLessThan(60_000);
  }, 60_000);
});

import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const HOOK = fileURLToPath(new URL("../support/package-loads.mjs", import.meta.url));

// README ("Operator CLI"): a command loads what it runs when it runs, so `--help` answers at
// once and a command on the database does not load the server's HTTP stack, sharp, the
// importers or the remote client.
describe("what a CLI command loads", () => {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** The npm packages `pressroom …args` loaded, with its result. */
  async function packagesOf(args: string[], env: Record<string, string> = {}) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pressroom-cli-loads-"));
    made.push(dir);
    const log = path.join(dir, "packages.txt");
    const result = await runCli(args, {
      ...env,
      NODE_OPTIONS: `--import=${HOOK}`,
      PRESSROOM_PACKAGE_LOG: log,
    });
    const packages = (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);
    return { result, packages };
  }

  it("`--help` loads no package", async () => {
    const { result, packages } = await packagesOf(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: pressroom <command>");
    expect(packages).toEqual([]);
  });

  it("`workspace list` loads the driver and the stores, not the HTTP stack, sharp, the importers or the remote client", async () => {
    // Nothing listens on port 1: the command loads what it runs, then cannot connect.
    const { result, packages } = await packagesOf(["workspace", "list"], {
      MONGODB_URI: "mongodb://127.0.0.1:1/",
      DB_TIMEOUT_MS: "300",
    });
    expect(result.code).not.toBe(0);
    expect(packages).toContain("mongodb");
    expect(packages).toContain("marked");
    for (const server of ["express", "express-openapi-validator", "helmet", "prom-client"]) {
      expect(packages).not.toContain(server);
    }
    for (const other of ["sharp", "turndown", "yaml", "openapi-fetch"]) {
      expect(packages).not.toContain(other);
    }
  });
});

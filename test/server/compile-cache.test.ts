import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

/** Every file under a directory, recursively; none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

// README ("Production"): `pressroom` keeps V8's compiled code of its modules in Node's compile
// cache, in the OS temp directory unless NODE_COMPILE_CACHE names one, so that the next start
// or command compiles less; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
describe("the CLI's compile cache", () => {
  const made: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pressroom-compile-cache-"));
    made.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("a command leaves the compiled code of its modules in the temp directory's cache", async () => {
    const tmp = await tempDir();
    // `workspace list` loads the driver and the stores (hundreds of modules; `--help` loads ten),
    // then finds nothing listening on port 1.
    const result = await runCli(["workspace", "list"], {
      TMPDIR: tmp,
      MONGODB_URI: "mongodb://127.0.0.1:1/",
      DB_TIMEOUT_MS: "300",
    });
    expect(result.code).not.toBe(0);
    expect((await filesUnder(path.join(tmp, "node-compile-cache"))).length).toBeGreaterThan(100);
  });

  it("NODE_DISABLE_COMPILE_CACHE=1 leaves none", async () => {
    const tmp = await tempDir();
    const result = await runCli(["--help"], { TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(result.code).toBe(0);
    expect(await filesUnder(path.join(tmp, "node-compile-cache"))).toEqual([]);
  });
});

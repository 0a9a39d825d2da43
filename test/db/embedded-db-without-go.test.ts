// `npm start` on a machine without Go: with every `go` hidden from PATH, the embedded database is
// built by the official Go toolchain fetched from the Go module proxy (server/src/platform/
// embedded-db/go-toolchain.ts), and it starts and answers. The build goes to a directory of its own, so it
// really runs; the caches are the user's: the toolchain (~/.cache/pressroom, 72 MB from GOPROXY)
// is downloaded only by the first run on a machine, and Go's build cache, warm after
// `npm run build:db`, makes the build itself take seconds.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { expect, it } from "vitest";
import {
  defaultCacheDir,
  hostPlatform,
} from "../../server/src/platform/embedded-db/go-toolchain.js";
import { startEmbeddedDb } from "../../server/src/platform/embedded-db/launcher.js";

const pin = JSON.parse(
  await readFile(new URL("../../server/embedded-db/go-toolchain.json", import.meta.url), "utf8"),
) as { version: string; h1: Record<string, string> };
const platform = hostPlatform() ?? "";

it.skipIf(!pin.h1[platform])(
  "with go hidden from PATH, the embedded database is built with the fetched Go toolchain and starts",
  async () => {
    const PATH = (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => dir !== "" && !existsSync(path.join(dir, "go")))
      .join(path.delimiter);
    const env = { ...process.env, PATH };
    expect(spawnSync("go", ["version"], { env }).error).toMatchObject({ code: "ENOENT" });

    const binDir = await mkdtemp(path.join(tmpdir(), "pressroom-nogo-bin-"));
    const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-nogo-data-"));
    const started = Date.now();
    const lines: string[] = [];
    const onProgress = (line: string) => {
      lines.push(line);
      console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);
    };
    const db = await startEmbeddedDb({ dataDir, binDir, env, onProgress });
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 10_000 });
    try {
      const goroot = path.join(defaultCacheDir(process.env), `${pin.version}.${platform}`);
      expect(lines).toContain(
        `  \`go\` is not on PATH: using the official Go toolchain ${pin.version} (kept in ${path.dirname(goroot)})`,
      );
      expect(lines).toContain(`  Go: ${goroot}/bin/go (${pin.version})`);
      expect(lines.some((line) => line.startsWith("Embedded database built in"))).toBe(true);
      expect(existsSync(path.join(binDir, "pressroom-db"))).toBe(true);

      const things = client.db("nogo").collection<{ _id: string; n: number }>("things");
      await things.insertOne({ _id: "a", n: 1 });
      expect(await things.findOne({ _id: "a" })).toEqual({ _id: "a", n: 1 });
    } finally {
      await client.close();
      await db.stop();
      await rm(binDir, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  300_000,
);

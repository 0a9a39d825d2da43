import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import {
  type EmbeddedDb,
  startEmbeddedDb,
} from "../../server/src/platform/embedded-db/launcher.js";
import { resetScanDir } from "./secret-scan.js";

declare module "vitest" {
  export interface ProvidedContext {
    mongoUri: string;
  }
}

/**
 * Tests run against MONGODB_URI when it is set (any MongoDB 6/7 or FerretDB); otherwise
 * against a throwaway embedded database started here, once for the whole run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  resetScanDir();
  const external = process.env.MONGODB_URI;
  if (external !== undefined && external !== "") {
    project.provide("mongoUri", external);
    return async () => {};
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-test-db-"));
  const db: EmbeddedDb = await startEmbeddedDb({
    dataDir,
    onProgress: (line) => console.log(line),
  });
  project.provide("mongoUri", db.uri);
  return async () => {
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

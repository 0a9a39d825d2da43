// The last check of `pressroom db restore` (restore.ts) before it replaces anything: FerretDB
// itself opens the staged copy and reads every document.
import { copyFile, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { MongoClient } from "mongodb";
import type { Config } from "../config.js";
import { DomainError } from "../domain-error.js";
import type { FileReport } from "./backup.js";
import { startEmbeddedDb } from "./launcher.js";

/**
 * What a user means by "the backup is good": FerretDB opens it and reads every document. Starts
 * the launcher on a scratch directory holding a copy of `staged`, reads each collection through
 * the driver and requires the counts SQLite gave (`verified`). The scratch directory is removed.
 */
export async function checkFerretDbReads(
  config: Config,
  staged: string,
  verified: FileReport,
  scratch: string,
): Promise<void> {
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  try {
    await copyFile(staged, path.join(scratch, `${config.mongodbDb}.sqlite`));
    const embedded = await startEmbeddedDb({ dataDir: scratch, onProgress: () => {} });
    const client = new MongoClient(embedded.uri, { serverSelectionTimeoutMS: 30_000 });
    try {
      const db = client.db(config.mongodbDb);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      for (const { name, documents } of verified.collections) {
        if (!names.includes(name)) throw new Error(`FerretDB does not list collection ${name}`);
        let read = 0;
        for await (const _ of db.collection(name).find({}, { projection: { _id: 1 } })) read++;
        if (read !== documents) {
          throw new Error(
            `collection ${name}: FerretDB read ${read} documents, SQLite has ${documents}`,
          );
        }
      }
    } finally {
      await client.close();
      await embedded.stop();
    }
  } catch (err) {
    throw new DomainError(
      "invalid",
      `The backup does not open in FerretDB: ${(err as Error).message}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

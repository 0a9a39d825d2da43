import { randomBytes } from "node:crypto";
import { type Db, MongoClient } from "mongodb";
import { inject } from "vitest";
import { ensureIndexes } from "../../server/src/platform/db/indexes.js";
import { onFileEnd } from "./cleanup.js";
import { recordDatabase } from "./secret-scan.js";

export interface TestDb {
  readonly uri: string;
  readonly name: string;
  readonly client: MongoClient;
  readonly db: Db;
  /** Every command sent through `client` (and so by servers started on `db`), for assertions. */
  readonly commands: { name: string; collection: unknown; command: Record<string, unknown> }[];
}

/** A database of this test file's own (dropped afterwards), with the server's indexes. */
export async function useTestDb(): Promise<TestDb> {
  const uri = inject("mongoUri");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000, monitorCommands: true });
  const commands: TestDb["commands"] = [];
  client.on("commandStarted", (event) => {
    commands.push({
      name: event.commandName,
      collection: event.command[event.commandName],
      command: event.command,
    });
  });
  await client.connect();
  const db = client.db(name);
  await ensureIndexes(db);
  onFileEnd(async () => {
    // Everything stored goes to the run-wide secrets scan before the database is dropped.
    const docs: string[] = [];
    for (const { name: collection } of await db.listCollections().toArray()) {
      for (const doc of await db.collection(collection).find({}).toArray())
        docs.push(JSON.stringify(doc));
    }
    recordDatabase(docs);
    await db.dropDatabase().catch(() => {});
    await client.close();
  });
  return { uri, name, client, db, commands };
}

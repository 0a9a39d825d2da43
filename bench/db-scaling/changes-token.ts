/**
 * A changes-feed token that is caught up with workspace `workspaceId`: what a mirror that synced
 * a moment ago holds. It is signed as the server signs one (change-token.ts, the database's own
 * key) at the log's start instead of walking the whole released list first, then followed to
 * the end (recording any blog still marked), so the no-change call is what gets measured.
 */
import { MongoClient } from "mongodb";
import { changeTokens } from "../../server/src/changes/change-token.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";

export async function caughtUpToken(
  uri: string,
  dbName: string,
  workspaceId: string,
): Promise<string> {
  const mongo = new MongoClient(uri);
  try {
    const db = mongo.db(dbName);
    const { changes } = createStores(db);
    let token = await changeTokens(collections(db)).encode({
      workspaceId,
      seq: 0,
      since: Date.now(),
    });
    for (let page = 0; page < 10_000; page++) {
      const next = await changes.page(workspaceId, token, 100);
      token = next.nextToken;
      if (!next.hasMore) return token;
    }
    throw new Error("the changes feed did not end");
  } finally {
    await mongo.close();
  }
}

/**
 * A changes-feed token that is caught up with workspace `workspaceId`, made the way the server
 * makes one (change-token.ts, with the database's own key) instead of by walking the whole feed
 * first: what a mirror that synced a moment ago holds. The no-change call is then measured.
 */
import { MongoClient } from "mongodb";
import { changeLog } from "../../server/src/changes/change-log.js";
import { changeTokens } from "../../server/src/changes/change-token.js";
import { collections } from "../../server/src/db/collections.js";

export async function caughtUpToken(
  uri: string,
  dbName: string,
  workspaceId: string,
): Promise<string> {
  const mongo = new MongoClient(uri);
  try {
    const c = collections(mongo.db(dbName));
    const seq = await changeLog(c).last(workspaceId);
    return await changeTokens(c).encode({ workspaceId, seq, since: Date.now() });
  } finally {
    await mongo.close();
  }
}

import { MongoClient } from "mongodb";

/**
 * A driver client whose waits are all bounded by `timeoutMs`, so a database outage turns into
 * prompt 500s rather than hung requests; the driver reconnects by itself when it is back.
 */
export async function connectMongo(uri: string, timeoutMs: number): Promise<MongoClient> {
  const client = new MongoClient(uri, {
    appName: "pressroom",
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    // No operation of ours is slow: a socket silent for twice the bound means a stalled database.
    socketTimeoutMS: timeoutMs * 2,
    waitQueueTimeoutMS: timeoutMs,
    maxPoolSize: 50,
  });
  await client.connect();
  return client;
}

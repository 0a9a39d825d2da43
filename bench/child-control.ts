/**
 * Shared by both benchmark servers (each runs in its own child process, started with `fork`):
 * the database client both use, command counters, and an IPC control channel through which the
 * parent reads this process's CPU time and RSS. Nothing here runs in Pressroom itself.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { Session } from "node:inspector/promises";
import { Collection, FindCursor, type MongoClient } from "mongodb";
import { connectMongo } from "../server/src/db/mongo.js";

export interface Counters {
  /** `update` statements sent to `apiKeys` (one bulk write of N keys counts N). */
  apiKeyUpdates: number;
  /** Blog documents returned by the database, and how many of them carried a body field. */
  blogDocs: number;
  blogDocsWithBody: number;
  /**
   * Responses the HTTP server finished, and requests in flight. A request whose client went away
   * first (autocannon stopping mid-request) is no longer in flight but not a response: counted
   * as one, it made a per-request figure the mean over one request more than did the work.
   */
  responses: number;
  inFlight: number;
}

export interface Stats {
  cpuMicros: number;
  rssBytes: number;
  /** Highest RSS since the last `reset-peak` (see `peakRssTracker`). */
  peakRssBytes: number;
  counters: Counters;
}

export type ControlMessage =
  | { type: "stats"; id: number }
  | { type: "reset-peak"; id: number }
  /** V8's sampling CPU profiler (`--cpu-profile`): start, then stop and write a .cpuprofile. */
  | { type: "profile-start"; id: number }
  | { type: "profile-stop"; id: number; file: string };

export const counters: Counters = {
  apiKeyUpdates: 0,
  blogDocs: 0,
  blogDocsWithBody: 0,
  responses: 0,
  inFlight: 0,
};

/**
 * The server's own driver client (`connectMongo`, 5 s bound). Counting is done by wrapping
 * three driver methods in this process (not by command monitoring: with `monitorCommands` the
 * driver deserialises every reply a second time, which would distort the CPU figures).
 */
export function benchMongoClient(uri: string): Promise<MongoClient> {
  return connectMongo(uri, 5000);
}

const countBlogDocs = (docs: readonly unknown[]): void => {
  counters.blogDocs += docs.length;
  for (const doc of docs) {
    if (typeof doc === "object" && doc !== null && "bodyMarkdown" in doc) {
      counters.blogDocsWithBody += 1;
    }
  }
};

/** Wraps bulkWrite/updateOne (apiKeys writes) and findOne/toArray (blog documents read). */
function instrumentDriver(): void {
  const collection = Collection.prototype as unknown as Record<string, unknown>;
  const bulkWrite = Collection.prototype.bulkWrite;
  collection.bulkWrite = function (this: Collection, ops: unknown[], ...rest: unknown[]) {
    if (this.collectionName === "apiKeys") counters.apiKeyUpdates += ops.length;
    return (bulkWrite as (...a: unknown[]) => unknown).call(this, ops, ...rest);
  };
  const updateOne = Collection.prototype.updateOne;
  collection.updateOne = function (this: Collection, ...args: unknown[]) {
    if (this.collectionName === "apiKeys") counters.apiKeyUpdates += 1;
    return (updateOne as (...a: unknown[]) => unknown).apply(this, args);
  };
  const findOne = Collection.prototype.findOne;
  collection.findOne = async function (this: Collection, ...args: unknown[]) {
    const doc = await (findOne as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    if (this.collectionName === "blogs" && doc !== null) countBlogDocs([doc]);
    return doc;
  };
  const toArray = FindCursor.prototype.toArray;
  (FindCursor.prototype as unknown as Record<string, unknown>).toArray = async function (
    this: FindCursor,
  ) {
    const docs = await toArray.call(this);
    if (this.namespace.collection === "blogs") countBlogDocs(docs);
    return docs;
  };
}
instrumentDriver();

let profiler: Session | undefined;

async function profile(message: ControlMessage): Promise<void> {
  if (message.type === "profile-start") {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  } else if (message.type === "profile-stop" && profiler !== undefined) {
    const { profile } = await profiler.post("Profiler.stop");
    await writeFile(message.file, JSON.stringify(profile));
    profiler.disconnect();
    profiler = undefined;
  }
}

/**
 * Peak RSS since the last reset. On Linux, the kernel's own high-water mark (`VmHWM` in
 * /proc/self/status), reset by writing "5" to /proc/self/clear_refs: exact, and free. Elsewhere
 * RSS is sampled every 50 ms, which costs some 4 ms of CPU per second — in the idle rate too,
 * so it is subtracted again, but it adds noise to the small CPU figures of the list scenarios.
 */
function peakRssTracker(): { peak(): number; reset(): void } {
  const status = "/proc/self/status";
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    const highWaterMark = () => {
      const kB = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(status, "utf8"))?.[1];
      if (kB === undefined) throw new Error(`no VmHWM in ${status}`);
      return Number(kB) * 1024;
    };
    highWaterMark();
    return { peak: highWaterMark, reset: () => writeFileSync("/proc/self/clear_refs", "5") };
  } catch {
    let peak = process.memoryUsage.rss();
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage.rss());
    };
    setInterval(sample, 50).unref();
    return {
      peak: () => {
        sample();
        return peak;
      },
      reset: () => {
        peak = process.memoryUsage.rss();
      },
    };
  }
}

/** Answers the parent's control messages. */
export function serveControl(): void {
  const rssPeak = peakRssTracker();
  process.on("message", async (message: ControlMessage) => {
    await profile(message);
    if (message.type === "reset-peak") rssPeak.reset();
    const { user, system } = process.cpuUsage();
    const stats: Stats = {
      cpuMicros: user + system,
      rssBytes: process.memoryUsage.rss(),
      peakRssBytes: rssPeak.peak(),
      counters: { ...counters },
    };
    process.send?.({ id: message.id, stats });
  });
  // The parent going away ends us too.
  process.on("disconnect", () => process.exit(0));
}

/** Counts the server's requests in flight and responses done, seen from the server's side. */
export function trackServer(server: Server): void {
  server.prependListener("request", (_req, res) => {
    counters.inFlight += 1;
    res.once("close", () => {
      counters.inFlight -= 1;
      if (res.writableFinished) counters.responses += 1;
    });
  });
}

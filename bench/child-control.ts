/**
 * Shared by both benchmark servers (each runs in its own child process, started with `fork`):
 * the database client both use, their response counters, and an IPC control channel through
 * which the parent reads this process's CPU time and RSS. Nothing here runs in Pressroom itself.
 * The servers' database work (`lastUsedAt` writes, blog documents read) is counted outside
 * them, by bench/db-counter.ts between each server and the database.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { Session } from "node:inspector/promises";
import type { MongoClient } from "mongodb";
import { connectMongo } from "../server/src/platform/db/mongo.js";

export interface ServerCounters {
  /**
   * Responses the HTTP server finished, and requests in flight. A request whose client went away
   * first (autocannon stopping mid-request) is no longer in flight but not a response: counted
   * as one, it made a per-request figure the mean over one request more than did the work.
   */
  responses: number;
  inFlight: number;
}

export interface ServerStats {
  cpuMicros: number;
  rssBytes: number;
  /** Highest RSS since the last `reset-peak` (see `peakRssTracker`). */
  peakRssBytes: number;
  counters: ServerCounters;
}

export type ControlMessage =
  | { type: "stats"; id: number }
  | { type: "reset-peak"; id: number }
  /** V8's sampling CPU profiler (`--cpu-profile`): start, then stop and write a .cpuprofile. */
  | { type: "profile-start"; id: number }
  | { type: "profile-stop"; id: number; file: string };

const counters: ServerCounters = { responses: 0, inFlight: 0 };

/** The server's own driver client (`connectMongo`, 5 s bound), with the driver's defaults. */
export function benchMongoClient(uri: string): Promise<MongoClient> {
  return connectMongo(uri, 5000);
}

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
    const stats: ServerStats = {
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

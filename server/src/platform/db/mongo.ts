import { MongoClient, type MongoClientOptions } from "mongodb";

/** Called when the driver's monitor was found stuck and the client is being reconnected. */
export type OnMonitorStuck = (message: string) => void;

const defaultOnMonitorStuck: OnMonitorStuck = (message) => {
  process.emitWarning(message, "MongoMonitorStuck");
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A driver client that gets itself out of a stuck server monitor.
 *
 * After a database outage the driver serves again only once its monitor (one per server) has
 * seen the server answer a heartbeat: until then the server stays `Unknown`, its pool paused,
 * and every operation fails server selection. Driver 7.9 can lose that monitor for good. When
 * the database drops the connections (an outage, a restart), Node destroys the monitor's
 * socket one event-loop turn before it emits `close`; a heartbeat requested in that turn (an
 * operation that just failed asks for one at once) writes to the destroyed socket, and
 * `socket.write` then returns false with neither `error` nor `drain` ever following. The
 * driver waits for `drain` with no timeout (its socket timeout does not run on a destroyed
 * socket, and where it does run it destroys the socket without an error, which ends that wait
 * no better), so the heartbeat never ends, the monitor ignores every later request for a check
 * while one is running, and the server is never marked reachable again. Its own way out, a
 * monitor reset on network errors, only runs for servers that report a `topologyVersion`
 * (MongoDB 4.4+), not for the embedded FerretDB, and not at all once operations stop reaching
 * the pool.
 *
 * Every heartbeat the driver starts ends, by its own timeouts, within twice `connectTimeoutMS`
 * (connect, then handshake), plus `heartbeatFrequencyMS` for an awaited (streaming) one. One
 * still running a further `connectTimeoutMS` (at least 1 s, for a busy event loop) later is
 * stuck: the client is then closed (which drops the monitor and its pool) and connected again,
 * until that succeeds (the database may still be down), on the same `MongoClient`, so every
 * `Db` and collection handed out keeps working.
 */
class SelfHealingMongoClient extends MongoClient {
  readonly #timeoutMs: number;
  readonly #onStuck: OnMonitorStuck;
  /** Heartbeats started and not yet ended, by server address. */
  readonly #heartbeats = new Map<string, { startedAt: number; awaited: boolean }>();
  readonly #watchdog: NodeJS.Timeout;
  #recovering: Promise<void> | undefined;
  #closed = false;

  constructor(
    uri: string,
    options: MongoClientOptions,
    timeoutMs: number,
    onStuck: OnMonitorStuck,
  ) {
    super(uri, options);
    this.#timeoutMs = timeoutMs;
    this.#onStuck = onStuck;
    this.on("serverHeartbeatStarted", (event) => {
      this.#heartbeats.set(event.connectionId, {
        startedAt: performance.now(),
        awaited: event.awaited,
      });
    });
    this.on("serverHeartbeatSucceeded", (event) => this.#heartbeats.delete(event.connectionId));
    this.on("serverHeartbeatFailed", (event) => this.#heartbeats.delete(event.connectionId));
    this.#watchdog = setInterval(() => this.#checkMonitors(), Math.max(100, timeoutMs / 2));
    this.#watchdog.unref();
  }

  #checkMonitors(): void {
    if (this.#closed || this.#recovering !== undefined) return;
    const now = performance.now();
    for (const [address, { startedAt, awaited }] of this.#heartbeats) {
      const ownBound = 2 * this.#timeoutMs + (awaited ? this.options.heartbeatFrequencyMS : 0);
      const bound = ownBound + Math.max(this.#timeoutMs, 1000);
      const runningMs = now - startedAt;
      if (runningMs > bound) {
        this.#recovering = this.#reconnect(address, runningMs).finally(() => {
          this.#recovering = undefined;
        });
        return;
      }
    }
  }

  async #reconnect(address: string, runningMs: number): Promise<void> {
    this.#onStuck(
      `The MongoDB driver's heartbeat to ${address} has been running for ${Math.round(runningMs)} ms ` +
        "(its own timeouts end one well before): its monitor is stuck. Reconnecting the client.",
    );
    this.#heartbeats.clear();
    await super.close().catch(() => {});
    while (!this.#closed) {
      try {
        await super.connect();
        return;
      } catch {
        // Still down (each attempt waits serverSelectionTimeoutMS): try again.
        if (!this.#closed) await sleep(Math.min(this.#timeoutMs, 1000));
      }
    }
  }

  override async close(force?: boolean): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watchdog);
    await this.#recovering;
    await super.close(force);
  }
}

/**
 * A driver client whose waits are all bounded by `timeoutMs`, so a database outage turns into
 * prompt 500s rather than hung requests; the driver reconnects by itself when it is back, and
 * the client reconnects itself if the driver's monitor gets stuck (see SelfHealingMongoClient).
 */
export async function connectMongo(
  uri: string,
  timeoutMs: number,
  onMonitorStuck: OnMonitorStuck = defaultOnMonitorStuck,
  /** Emit command events, which time every round trip for the metrics (platform/metrics/db-commands.ts). */
  monitorCommands = false,
): Promise<MongoClient> {
  const options: MongoClientOptions = {
    appName: "pressroom",
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    // No operation of ours is slow: a socket silent for twice the bound means a stalled database.
    socketTimeoutMS: timeoutMs * 2,
    waitQueueTimeoutMS: timeoutMs,
    maxPoolSize: 50,
    monitorCommands,
  };
  const client = new SelfHealingMongoClient(uri, options, timeoutMs, onMonitorStuck);
  try {
    await client.connect();
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}

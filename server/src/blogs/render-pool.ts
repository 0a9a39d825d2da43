import { MessageChannel, Worker } from "node:worker_threads";
import { Piscina } from "piscina";
import { DomainError } from "../platform/domain-error.js";
import { fairRenderQueue, type RenderTag } from "./fair-render-queue.js";
import type { RenderedBody, RenderRefusal } from "./render.js";
import { renderBody } from "./render.js";
import { type ThreadCpuClock, watchRenderTime } from "./render-time-limit.js";
import type { RenderStart, RenderTask } from "./render-worker.js";

/**
 * Turns a saved body into its HTML and excerpt; refuses a body (`RenderRefused`, "unprocessable":
 * 422) and, when overloaded, every body ("unavailable": 503 with Retry-After).
 */
export interface BodyRenderer {
  /** `tag`: whose render it is, for the pool's per-workspace and per-user turns and limits. */
  render(source: string, tag: RenderTag): Promise<RenderedBody>;
  /**
   * Throws the busy refusal (DomainError "unavailable") that `render` would throw for `tag` if
   * called now, so that a request can be refused before its body is read and parsed; a render
   * let through is still admitted by `render` itself.
   */
  admit(tag: RenderTag): void;
  /** Has a renderer ready, so that the first save after a start does not wait for one. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export interface RenderPoolOptions {
  /**
   * Most a single render may take before its worker is terminated (the body is refused): ms of
   * its thread's CPU time where the runtime can read it, else of wall-clock time
   * (render-time-limit.ts); never more than WALL_CAP_FACTOR times this in wall-clock time.
   */
  readonly timeoutMs: number;
  /**
   * How much lower than the request thread's the render threads' CPU priority is (a nice
   * increment, 0-19; Linux, per thread). Applied only where the limit counts CPU time, since a
   * starved render would otherwise be refused for time it never got.
   */
  readonly nice: number;
  /** Worker threads, all kept running (RENDER_THREADS; platform/config.ts has the default). */
  readonly threads: number;
  /** Renders of one workspace waiting or running, beyond which it is refused as busy. */
  readonly workspacePending: number;
  /** Previews of one user waiting or running, beyond which that user's are refused as busy. */
  readonly previewPerUser: number;
  /**
   * Renders of one workspace running at once; default one thread less than `threads` (at least
   * 1), so another workspace always has a thread. The CLI's import (one workspace) uses all.
   */
  readonly workspaceRunning?: number;
}

/** A body the renderer refused, with the refusal itself for callers that save nothing. */
export class RenderRefused extends DomainError {
  constructor(readonly refusal: RenderRefusal) {
    super("unprocessable", `${refusal.message} Nothing was saved.`);
  }
}

/** Longest a timed-out render's turn waits for its worker's replacement to be ready. */
const REPLACEMENT_WAIT_MS = 10_000;

/** A render is cut after this many times `timeoutMs` of wall-clock time, however starved. */
const WALL_CAP_FACTOR = 3;

/** Whether this runtime can read a worker thread's CPU time from outside it. */
const threadCpuReadable = (): boolean =>
  typeof process.threadCpuUsage === "function" &&
  typeof (Worker.prototype as Partial<Worker>).cpuUsage === "function";

const refused = (refusal: RenderRefusal): DomainError => new RenderRefused(refusal);
const isRefusal = (r: RenderedBody | RenderRefusal): r is RenderRefusal => "reason" in r;

/**
 * Markdown rendering off the request thread. `marked` takes time that grows with the square of
 * some inputs (and recursion with their nesting), so every body is rendered in a worker thread
 * of a piscina pool at a lower CPU priority: the event loop that serves consumers never waits for
 * it, and a render that has taken `timeoutMs` of its thread's CPU time (render-time-limit.ts;
 * counted from when a worker starts it, not from when it was queued) is aborted, which
 * terminates that worker (piscina starts a fresh one). Nothing is saved then:
 * the body is refused (the API answers 422). Renders are handed to the pool only when a thread
 * is free, in the turns of a fair queue (fair-render-queue.ts): per workspace, round-robin, at
 * most `workspaceRunning` of one workspace at once, and past a workspace's, a user's (previews)
 * or, as the last backstop, everyone's pending limit refused as busy (503 with `Retry-After`), so
 * a flood of slow bodies cannot queue without bound and costs the workspace sending it alone.
 */
export function renderPool(options: RenderPoolOptions): BodyRenderer {
  const { threads, workspacePending } = options;
  const queue = fairRenderQueue({
    running: threads,
    workspaceRunning: options.workspaceRunning ?? Math.max(1, threads - 1),
    workspacePending,
    previewPerUser: options.previewPerUser,
    // Never reachable by one workspace alone.
    maxPending: Math.max(threads * 8, workspacePending * 2),
    retryAfterSeconds: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
  });
  const cpuLimited = threadCpuReadable();
  // Under vitest and tsx the sources run as TypeScript: the worker loads them through tsx too.
  const typescript = import.meta.url.endsWith(".ts");
  const pool = new Piscina<RenderTask, RenderedBody | RenderRefusal>({
    filename: new URL(`./render-worker.${typescript ? "ts" : "js"}`, import.meta.url).href,
    // Every worker is kept (and started with the pool): without one a save or a preview after a
    // minute's pause waited ~0.1 s for a new thread to load the renderer, and a workspace's save
    // beside another's slow renders waited for a thread to start after each one timed out.
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: typescript ? ["--import", "tsx"] : [],
    // A render needs little memory; a runaway one is cut rather than growing the process.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    // Renders yield the CPU to the request thread and the database (piscina applies it per
    // thread through @napi-rs/nice): one workspace's slow bodies then cost the consumers of the
    // others little even when the machine has few cores. Only with a CPU-time limit: a starved
    // render outlived a wall-clock one, and a trivial body was refused with 422.
    niceIncrement: cpuLimited ? options.nice : 0,
  });

  /** The CPU clock of the pool's thread `threadId`, or nothing where it cannot be read. */
  const clockOf = (threadId: number): ThreadCpuClock | undefined => {
    const worker = cpuLimited ? pool.threads.find((w) => w.threadId === threadId) : undefined;
    if (worker === undefined) return undefined;
    return async () => {
      const { user, system } = await worker.cpuUsage();
      return (user + system) / 1000;
    };
  };

  /**
   * Resolves when a worker replacing a terminated one is ready (piscina's `workerCreate`), or
   * after `REPLACEMENT_WAIT_MS` at the latest (a closing pool starts none).
   */
  const replacement = (): Promise<void> =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        pool.off("workerCreate", done);
        resolve();
      };
      const timer = setTimeout(done, REPLACEMENT_WAIT_MS);
      pool.once("workerCreate", done);
    });

  const renderOnce = async (source: string): Promise<RenderedBody> => {
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let watch: { stop(): void } | undefined;
    let replaced: Promise<void> | undefined;
    port1.once("message", (start: RenderStart) => {
      const clock = clockOf(start.threadId);
      watch = watchRenderTime({
        limitMs: options.timeoutMs,
        wallCapMs: options.timeoutMs * WALL_CAP_FACTOR,
        ...(clock !== undefined && start.cpuMs !== undefined
          ? { cpu: { clock, startMs: start.cpuMs } }
          : {}),
        expire: () => {
          replaced = replacement();
          abort.abort();
        },
      });
    });
    try {
      const result = await pool.run(
        { source, started: port2 },
        { transferList: [port2], signal: abort.signal },
      );
      if (isRefusal(result)) throw refused(result);
      return result;
    } catch (err) {
      if (abort.signal.aborted) {
        // The render's thread is taken until its worker's replacement is ready: the workspace
        // whose body timed out waits for it, not the next workspace's render.
        await replaced;
        throw refused({
          reason: "timeout",
          message: `bodyMarkdown could not be rendered within ${options.timeoutMs} ms.`,
        });
      }
      if ((err as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
        throw refused({ reason: "timeout", message: "bodyMarkdown is too complex to render." });
      }
      throw err;
    } finally {
      watch?.stop();
      port1.close();
    }
  };

  const renderer: BodyRenderer = {
    render: (source, tag) => queue.run(tag, () => renderOnce(source)),
    admit: (tag) => queue.admit(tag),
    warmUp: async () => {
      await renderOnce("Warm-up.");
    },
    close: () => pool.destroy(),
  };
  return renderer;
}

/**
 * The same render on the calling thread, unbounded in time: for the operator's CLI and for
 * seeding, which render bodies of their own and serve nobody meanwhile.
 */
export const inlineRenderer: BodyRenderer = {
  async render(source) {
    const result = renderBody(source);
    if (isRefusal(result)) throw refused(result);
    return result;
  },
  admit: () => {},
  warmUp: async () => {},
  close: async () => {},
};

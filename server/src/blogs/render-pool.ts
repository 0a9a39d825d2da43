import { getPriority, setPriority } from "node:os";
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
   * How much lower than the request thread's a long render's CPU priority becomes (a nice
   * increment, 0-19; Linux, per thread). Applied only where the limit counts CPU time, since a
   * starved render would otherwise be refused for time it never got.
   */
  readonly nice: number;
  /** CPU time (ms) a render takes at the request thread's priority before `nice` applies. */
  readonly niceAfterMs: number;
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
 * of a piscina pool: the event loop that serves consumers never waits for it. A render runs at
 * the request thread's CPU priority for its first `niceAfterMs` of CPU time (an ordinary body
 * takes a few ms) and `nice` lower after that, so a long one takes only the CPU that consumers,
 * the database and other workspaces' short renders leave; its thread is then replaced, since its
 * priority cannot be raised again. (With every render niced from its start, an ordinary save
 * beside another workspace's slow renders got a fiftieth of a core: 2 ms of rendering took
 * 100 ms.) A render that has taken `timeoutMs` of its thread's CPU time (render-time-limit.ts;
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
  // The request thread's priority (getpriority of the calling thread, on Linux), and a long
  // render's: never past 19, the lowest.
  const ownPriority = getPriority();
  const lowered = Math.min(19, ownPriority + options.nice);
  const demotes = cpuLimited && lowered > ownPriority;
  /** Threads whose priority was lowered: given no further render, replaced once theirs ends. */
  const retiring = new Set<number>();
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
    // Every render is given an idle thread (the fair queue hands one over only when a thread is
    // free), never a thread being retired.
    loadBalancer: (_task, workers) =>
      workers.find(
        (w) => w.currentUsage === 0 && !w.terminating && !w.destroyed && !retiring.has(w.id),
      ) ?? null,
  });

  /** The worker of the pool's thread `threadId`, if it is still there. */
  const workerOf = (threadId: number): Worker | undefined =>
    pool.threads.find((w) => w.threadId === threadId);

  /** The CPU clock of the pool's thread `threadId`, or nothing where it cannot be read. */
  const clockOf = (threadId: number): ThreadCpuClock | undefined => {
    const worker = cpuLimited ? workerOf(threadId) : undefined;
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

  /**
   * Lowers the priority of the thread `start` runs on for the rest of its render, and marks it
   * for retirement: an unprivileged process cannot raise a thread's priority again, and the next
   * render, of whichever workspace, must not inherit it. False if it could not be lowered.
   */
  const demote = (start: RenderStart): boolean => {
    if (start.tid === undefined) return false;
    try {
      setPriority(start.tid, lowered);
    } catch {
      // The thread has just ended, or this system refuses: the render goes on as it was.
      return false;
    }
    retiring.add(start.threadId);
    return true;
  };

  /** Replaces the retiring thread `threadId` (its render has ended); resolves once replaced. */
  const retire = async (threadId: number): Promise<void> => {
    const worker = workerOf(threadId);
    if (worker !== undefined) {
      const replaced = replacement();
      await worker.terminate();
      await replaced;
    }
    retiring.delete(threadId);
  };

  const renderOnce = async (source: string): Promise<RenderedBody> => {
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let watch: { stop(): void } | undefined;
    let replaced: Promise<void> | undefined;
    let demotedThread: number | undefined;
    port1.once("message", (start: RenderStart) => {
      const clock = clockOf(start.threadId);
      watch = watchRenderTime({
        limitMs: options.timeoutMs,
        wallCapMs: options.timeoutMs * WALL_CAP_FACTOR,
        ...(clock !== undefined && start.cpuMs !== undefined
          ? { cpu: { clock, startMs: start.cpuMs } }
          : {}),
        ...(demotes
          ? {
              demote: {
                afterMs: options.niceAfterMs,
                action: () => {
                  if (demote(start)) demotedThread = start.threadId;
                },
              },
            }
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
      // Like a timed-out render's (whose worker piscina has replaced already), a demoted
      // render's turn lasts until its thread is replaced.
      if (demotedThread !== undefined) {
        if (abort.signal.aborted) retiring.delete(demotedThread);
        else await retire(demotedThread);
      }
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

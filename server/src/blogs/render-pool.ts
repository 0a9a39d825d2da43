import { availableParallelism } from "node:os";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { DomainError } from "../domain-error.js";
import type { RenderedBody, RenderRefusal } from "./render.js";
import { renderBody } from "./render.js";
import type { RenderTask } from "./render-worker.js";

/**
 * Turns a saved body into its HTML and excerpt; refuses a body (`RenderRefused`, "unprocessable":
 * 422) and, when overloaded, every body ("unavailable": 503 with Retry-After).
 */
export interface BodyRenderer {
  render(source: string): Promise<RenderedBody>;
  /** Has a renderer ready, so that the first save after a start does not wait for one. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export interface RenderPoolOptions {
  /** Longest a single render may run before its worker is terminated (the body is refused). */
  readonly timeoutMs: number;
  /** Worker threads; default: one core less than the machine has, at least 1, at most 4. */
  readonly threads?: number;
  /** Renders waiting or running at once, beyond which more are refused as busy; default 8/thread. */
  readonly maxPending?: number;
}

/** A body the renderer refused, with the refusal itself for callers that save nothing. */
export class RenderRefused extends DomainError {
  constructor(readonly refusal: RenderRefusal) {
    super("unprocessable", `${refusal.message} Nothing was saved.`);
  }
}

/** How long a caller refused as busy is asked to wait (Retry-After). */
const BUSY_RETRY_AFTER_SECONDS = 2;

const refused = (refusal: RenderRefusal): DomainError => new RenderRefused(refusal);
const isRefusal = (r: RenderedBody | RenderRefusal): r is RenderRefusal => "reason" in r;

/**
 * Markdown rendering off the request thread. `marked` takes time that grows with the square of
 * some inputs (and recursion with their nesting), so every body is rendered in a worker thread
 * of a piscina pool: the event loop that serves consumers never waits for it, and a render still
 * running after `timeoutMs` (counted from when a worker starts it, not from when it was queued)
 * is aborted, which terminates that worker (piscina starts a fresh one). Nothing is saved then:
 * the body is refused (the API answers 422). At most `maxPending` renders wait or run at once;
 * more are refused as busy (503 with `Retry-After`), so a flood of slow bodies cannot queue
 * without bound.
 */
export function renderPool(options: RenderPoolOptions): BodyRenderer {
  const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const maxPending = options.maxPending ?? threads * 8;
  // Under vitest and tsx the sources run as TypeScript: the worker loads them through tsx too.
  const typescript = import.meta.url.endsWith(".ts");
  const pool = new Piscina<RenderTask, RenderedBody | RenderRefusal>({
    filename: new URL(`./render-worker.${typescript ? "ts" : "js"}`, import.meta.url).href,
    // One worker is kept (and started with the pool): without it a save or a preview after a
    // minute's pause waited ~0.1 s for a new thread to load the renderer.
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: typescript ? ["--import", "tsx"] : [],
    // A render needs little memory; a runaway one is cut rather than growing the process.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    // Renders run at the request thread's CPU priority. A lower one (niceIncrement 10) cut the
    // consumers' p99 beside back-to-back slow saves from 1.7-1.9x to 1.1-1.5x of alone, but a
    // starved render then outlives its wall-clock limit: on a saturated machine a trivial body
    // was refused with 422.
  });
  let pending = 0;

  const renderer: BodyRenderer = {
    async render(source) {
      if (pending >= maxPending) {
        throw new DomainError(
          "unavailable",
          "The server is busy rendering other blogs; retry shortly.",
          BUSY_RETRY_AFTER_SECONDS,
        );
      }
      pending++;
      const abort = new AbortController();
      const { port1, port2 } = new MessageChannel();
      let timer: NodeJS.Timeout | undefined;
      port1.once("message", () => {
        timer = setTimeout(() => abort.abort(), options.timeoutMs);
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
        clearTimeout(timer);
        port1.close();
        pending--;
      }
    },
    warmUp: async () => {
      await renderer.render("Warm-up.");
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
  warmUp: async () => {},
  close: async () => {},
};

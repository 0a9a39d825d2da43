/**
 * The part of autocannon 9's API the benchmark uses. autocannon ships no types and there is no
 * `@types/autocannon` among the dev dependencies; these follow its README and `lib/run.js`.
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    /** One request as `setupRequest` receives and returns it. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface RequestSpec {
      setupRequest?: (request: Request) => Request;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds; ignored when `amount` is set. */
      duration?: number;
      amount?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      requests?: RequestSpec[];
    }

    /** Percentiles (`p50`, `p97_5`, …) plus `average`, `mean`, `stddev`, `min`, `max`, `total`. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      [percentile: string]: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      /** In ms. */
      latency: Histogram;
      /** Per second samples; `total` is all completed requests. */
      requests: Histogram;
      /** Bytes per second samples; `total` is all bytes received. */
      throughput: Histogram;
    }

    /** The running benchmark: an event emitter that is also a promise of its result. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      /** Ends the run at the next sample tick (every second); the promise then resolves. */
      stop(): void;
      on(
        event: "response",
        listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}

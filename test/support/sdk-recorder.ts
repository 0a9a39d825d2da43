import type { FetchLike } from "../../sdk/src/index.js";

/** One HTTP exchange as the SDK's transport saw it. */
export interface Exchange {
  /** The very Request object the SDK handed to fetch. */
  readonly request: Request;
  readonly bodyUsedAtCall: boolean;
  readonly signalAbortedAtCall: boolean;
  /** Filled in when the response arrives (undefined when fetch rejected). */
  status?: number;
  responseHeaders?: Headers;
  /** Bytes of response body that came over the wire. */
  bodyBytes?: number;
}

/** A fetch for `createClient({ fetch })` that records every attempt, then calls the real one. */
export function recordingFetch(inner: FetchLike = (r) => globalThis.fetch(r)): {
  fetch: FetchLike;
  exchanges: Exchange[];
} {
  const exchanges: Exchange[] = [];
  const fetch: FetchLike = async (request) => {
    const exchange: Exchange = {
      request,
      bodyUsedAtCall: request.bodyUsed,
      signalAbortedAtCall: request.signal.aborted,
    };
    exchanges.push(exchange);
    const response = await inner(request);
    exchange.status = response.status;
    exchange.responseHeaders = response.headers;
    exchange.bodyBytes =
      response.body === null ? 0 : (await response.clone().arrayBuffer()).byteLength;
    return response;
  };
  return { fetch, exchanges };
}

/** A Sleep that records each wait and returns at once: exact schedules, fast tests. */
export function recordingSleep(): {
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  waits: number[];
} {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

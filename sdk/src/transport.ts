import createFetchClient, { type Client } from "openapi-fetch";
import { checkTimeout } from "./arguments.js";
import { type CacheStore, cacheKeyPrefix, fetchWithCache, MemoryCacheStore } from "./cache.js";
import { PressroomError } from "./errors.js";
import type { paths } from "./generated/consumer.js";
import {
  type Answer,
  DEFAULT_RETRY,
  defaultSleep,
  type FetchLike,
  fetchWithRetries,
  type RetryContext,
  type RetryPolicy,
  resolveRetry,
} from "./retry.js";
import type { CacheOptions, CallOptions, ClientOptions } from "./types.js";

/** Runs one call of the API: the request through cache → retries → transport, typed outcome. */
export type Runner = <T>(
  call: CallOptions,
  send: (init: { fetch: FetchLike; signal?: AbortSignal }) => Promise<Outcome<T>>,
) => Promise<{ data: T; notModified: boolean }>;

/** What every resource of the client sends its calls through. */
export interface Transport {
  readonly api: Client<paths>;
  readonly run: Runner;
}

/** What a call's openapi-fetch request settles to: its parsed data or error, and the response. */
export interface Outcome<T> {
  readonly data?: T | undefined;
  readonly error?: unknown;
  readonly response: Response;
}

/**
 * The transport of one client: the only place its key, cache store and retry policy live (in
 * this closure). Its resources get it as an argument and send every call through `run`.
 */
export function createTransport(
  apiBase: string,
  apiKey: string,
  options: ClientOptions,
): Transport {
  const timeoutMs = checkTimeout(options.timeoutMs ?? 10_000);
  const policy: RetryPolicy = resolveRetry(DEFAULT_RETRY, options.retry);
  const store = cacheStoreOf(options.cache);
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const onResponse = options.onResponse;
  // Looked up at each request, so a fetch installed after createClient (instrumentation) is used.
  const transport: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const redact = (text: string) => text.split(apiKey).join("[redacted]");
  let keyPrefix: Promise<string> | undefined;

  /** How a call's request is sent: cache → retries → transport. */
  const pipeline =
    (call: CallOptions) =>
    (request: Request): Promise<Answer> => {
      const retry: RetryContext = {
        transport,
        policy: resolveRetry(policy, call.retry),
        timeoutMs: call.timeoutMs === undefined ? timeoutMs : checkTimeout(call.timeoutMs),
        sleep,
        now,
        random: Math.random,
        redact,
      };
      const next = (r: Request) => fetchWithRetries(r, retry);
      if (store === undefined || call.cache === false || request.method !== "GET") {
        return next(request);
      }
      keyPrefix ??= cacheKeyPrefix(apiKey);
      const prefix = keyPrefix;
      return fetchWithCache(request, { store, keyPrefix: () => prefix, now, next });
    };

  const api: Client<paths> = createFetchClient<paths>({
    baseUrl: apiBase,
    headers: { "x-api-key": apiKey, accept: "application/json" },
    // Every call passes a fetch of its own (see `run`); without one, a call still goes through here.
    fetch: async (request) => (await pipeline({})(request)).response,
  });

  /** Runs one openapi-fetch call and turns its outcome into data or a typed error. */
  async function run<T>(
    call: CallOptions,
    send: (init: { fetch: FetchLike; signal?: AbortSignal }) => Promise<Outcome<T>>,
  ): Promise<{ data: T; notModified: boolean }> {
    const through = pipeline(call);
    let sent: Request | undefined;
    // What the call's one request got: openapi-fetch hands back `answer.response` as is.
    let answer: Answer | undefined;
    const fetch: FetchLike = async (request) => {
      sent = request;
      answer = await through(request);
      return answer.response;
    };
    let outcome: Outcome<T>;
    try {
      outcome = await send({
        fetch,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
    } catch (error) {
      if (error instanceof SyntaxError && answer !== undefined) {
        const { status, headers } = answer.response;
        throw new PressroomError(
          redact(`The Pressroom API answered with a body that is not JSON (HTTP ${status}).`),
          {
            status,
            requestId: headers.get("x-request-id") ?? undefined,
            attempts: answer.attempts,
            cause: error,
          },
        );
      }
      throw error;
    }
    const { response } = outcome;
    const attempts = answer?.attempts ?? 1;
    const notModified = answer?.notModified ?? false;
    onResponse?.({
      method: sent?.method ?? "GET",
      url: sent?.url ?? "",
      status: response.status,
      attempts,
      notModified,
      requestId: response.headers.get("x-request-id") ?? undefined,
    });
    if (response.ok && outcome.data !== undefined) {
      return { data: outcome.data, notModified };
    }
    throw PressroomError.fromResponse(response, outcome.error, {
      attempts,
      retryAfterMs: answer?.retryAfterMs,
      redact,
    });
  }

  return { api, run };
}

function cacheStoreOf(cache: CacheOptions | false | undefined): CacheStore | undefined {
  if (cache === false) return undefined;
  return cache?.store ?? new MemoryCacheStore({ maxEntries: cache?.maxEntries ?? 500 });
}

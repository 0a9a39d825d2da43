import { PressroomError } from "./errors.js";
import type { Answer } from "./retry.js";

/** One cached response: what `If-None-Match` revalidates and what a 304 gives back. */
export interface CacheEntry {
  /** The response's `ETag`, sent back in `If-None-Match`. */
  readonly etag: string;
  /** The response body, as received (JSON text). */
  readonly body: string;
  /** The response's `Content-Type`. */
  readonly contentType?: string | undefined;
  /** When the entry was stored, in ms since the epoch. */
  readonly storedAt: number;
}

/**
 * Where the ETag cache keeps its entries: in memory by default ({@link MemoryCacheStore}), or a
 * file, Redis, … of yours. Entries are plain JSON-serialisable objects. Keys are opaque strings
 * that contain a SHA-256 of the API key, the method and the URL — never the raw key. A store
 * that throws fails the call.
 */
export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined> | CacheEntry | undefined;
  set(key: string, entry: CacheEntry): Promise<void> | void;
  delete?(key: string): Promise<void> | void;
}

/** An in-memory store that keeps the `maxEntries` most recently used entries (LRU). */
export class MemoryCacheStore implements CacheStore {
  readonly maxEntries: number;
  readonly #entries = new Map<string, CacheEntry>();

  constructor(options: { readonly maxEntries?: number } = {}) {
    const maxEntries = options.maxEntries ?? 500;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError("cache.maxEntries must be an integer of at least 1.");
    }
    this.maxEntries = maxEntries;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * A prefix that separates the entries of different API keys without revealing them: the hex
 * SHA-256 of the key under a label of its own, so it also differs from the hash the server stores.
 */
export async function cacheKeyPrefix(apiKey: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new PressroomError(
      "The ETag cache needs Web Crypto (crypto.subtle); pass cache: false to run without it.",
      { attempts: 0 },
    );
  }
  const bytes = new TextEncoder().encode(`pressroom-sdk cache v1\0${apiKey}`);
  const digest = new Uint8Array(await subtle.digest("SHA-256", bytes));
  return `k${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export interface CacheContext {
  readonly store: CacheStore;
  /** Resolves to {@link cacheKeyPrefix} of the client's key (computed once). */
  readonly keyPrefix: () => Promise<string>;
  readonly now: () => number;
  /** The retrying fetch below the cache. */
  readonly next: (request: Request) => Promise<Answer>;
}

/**
 * ETag revalidation for GET requests:
 * - with a cached entry, sends `If-None-Match`; a 304 gives back the cached body as a 200 marked
 *   `notModified` (the 304 itself has no body, so nothing is downloaded again);
 * - a 200 with an `ETag` is stored; a 200 without one, or a 404/410, drops the entry;
 * - an entry is read once, before the request, and held until the answer: a 304 never finds its
 *   entry evicted. A 304 to a request sent without `If-None-Match` (something in between
 *   answered it) is fetched once more, unconditionally, with `Cache-Control: no-cache`.
 */
export async function fetchWithCache(request: Request, ctx: CacheContext): Promise<Answer> {
  const key = `${await ctx.keyPrefix()} ${request.method} ${request.url}`;
  const entry = usable(await ctx.store.get(key));

  const sent =
    entry === undefined ? request : new Request(request, { headers: withEtag(request, entry) });
  const answer = await ctx.next(sent);

  if (answer.response.status === 304) {
    if (entry !== undefined) return fromCache(answer, entry);
    if (ctx.store.delete !== undefined) await ctx.store.delete(key);
    const again = await ctx.next(unconditional(request));
    const attempts = answer.attempts + again.attempts;
    if (again.response.status === 304) {
      throw new PressroomError(
        "The Pressroom API answered 304 Not Modified to a request without If-None-Match.",
        {
          status: 304,
          requestId: again.response.headers.get("x-request-id") ?? undefined,
          attempts,
        },
      );
    }
    return remember({ ...again, attempts }, key, undefined, ctx);
  }
  return remember(answer, key, entry, ctx);
}

async function remember(
  answer: Answer,
  key: string,
  previous: CacheEntry | undefined,
  ctx: CacheContext,
): Promise<Answer> {
  const { response } = answer;
  const etag = response.headers.get("etag");
  if (response.status === 200 && etag !== null) {
    await ctx.store.set(key, {
      etag,
      body: await response.clone().text(),
      contentType: response.headers.get("content-type") ?? undefined,
      storedAt: ctx.now(),
    });
  } else if (
    previous !== undefined &&
    (response.status === 200 || response.status === 404 || response.status === 410) &&
    ctx.store.delete !== undefined
  ) {
    await ctx.store.delete(key);
  }
  return answer;
}

/** The cached body, as the 200 it was, with the 304's fresh headers (request id, ETag …). */
function fromCache(notModified: Answer, entry: CacheEntry): Answer {
  const headers = new Headers(notModified.response.headers);
  for (const name of ["content-length", "content-encoding", "transfer-encoding"]) {
    headers.delete(name);
  }
  headers.set("content-type", entry.contentType ?? "application/json");
  const response = new Response(entry.body, { status: 200, statusText: "OK", headers });
  return { response, attempts: notModified.attempts, notModified: true, retryAfterMs: undefined };
}

function withEtag(request: Request, entry: CacheEntry): Headers {
  const headers = new Headers(request.headers);
  headers.set("if-none-match", entry.etag);
  return headers;
}

function unconditional(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete("if-none-match");
  headers.set("cache-control", "no-cache");
  return new Request(request, { headers });
}

/** A stored entry the cache can use; anything else (a corrupt file, an old format) is a miss. */
function usable(entry: unknown): CacheEntry | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { etag, body, contentType, storedAt } = entry as Record<string, unknown>;
  if (typeof etag !== "string" || etag === "" || typeof body !== "string") return undefined;
  try {
    JSON.parse(body);
  } catch {
    return undefined; // revalidating a corrupt body would keep it forever
  }
  return {
    etag,
    body,
    contentType: typeof contentType === "string" ? contentType : undefined,
    storedAt: typeof storedAt === "number" ? storedAt : 0,
  };
}

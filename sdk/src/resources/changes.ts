import { PressroomError } from "../errors.js";
import type { components } from "../generated/consumer.js";
import type { Transport } from "../transport.js";
import type { Blog, CallOptions } from "../types.js";

/** One change of the feed, exactly as the API's `Change` schema defines it. */
export type Change = components["schemas"]["Change"];
/** One page of the feed, exactly as the API's `ChangePage` schema defines it. */
export type ChangePage = components["schemas"]["ChangePage"];

export interface ChangesOptions extends Omit<CallOptions, "cache"> {
  /** The `nextToken` of the previous page; absent to start from the current released set. */
  readonly since?: string | undefined;
  /** Most changes per page, 1–100. Server default 100. */
  readonly limit?: number;
}

/**
 * Where {@link Changes.sync} keeps the mirror and its token: in memory
 * ({@link MemorySyncStore}), or a database table, a search index, files… of your own.
 */
export interface SyncStore {
  /** The token the last `apply` was given; `undefined` before the first sync. */
  getToken(): string | undefined | Promise<string | undefined>;
  /**
   * Applies one page in order — `upsert`: store `change.blog` under its `id`, replacing any
   * copy; `delete`: drop `change.id` if present — and then keeps `nextToken`. If it throws, the
   * sync stops and the next one repeats the page, which is harmless.
   */
  apply(changes: readonly Change[], nextToken: string): void | Promise<void>;
  /** Drops every blog and the token: the server no longer has changes that old (HTTP 410). */
  clear(): void | Promise<void>;
}

/** A {@link SyncStore} in memory: `blogs` is the mirror. */
export class MemorySyncStore implements SyncStore {
  readonly blogs = new Map<string, Blog>();
  token: string | undefined;

  getToken(): string | undefined {
    return this.token;
  }

  apply(changes: readonly Change[], nextToken: string): void {
    for (const change of changes) {
      if (change.type === "upsert") this.blogs.set(change.blog.id, change.blog);
      else this.blogs.delete(change.id);
    }
    this.token = nextToken;
  }

  clear(): void {
    this.blogs.clear();
    this.token = undefined;
  }
}

export interface SyncOptions extends Omit<ChangesOptions, "since"> {
  readonly store: SyncStore;
}

export interface SyncResult {
  readonly upserts: number;
  readonly deletes: number;
  /** Pages fetched. */
  readonly pages: number;
  /** `true` when the stored token had expired (410) and the mirror was rebuilt from scratch. */
  readonly restarted: boolean;
  /** The token now in the store. */
  readonly token: string;
}

/** The changes feed of the consumer API (`GET /changes`; see the API's "Syncing a mirror"). */
export interface Changes {
  /** One page of changes after `since`. A 410 (token too old) throws a `PressroomError`. */
  page(options?: ChangesOptions): Promise<ChangePage>;
  /** Every page after `since`, until `hasMore` is false: an async iterator of the changes. */
  pages(options?: ChangesOptions): AsyncGenerator<ChangePage, void, undefined>;
  /**
   * Brings `store` up to date: from its token (or from scratch), applies every page in order
   * and keeps each page's token once applied. When the token has expired (410) it clears the
   * store and starts again, once. Run it every few minutes.
   */
  sync(options: SyncOptions): Promise<SyncResult>;
}

/** Most pages one walk follows before suspecting a server that never says "no more". */
const MAX_PAGES = 1_000_000;

/** The changes resource of a client: every call goes through its `transport`. */
export function changesApi({ api, run }: Transport): Changes {
  async function page(options: ChangesOptions = {}): Promise<ChangePage> {
    const { since, limit } = options;
    const query = {
      ...(since === undefined ? {} : { since }),
      ...(limit === undefined ? {} : { limit }),
    };
    // No ETag on this operation: nothing to cache.
    const { data } = await run({ ...options, cache: false }, (init) =>
      api.GET("/changes", { params: { query }, ...init }),
    );
    return data;
  }

  async function* pages(options: ChangesOptions = {}): AsyncGenerator<ChangePage, void, undefined> {
    let since = options.since;
    for (let n = 0; n < MAX_PAGES; n++) {
      const current = await page({ ...options, since });
      yield current;
      if (!current.hasMore) return;
      if (current.nextToken === since) {
        throw new PressroomError("The changes feed repeated a token; stopped.", { attempts: 0 });
      }
      since = current.nextToken;
    }
    throw new PressroomError("The changes feed did not end; stopped.", { attempts: 0 });
  }

  async function sync(options: SyncOptions): Promise<SyncResult> {
    const { store, ...call } = options;
    let upserts = 0;
    let deletes = 0;
    let fetched = 0;
    let restarted = false;
    let token: string | undefined;
    for (;;) {
      try {
        for await (const current of pages({ ...call, since: await store.getToken() })) {
          fetched++;
          await store.apply(current.changes, current.nextToken);
          token = current.nextToken;
          for (const change of current.changes) {
            if (change.type === "upsert") upserts++;
            else deletes++;
          }
        }
      } catch (error) {
        if (error instanceof PressroomError && error.status === 410 && !restarted) {
          restarted = true;
          await store.clear();
          continue;
        }
        throw error;
      }
      if (token === undefined)
        throw new PressroomError("The changes feed sent no page.", { attempts: 0 });
      return { upserts, deletes, pages: fetched, restarted, token };
    }
  }

  return { page, pages, sync };
}
